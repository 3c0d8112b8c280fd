/**
 * The backend contract ({@code dev.quiver.spi}). {@code dev.quiver.spi.host}, the host device shared by the
 * API and the CPU backend, is exported to those two modules only.
 */
module dev.quiver.spi {
    exports dev.quiver.spi;
    exports dev.quiver.spi.host to dev.quiver.api, dev.quiver.device.cpu;
}
