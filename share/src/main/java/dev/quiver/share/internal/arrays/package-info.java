/**
 * Between arrays and batches: walking an array's buffers, planning a handoff (shared or copied), laying buffers
 * out in shared memory, and importing a received batch under the receiver's checks.
 */
package dev.quiver.share.internal.arrays;
