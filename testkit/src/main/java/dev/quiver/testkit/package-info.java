/**
 * Compiles C sources with the system compiler ({@code $CC}, else {@code cc}) into shared libraries and
 * loads them through {@link java.lang.foreign.SymbolLookup}, so tests put real C on the other side of an
 * ABI. A missing compiler or a compile error fails the test with the compiler's output; it never skips.
 */
package dev.quiver.testkit;
