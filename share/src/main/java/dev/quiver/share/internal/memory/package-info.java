/** Shareable host memory of this process: memory files mapped by their owner, found by address. */
package dev.quiver.share.internal.memory;
