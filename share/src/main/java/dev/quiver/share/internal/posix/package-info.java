/**
 * The C library calls of sharing through FFM, and the only package of the module that makes restricted calls:
 * memory files ({@code memfd_create}, {@code ftruncate}, seals, {@code fstat}, {@code mmap}), dma-buf descriptors
 * ({@code fstatfs}), Unix domain sockets with descriptor passing ({@code sendmsg}/{@code recvmsg} with
 * {@code SCM_RIGHTS}) and peer credentials ({@code SO_PEERCRED}), and sized views of host addresses read from C structs.
 */
package dev.quiver.share.internal.posix;
