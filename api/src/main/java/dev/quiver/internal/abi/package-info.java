/**
 * The C ABI layer: reading and writing the Arrow C structs, release callbacks and their export table,
 * DLPack deleters (sharing the release machinery), the native heap, calls through C function pointers and
 * upcall stubs, and sized views of raw pointers ({@link dev.quiver.internal.abi.Pointers}). The only package
 * of the API that makes restricted FFM calls (a structure test enforces it); every other package calls the
 * small, named methods here. Upcalls never throw: they record failures in
 * {@link dev.quiver.internal.abi.CallbackErrors}. Not exported from the module, except to the conformance
 * checker.
 */
package dev.quiver.internal.abi;
