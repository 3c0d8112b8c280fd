package dev.quiver.share.internal.posix;

import dev.quiver.testkit.CLibrary;
import dev.quiver.testkit.CProgram;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The constants and struct offsets {@link Libc} spells out, against what the C compiler says on this machine. */
class LibcAbiTest {

    @Test
    void constantsAndOffsetsMatchTheCHeaders() {
        String program = """
                #define _GNU_SOURCE
                #include <stdio.h>
                #include <stddef.h>
                #include <fcntl.h>
                #include <sys/mman.h>
                #include <sys/socket.h>
                #include <sys/stat.h>
                #include <sys/un.h>
                #include <sys/uio.h>
                #include <errno.h>
                #include <sys/time.h>
                #include <sys/vfs.h>
                #include <linux/magic.h>
                int main(void) {
                    printf("%d %d %d %d %d %d\\n", AF_UNIX, SOCK_STREAM, SOCK_CLOEXEC, SOL_SOCKET, SO_PEERCRED, SCM_RIGHTS);
                    printf("%d %d %d %d %d\\n", MSG_NOSIGNAL, MSG_CTRUNC, MSG_CMSG_CLOEXEC, SHUT_RDWR, EINTR);
                    printf("%d %d %d %d %d %d %d %d\\n", MFD_CLOEXEC, MFD_ALLOW_SEALING, F_ADD_SEALS, F_GET_SEALS,
                           F_SEAL_SEAL, F_SEAL_SHRINK, F_SEAL_GROW, PROT_READ | PROT_WRITE << 8);
                    printf("%d %d\\n", MAP_SHARED, MAP_PRIVATE);
                    printf("%zu %zu\\n", sizeof(struct sockaddr_un), sizeof(((struct sockaddr_un *) 0)->sun_path));
                    printf("%zu %zu %zu %zu %zu %zu %zu %zu\\n", sizeof(struct msghdr), offsetof(struct msghdr, msg_name),
                           offsetof(struct msghdr, msg_namelen), offsetof(struct msghdr, msg_iov), offsetof(struct msghdr, msg_iovlen),
                           offsetof(struct msghdr, msg_control), offsetof(struct msghdr, msg_controllen), offsetof(struct msghdr, msg_flags));
                    printf("%zu %zu %zu %zu\\n", sizeof(struct iovec), sizeof(struct cmsghdr), offsetof(struct cmsghdr, cmsg_level),
                           offsetof(struct cmsghdr, cmsg_type));
                    printf("%zu %zu %zu\\n", (size_t) CMSG_LEN(0), sizeof(struct ucred), (size_t) CMSG_SPACE(253 * sizeof(int)));
                    printf("%d %zu\\n", sizeof(struct stat) <= 256, offsetof(struct stat, st_size));
                    printf("%d %d %zu\\n", SO_RCVTIMEO, EAGAIN, sizeof(struct timeval));
                    printf("%d %zu %ld\\n", sizeof(struct statfs) <= 256, offsetof(struct statfs, f_type), (long) DMA_BUF_MAGIC);
                    return 0;
                }
                """;
        String[] lines = CProgram.run(List.of(new CLibrary.Source("abi.c", program)), List.of("-std=gnu11")).split("\n");
        assertEquals(List.of(Libc.AF_UNIX, Libc.SOCK_STREAM, Libc.SOCK_CLOEXEC, Libc.SOL_SOCKET, Libc.SO_PEERCRED, Libc.SCM_RIGHTS),
                ints(lines[0]));
        assertEquals(List.of(Libc.MSG_NOSIGNAL, Libc.MSG_CTRUNC, Libc.MSG_CMSG_CLOEXEC, Libc.SHUT_RDWR, Libc.EINTR), ints(lines[1]));
        assertEquals(List.of(Libc.MFD_CLOEXEC, Libc.MFD_ALLOW_SEALING, Libc.F_ADD_SEALS, Libc.F_GET_SEALS, Libc.F_SEAL_SEAL,
                Libc.F_SEAL_SHRINK, Libc.F_SEAL_GROW, Libc.PROT_READ | Libc.PROT_WRITE << 8), ints(lines[2]));
        assertEquals(List.of(Libc.MAP_SHARED, Libc.MAP_PRIVATE), ints(lines[3]));
        assertEquals(List.of(Libc.SOCKADDR_UN_SIZE, (long) Libc.SUN_PATH_MAX), longs(lines[4]));
        assertEquals(List.of(Libc.MSGHDR_SIZE, Libc.MSG_NAME, Libc.MSG_NAMELEN, Libc.MSG_IOV, Libc.MSG_IOVLEN, Libc.MSG_CONTROL,
                Libc.MSG_CONTROLLEN, Libc.MSG_FLAGS), longs(lines[5]));
        assertEquals(List.of(Libc.IOVEC_SIZE, Libc.CMSG_HEADER, Libc.CMSG_LEVEL, Libc.CMSG_TYPE), longs(lines[6]));
        assertEquals(List.of(Libc.CMSG_HEADER, Libc.UCRED_SIZE, UnixSocket.CONTROL_SIZE), longs(lines[7]));
        assertEquals(List.of(1L, Libc.STAT_ST_SIZE), longs(lines[8]));
        assertEquals(List.of((long) Libc.SO_RCVTIMEO, (long) Libc.EAGAIN, Libc.TIMEVAL_SIZE), longs(lines[9]));
        assertEquals(List.of(1L, Libc.STATFS_F_TYPE, Libc.DMA_BUF_MAGIC), longs(lines[10]));
    }

    private static List<Integer> ints(String line) {
        return java.util.Arrays.stream(line.trim().split(" ")).map(Integer::valueOf).toList();
    }

    private static List<Long> longs(String line) {
        return java.util.Arrays.stream(line.trim().split(" ")).map(Long::valueOf).toList();
    }
}
