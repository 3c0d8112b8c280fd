/**
 * Device arrays handed to another process on the same machine as handles, not bytes: an owner serves arrays
 * on a Unix domain socket ({@link dev.quiver.share.ShareServer}, {@link dev.quiver.share.ShareSession}), a
 * receiver imports them as ordinary {@link dev.quiver.DeviceArray}s ({@link dev.quiver.share.ShareClient}), and
 * each array's release in the receiver reaches the owner. Host memory travels as memory files
 * ({@code memfd_create}) whose descriptors pass over the socket; arrays built in a
 * {@link dev.quiver.share.SharedHostArena} (or on a pool using {@link dev.quiver.share.SharedHostAllocator}) go
 * with no copy, others are copied into a memory file first and the receiver is told so. Device memory of a
 * device whose backend has an inter-process mechanism (CUDA, HIP, Level Zero IPC) travels as the driver's handles
 * to a receiver of that same device ({@link dev.quiver.share.ShareServer#serve}), which opens them on its device,
 * with no copy through host memory. The protocol,
 * byte by byte, is in {@code docs/SHARING.md} of the repository, so that another runtime can implement either end.
 *
 * <p><b>Lifetimes.</b> The owner keeps each batch's memory alive until the receiver releases it or the
 * connection ends (a receiver that dies leaks nothing); a receiver's arrays stay readable after the owner dies,
 * and its next call reports the owner gone with a {@link dev.quiver.share.ShareException}.
 *
 * <p><b>What a receiver may see.</b> The owner keeps what it shares mapped writable and may change it at any
 * moment, even after the receiver checked a batch. A received array's offsets, views, variadic sizes, union type
 * ids and offsets, dictionary indices and run ends are therefore the receiver's own copies, taken before the
 * check (host memory for a batch of memory files, allocations on the receiver's device for one of device
 * handles); its validity bitmaps, values and string bytes are the owner's memory, read in place. If the owner
 * writes a batch it has not had back, a reader may see other values, other nulls (a null count that disagrees
 * with the bitmap) or a string that is not valid UTF-8 (decoded with replacement characters), but never reads
 * outside the buffers the batch was checked against, and nothing the owner writes makes this process fault.
 *
 * <p><b>Native access.</b> The module makes restricted FFM calls (the C library's memory file, mapping and socket
 * calls) in its internal {@code posix} package: run with {@code --enable-native-access=dev.quiver.share} (or
 * {@code ALL-UNNAMED} on the class path). Linux only.
 */
package dev.quiver.share;
