/**
 * {@code quiver share} and {@code quiver attach}: hand generated batches to another process on this machine
 * through {@code dev.quiver.share} (memory files over a Unix domain socket, docs/SHARING.md), and receive them
 * there. The command classes hold only options; the work is in {@link dev.quiver.cli.share.Sharing} and
 * {@link dev.quiver.cli.share.Attaching}.
 */
package dev.quiver.cli.share;
