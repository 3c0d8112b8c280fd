/**
 * The conformance checker for other implementations of the Arrow C Device Data Interface
 * ({@code quiver check}): outside the core API jar. Uses the API's C ABI layer and validators through
 * qualified exports, so it makes no restricted FFM calls of its own; the library under check runs inside
 * this process, with {@code dev.quiver.api} granted native access.
 */
module dev.quiver.check {
    requires transitive dev.quiver.api;
    requires dev.quiver.spi;   // asks backends whether a sync_event is theirs
    exports dev.quiver.check;
}
