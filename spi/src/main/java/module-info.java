/**
 * The backend contract ({@code dev.quiver.spi}). {@code dev.quiver.spi.host}, the host device shared by the
 * API and the CPU backend, is exported to those two modules only.
 */
@SuppressWarnings("module")   // the modules of the qualified export are built after this one
module dev.quiver.spi {
    exports dev.quiver.spi;
    exports dev.quiver.spi.host to dev.quiver.api, dev.quiver.device.cpu;
}
