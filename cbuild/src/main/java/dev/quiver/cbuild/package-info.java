/**
 * Compiles C sources with the system compiler ({@code $CC}, else {@code cc}) into shared libraries
 * ({@link dev.quiver.cbuild.CompiledLibrary}) and loads them through {@link java.lang.foreign.SymbolLookup};
 * {@link dev.quiver.cbuild.CSource#arrowCAbi()} is the Arrow C Data and C Device Data structs as a header,
 * written from the specification. A missing compiler or a compile error fails with the compiler's output.
 */
package dev.quiver.cbuild;
