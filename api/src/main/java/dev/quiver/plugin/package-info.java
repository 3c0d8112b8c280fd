/**
 * Where the API meets the SPI, for plugin authors, the conformance suite, and applications that adopt a native
 * context through a backend's own API: {@link dev.quiver.plugin.Backends}. This is the one exported package
 * whose signatures name {@code dev.quiver.spi} types; code that uses it compiles against {@code quiver-spi}
 * ({@code requires dev.quiver.spi} on the module path). Applications that only share data never need it.
 */
package dev.quiver.plugin;
