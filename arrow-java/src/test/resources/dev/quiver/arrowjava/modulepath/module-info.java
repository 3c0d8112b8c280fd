/** A named module that uses the bridge, compiled and run on the module path by ModulePathTest. */
module bridge.user {
    requires dev.quiver.arrowjava;
}
