/**
 * The {@code quiver} command line: {@code devices} lists every backend with its status and devices,
 * {@code selftest} moves a record batch through each usable device and the C ABI and verifies it.
 * Commands run on the main thread and print to standard output; the exit code is 0 on success.
 */
package dev.quiver.cli;
