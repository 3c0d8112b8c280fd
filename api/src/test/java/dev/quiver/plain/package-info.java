/**
 * Tests of the plain Arrow C Data interface ({@code ArrowArray}, {@code ArrowSchema}, {@code ArrowArrayStream})
 * both ways: against DuckDB's C API, an engine that speaks no C Device interface, and Quiver against itself.
 */
package dev.quiver.plain;
