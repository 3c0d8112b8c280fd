package dev.quiver.share.internal.posix;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The C library calls of sharing, bound lazily through the linker and called exactly, each capturing {@code errno}. Every call
 * returns the C result; a negative result means failure, and {@link #errno(MemorySegment)} reads the cause
 * from the capture segment the caller passed. Constants and struct offsets are those of Linux on 64-bit
 * targets (x86-64, AArch64), checked against a C compiler by the tests. Stateless; any thread.
 */
final class Libc {
    static final int AF_UNIX = 1;
    static final int SOCK_STREAM = 1;
    static final int SOCK_CLOEXEC = 0x80000;
    static final int SOL_SOCKET = 1;
    static final int SO_PEERCRED = 17;
    static final int SO_RCVTIMEO = 20;
    static final int EAGAIN = 11;
    /** {@code struct timeval}: seconds, microseconds. */
    static final long TIMEVAL_SIZE = 16;
    static final int SCM_RIGHTS = 1;
    static final int MSG_NOSIGNAL = 0x4000;
    static final int MSG_CTRUNC = 0x8;
    static final int MSG_CMSG_CLOEXEC = 0x40000000;
    static final int MSG_DONTWAIT = 0x40;
    static final int SHUT_RDWR = 2;
    static final int MFD_CLOEXEC = 1;
    static final int MFD_ALLOW_SEALING = 2;
    static final int F_ADD_SEALS = 1033;
    static final int F_GET_SEALS = 1034;
    static final int F_SEAL_SEAL = 1;
    static final int F_SEAL_SHRINK = 2;
    static final int F_SEAL_GROW = 4;
    static final int PROT_READ = 1;
    static final int PROT_WRITE = 2;
    static final int MAP_SHARED = 1;
    static final int MAP_PRIVATE = 2;
    static final int PROT_NONE = 0;
    static final int MAP_FIXED = 0x10;
    static final int MAP_ANONYMOUS = 0x20;
    static final int MAP_NORESERVE = 0x4000;
    static final int EINTR = 4;

    /** {@code struct sockaddr_un}: family, then 108 bytes of path. */
    static final long SOCKADDR_UN_SIZE = 110;
    static final int SUN_PATH_MAX = 108;
    /** {@code struct msghdr}. */
    static final long MSGHDR_SIZE = 56;
    static final long MSG_NAME = 0, MSG_NAMELEN = 8, MSG_IOV = 16, MSG_IOVLEN = 24, MSG_CONTROL = 32,
            MSG_CONTROLLEN = 40, MSG_FLAGS = 48;
    /** {@code struct iovec}. */
    static final long IOVEC_SIZE = 16;
    /** {@code struct cmsghdr}: length (size_t), level, type, then the data. */
    static final long CMSG_HEADER = 16;
    static final long CMSG_LEVEL = 8, CMSG_TYPE = 12;
    /** {@code struct ucred}: pid, uid, gid. */
    static final long UCRED_SIZE = 12;
    /** {@code struct stat}: big enough for every 64-bit Linux; {@code st_size} sits at 48 on x86-64 and AArch64. */
    static final long STAT_SIZE = 256;
    static final long STAT_ST_SIZE = 48;
    /** {@code struct statfs}: big enough for every 64-bit Linux; {@code f_type} first. */
    static final long STATFS_SIZE = 256;
    static final long STATFS_F_TYPE = 0;
    /** {@code f_type} of a dma-buf ({@code DMA_BUF_MAGIC} of {@code linux/magic.h}). */
    static final long DMA_BUF_MAGIC = 0x444d4142L;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private Libc() {}

    /** The handles, bound on first use (no native work at class initialisation of the callers). */
    private static final class Calls {
        static final MethodHandle MEMFD_CREATE = bind("memfd_create", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        static final MethodHandle FTRUNCATE = bind("ftruncate", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG));
        static final MethodHandle FCNTL = bindVariadic("fcntl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT), 2);
        static final MethodHandle FSTAT = bind("fstat", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
        static final MethodHandle FSTATFS = bind("fstatfs", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
        static final MethodHandle MMAP = bind("mmap", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
        static final MethodHandle MUNMAP = bind("munmap", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        static final MethodHandle CLOSE = bind("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        static final MethodHandle SOCKET = bind("socket", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
        static final MethodHandle BIND = bind("bind", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
        static final MethodHandle LISTEN = bind("listen", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
        static final MethodHandle ACCEPT4 = bind("accept4", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        static final MethodHandle CONNECT = bind("connect", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
        static final MethodHandle SENDMSG = bind("sendmsg", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT));
        static final MethodHandle RECVMSG = bind("recvmsg", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT));
        static final MethodHandle GETSOCKOPT = bind("getsockopt", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
        static final MethodHandle SETSOCKOPT = bind("setsockopt", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
        static final MethodHandle SHUTDOWN = bind("shutdown", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
        static final MethodHandle GETUID = LINKER.downcallHandle(LINKER.defaultLookup().find("getuid").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT));
        static final MethodHandle GETPID = LINKER.downcallHandle(LINKER.defaultLookup().find("getpid").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT));

        private static MethodHandle bind(String name, FunctionDescriptor descriptor) {
            return LINKER.downcallHandle(symbol(name), descriptor, Linker.Option.captureCallState("errno"));
        }

        private static MethodHandle bindVariadic(String name, FunctionDescriptor descriptor, int firstVariadic) {
            return LINKER.downcallHandle(symbol(name), descriptor, Linker.Option.captureCallState("errno"),
                    Linker.Option.firstVariadicArg(firstVariadic));
        }

        private static MemorySegment symbol(String name) {
            return LINKER.defaultLookup().find(name)
                    .orElseThrow(() -> new UnsupportedOperationException("the C library has no " + name + "()"));
        }
    }

    /** {@return a segment to capture {@code errno} in, from {@code arena}} */
    static MemorySegment capture(Arena arena) {
        return arena.allocate(CAPTURE);
    }

    /** {@return the {@code errno} a call captured} */
    static int errno(MemorySegment capture) {
        return (int) ERRNO.get(capture, 0L);
    }

    static int memfdCreate(MemorySegment errno, MemorySegment name, int flags) {
        try {
            return (int) Calls.MEMFD_CREATE.invokeExact(errno, name, flags);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ftruncate(MemorySegment errno, int fd, long size) {
        try {
            return (int) Calls.FTRUNCATE.invokeExact(errno, fd, size);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int fcntl(MemorySegment errno, int fd, int command, int argument) {
        try {
            return (int) Calls.FCNTL.invokeExact(errno, fd, command, argument);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int fstat(MemorySegment errno, int fd, MemorySegment stat) {
        try {
            return (int) Calls.FSTAT.invokeExact(errno, fd, stat);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int fstatfs(MemorySegment errno, int fd, MemorySegment statfs) {
        try {
            return (int) Calls.FSTATFS.invokeExact(errno, fd, statfs);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@return the mapping, sized {@code length}, or {@code MAP_FAILED} (address -1)} */
    static MemorySegment mmap(MemorySegment errno, long length, int protection, int flags, int fd) {
        return mmap(errno, MemorySegment.NULL, length, protection, flags, fd);
    }

    /** {@return the mapping at {@code at} (a hint, or the place with {@link #MAP_FIXED}), sized {@code length}, or {@code MAP_FAILED}} */
    static MemorySegment mmap(MemorySegment errno, MemorySegment at, long length, int protection, int flags, int fd) {
        MemorySegment address;
        try {
            address = (MemorySegment) Calls.MMAP.invokeExact(errno, at, length, protection, flags, fd, 0L);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        return address.address() == -1L ? address : address.reinterpret(length);
    }

    static int munmap(MemorySegment errno, MemorySegment mapping) {
        try {
            return (int) Calls.MUNMAP.invokeExact(errno, mapping, mapping.byteSize());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int close(MemorySegment errno, int fd) {
        try {
            return (int) Calls.CLOSE.invokeExact(errno, fd);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int socket(MemorySegment errno, int domain, int type, int protocol) {
        try {
            return (int) Calls.SOCKET.invokeExact(errno, domain, type, protocol);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int bind(MemorySegment errno, int fd, MemorySegment address) {
        try {
            return (int) Calls.BIND.invokeExact(errno, fd, address, (int) address.byteSize());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int listen(MemorySegment errno, int fd, int backlog) {
        try {
            return (int) Calls.LISTEN.invokeExact(errno, fd, backlog);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int accept(MemorySegment errno, int fd) {
        try {
            return (int) Calls.ACCEPT4.invokeExact(errno, fd, MemorySegment.NULL, MemorySegment.NULL, SOCK_CLOEXEC);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int connect(MemorySegment errno, int fd, MemorySegment address) {
        try {
            return (int) Calls.CONNECT.invokeExact(errno, fd, address, (int) address.byteSize());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long sendmsg(MemorySegment errno, int fd, MemorySegment message, int flags) {
        try {
            return (long) Calls.SENDMSG.invokeExact(errno, fd, message, flags);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long recvmsg(MemorySegment errno, int fd, MemorySegment message, int flags) {
        try {
            return (long) Calls.RECVMSG.invokeExact(errno, fd, message, flags);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int getsockopt(MemorySegment errno, int fd, int level, int name, MemorySegment value, MemorySegment length) {
        try {
            return (int) Calls.GETSOCKOPT.invokeExact(errno, fd, level, name, value, length);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int setsockopt(MemorySegment errno, int fd, int level, int name, MemorySegment value) {
        try {
            return (int) Calls.SETSOCKOPT.invokeExact(errno, fd, level, name, value, (int) value.byteSize());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int shutdown(MemorySegment errno, int fd, int how) {
        try {
            return (int) Calls.SHUTDOWN.invokeExact(errno, fd, how);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int getuid() {
        try {
            return (int) Calls.GETUID.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException("getuid failed", t);
        }
    }

    static int getpid() {
        try {
            return (int) Calls.GETPID.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException("getpid failed", t);
        }
    }

    /** A pointer read from native memory, made addressable for {@code size} bytes. */
    static MemorySegment sized(MemorySegment pointer, long size) {
        return pointer.reinterpret(size);
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException e) {
            throw e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
