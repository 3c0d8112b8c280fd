/**
 * The sharing protocol of docs/SHARING.md: framing, message types and bodies, handle kinds, error codes and the
 * limits a receiver enforces. Knows nothing of how arrays are made or read.
 */
package dev.quiver.share.internal.protocol;
