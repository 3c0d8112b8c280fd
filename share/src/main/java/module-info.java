/**
 * Device arrays shared between processes on one machine as handles, not bytes (see {@link dev.quiver.share}).
 * Makes restricted FFM calls, all in its internal {@code posix} package: run with
 * {@code --enable-native-access=dev.quiver.share}.
 */
module dev.quiver.share {
    requires transitive dev.quiver.api;
    requires dev.quiver.spi;   // a device's backend: its inter-process memory handles
    exports dev.quiver.share;
}
