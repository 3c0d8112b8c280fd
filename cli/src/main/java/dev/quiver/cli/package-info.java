/**
 * The {@code quiver} command line: {@code devices} lists every backend with its status and devices,
 * {@code selftest} moves a record batch through each usable device and the C ABI and verifies it,
 * {@code check} calls a producer function of a shared library and lists every way what it produces breaks
 * the Arrow C Device Data Interface, {@code flight} serves and fetches device arrays over Arrow Flight
 * ({@code dev.quiver.cli.flight}). Commands run on the main thread and print to standard output; the exit
 * code is 0 on success, 1 on failure and 2 on a usage error.
 */
package dev.quiver.cli;
