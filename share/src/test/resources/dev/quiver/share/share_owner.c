/* An owner of the Quiver sharing protocol, version 2, written from docs/SHARING.md alone: listens on a Unix
 * socket, checks its one receiver's credentials and HELLO, answers WELCOME and the schema of the test table (a
 * struct of int64 "id", utf8 "name", float64 "score" and list<int32> "tags" of int32 "item", every field
 * nullable), then sends batch after batch for as long as the receiver's allowance lets it. Batch b (id b + 1) holds
 * the rows the Java tests' Batches.table(b, ROWS) holds, in one memory file of its own (region id b + 1, delivery
 * 0); the file is kept until the receiver releases the batch, then closed and retired with REGION_CLOSED before
 * the next BATCH. Prints "SOCKET path" once it listens and "SENT n" after each batch; meant to be killed.
 * Usage: program SOCKET_PATH ROWS */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_HELD 4096
#define NO_HANDLE 0xFFFFFFFFu

static int conn;

static void fail(const char *what) {
    fprintf(stderr, "share_owner: %s (errno %d)\n", what, errno);
    exit(2);
}

/* Writes one message: the header, the body, and the descriptor (if fd >= 0) attached to the header's first byte. */
static void send_message(uint16_t type, const uint8_t *body, uint32_t length, int fd) {
    uint8_t header[8];
    uint16_t fds = fd >= 0 ? 1 : 0;
    memcpy(header, &length, 4);
    memcpy(header + 4, &type, 2);
    memcpy(header + 6, &fds, 2);
    struct iovec iov[2] = {{header, 8}, {(void *) body, length}};
    union { char bytes[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } control;
    struct msghdr msg = {0};
    msg.msg_iov = iov;
    msg.msg_iovlen = 2;
    if (fd >= 0) {
        msg.msg_control = control.bytes;
        msg.msg_controllen = sizeof control.bytes;
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof(int));
    }
    size_t total = 8 + (size_t) length;
    ssize_t sent = sendmsg(conn, &msg, MSG_NOSIGNAL);
    if (sent < 0) exit(0);                    /* the receiver is gone: nothing left to serve */
    while ((size_t) sent < total) {           /* the rest with plain sends */
        size_t done = (size_t) sent;
        const uint8_t *from = done < 8 ? header + done : body + (done - 8);
        size_t part = done < 8 ? 8 - done : total - done;
        ssize_t more = send(conn, from, part, MSG_NOSIGNAL);
        if (more < 0) exit(0);
        sent += more;
    }
}

static void read_exact(uint8_t *into, size_t n) {
    size_t done = 0;
    while (done < n) {
        ssize_t got = recv(conn, into + done, n - done, 0);
        if (got == 0) exit(0);                /* the receiver closed: done */
        if (got < 0) {
            if (errno == EINTR) continue;
            exit(0);
        }
        done += (size_t) got;
    }
}

/* A growing little-endian body. */
typedef struct { uint8_t *p; uint32_t n, cap; } body_t;
static void put(body_t *b, const void *v, uint32_t bytes) {
    if (b->n + bytes > b->cap) {
        b->cap = (b->n + bytes) * 2;
        b->p = realloc(b->p, b->cap);
        if (b->p == NULL) fail("realloc");
    }
    memcpy(b->p + b->n, v, bytes);
    b->n += bytes;
}
static void u32(body_t *b, uint32_t v) { put(b, &v, 4); }
static void u64(body_t *b, uint64_t v) { put(b, &v, 8); }
static void text(body_t *b, const char *s) { u32(b, (uint32_t) strlen(s)); put(b, s, (uint32_t) strlen(s)); }

static void field(body_t *b, const char *format, const char *name, uint32_t children) {
    text(b, format);
    text(b, name);
    u64(b, 2);                                /* ARROW_FLAG_NULLABLE */
    u32(b, 0);                                /* no metadata */
    u32(b, children);
}

/* Batches the receiver holds: their region's memory file, to close and retire once released. */
typedef struct { uint64_t id; int fd; uint8_t *base; size_t size; } held_t;
static held_t held[MAX_HELD];
static int held_count;
static uint64_t to_retire[MAX_HELD];
static int retire_count;
static uint64_t credit;

/* Reads one message of the receiver: REQUEST adds to the allowance, RELEASED frees batches. */
static void read_message(void) {
    uint8_t header[8];
    read_exact(header, 8);
    uint32_t length;
    uint16_t type, fds;
    memcpy(&length, header, 4);
    memcpy(&type, header + 4, 2);
    memcpy(&fds, header + 6, 2);
    if (fds != 0 || length > (16u << 20)) fail("a receiver's message with descriptors or past the limit");
    uint8_t *body = malloc(length + 1);
    read_exact(body, length);
    if (type == 4 && length == 4) {
        uint32_t count;
        memcpy(&count, body, 4);
        credit += count;
    } else if (type == 6 && length >= 8) {
        uint32_t count;
        memcpy(&count, body, 4);
        if (length != 8 + 8 * (uint64_t) count) fail("RELEASED of the wrong length");
        for (uint32_t i = 0; i < count; i++) {
            uint64_t id;
            memcpy(&id, body + 8 + 8 * i, 8);
            int found = 0;
            for (int h = 0; h < held_count && !found; h++) {
                if (held[h].id == id) {
                    munmap(held[h].base, held[h].size);
                    close(held[h].fd);
                    to_retire[retire_count++] = id;   /* one region per batch, the same id */
                    held[h] = held[--held_count];
                    found = 1;
                }
            }
            if (!found) fail("RELEASED of a batch not held");
        }
    } else {
        fail("expected REQUEST or RELEASED");
    }
    free(body);
}

static int64_t align64(int64_t at) { return (at + 63) & ~(int64_t) 63; }

/* Sends batch b: the rows of Batches.table(b, rows), in one new sealed memory file. */
static void send_batch(int b, int rows) {
    int elements = 0;
    for (int i = 0; i < rows; i++) elements += i % 9 == 8 ? 0 : i % 3;
    int64_t name_bytes = 0;
    char name[64];
    for (int i = 0; i < rows; i++) {
        if (i % 7 != 3) name_bytes += snprintf(name, sizeof name, "row-%d-%d%s", b, i, i % 5 == 0 ? "-\xc3\xbc" : "");
    }
    int64_t bitmap = (rows + 7) / 8;
    /* the buffers, in order: ids, name validity, name offsets, name data, score validity, scores, tag validity,
       tag offsets, items */
    int64_t lengths[9] = {8 * (int64_t) rows, bitmap, 4 * (int64_t) (rows + 1), name_bytes, bitmap, 8 * (int64_t) rows,
                          bitmap, 4 * (int64_t) (rows + 1), 4 * (int64_t) elements};
    int64_t offsets[9];
    int64_t size = 0;
    for (int k = 0; k < 9; k++) {
        offsets[k] = size;
        size = align64(size + (lengths[k] > 0 ? lengths[k] : 1));
    }
    int fd = memfd_create("quiver-share-owner", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0 || ftruncate(fd, size) != 0) fail("memfd");
    uint8_t *base = mmap(NULL, (size_t) size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) fail("mmap");
    int64_t *ids = (int64_t *) (base + offsets[0]);
    uint8_t *name_valid = base + offsets[1], *score_valid = base + offsets[4], *tag_valid = base + offsets[6];
    int32_t *name_offsets = (int32_t *) (base + offsets[2]), *tag_offsets = (int32_t *) (base + offsets[7]);
    char *names = (char *) (base + offsets[3]);
    double *scores = (double *) (base + offsets[5]);
    int32_t *items = (int32_t *) (base + offsets[8]);
    int32_t at = 0, tag = 0;
    int64_t null_names = 0, null_scores = 0, null_tags = 0;
    for (int i = 0; i < rows; i++) {
        ids[i] = (int64_t) b * 1000000 + i;
        name_offsets[i] = at;
        if (i % 7 == 3) {
            null_names++;
        } else {
            name_valid[i / 8] |= (uint8_t) (1 << (i % 8));
            int n = snprintf(name, sizeof name, "row-%d-%d%s", b, i, i % 5 == 0 ? "-\xc3\xbc" : "");
            memcpy(names + at, name, (size_t) n);
            at += n;
        }
        if (i % 4 == 1) {
            null_scores++;
        } else {
            score_valid[i / 8] |= (uint8_t) (1 << (i % 8));
            scores[i] = i * 0.5 + b;
        }
        tag_offsets[i] = tag;
        if (i % 9 == 8) {
            null_tags++;
        } else {
            tag_valid[i / 8] |= (uint8_t) (1 << (i % 8));
            for (int j = 0; j < i % 3; j++, tag++) items[tag] = b + tag;
        }
    }
    name_offsets[rows] = at;
    tag_offsets[rows] = tag;
    if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) fail("seals");

    if (retire_count > 0) {                   /* regions of released batches, retired before the next BATCH */
        body_t closed = {0};
        u32(&closed, (uint32_t) retire_count);
        u32(&closed, 0);
        for (int i = 0; i < retire_count; i++) u64(&closed, to_retire[i]);
        send_message(9, closed.p, closed.n, -1);
        free(closed.p);
        retire_count = 0;
    }
    uint64_t id = (uint64_t) b + 1;
    body_t m = {0};
    u64(&m, id);
    u32(&m, 0);                               /* delivery 0: the owner's own memory */
    u32(&m, 1);                               /* one handle */
    u32(&m, 1);                               /* MEMFD */
    u32(&m, 0);
    u64(&m, (uint64_t) size);
    u64(&m, id);                              /* its region id */
    u32(&m, 1);                               /* NEW */
    u32(&m, 0);
    u32(&m, 0);                               /* no event */
    u32(&m, 0);
    u32(&m, 6);                               /* nodes */
    u32(&m, 0);
    /* a node: length, null count, offset, buffers, children, dictionary, reserved, then its buffers */
#define NODE(len, nulls, nbuf, nchildren) do { u64(&m, (uint64_t) (len)); u64(&m, (uint64_t) (nulls)); u64(&m, 0); \
        u32(&m, nbuf); u32(&m, nchildren); u32(&m, 0); u32(&m, 0); } while (0)
#define ABSENT() do { u32(&m, NO_HANDLE); u32(&m, 0); u64(&m, 0); u64(&m, 0); } while (0)
#define BUFFER(k) do { u32(&m, 0); u32(&m, 0); u64(&m, (uint64_t) offsets[k]); u64(&m, (uint64_t) lengths[k]); } while (0)
    NODE(rows, 0, 1, 4);
    ABSENT();
    NODE(rows, 0, 2, 0);
    ABSENT();
    BUFFER(0);
    NODE(rows, null_names, 3, 0);
    BUFFER(1);
    BUFFER(2);
    BUFFER(3);
    NODE(rows, null_scores, 2, 0);
    BUFFER(4);
    BUFFER(5);
    NODE(rows, null_tags, 2, 1);
    BUFFER(6);
    BUFFER(7);
    NODE(elements, 0, 2, 0);
    ABSENT();
    BUFFER(8);
    if (held_count == MAX_HELD) fail("more batches held than this owner keeps");
    held[held_count++] = (held_t) {id, fd, base, (size_t) size};
    send_message(5, m.p, m.n, fd);
    free(m.p);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s SOCKET_PATH ROWS\n", argv[0]);
        return 1;
    }
    int rows = atoi(argv[2]);
    if (rows < 1 || rows > 100000) fail("ROWS is 1 to 100000");
    int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (strlen(argv[1]) >= sizeof address.sun_path) fail("socket path too long");
    strcpy(address.sun_path, argv[1]);
    if (bind(listener, (struct sockaddr *) &address, sizeof address) != 0) fail("bind");
    if (chmod(argv[1], 0600) != 0 || listen(listener, 1) != 0) fail("listen");
    printf("SOCKET %s\n", argv[1]);
    fflush(stdout);
    conn = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
    if (conn < 0) fail("accept");
    struct ucred peer;
    socklen_t peer_length = sizeof peer;
    if (getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &peer, &peer_length) != 0) fail("SO_PEERCRED");
    if (peer.uid != getuid()) fail("the receiver runs as another user");

    uint8_t header[8], hello[64];
    read_exact(header, 8);
    uint32_t length;
    uint16_t type;
    memcpy(&length, header, 4);
    memcpy(&type, header + 4, 2);
    if (type != 1 || length != 64) fail("no HELLO of version 2");
    read_exact(hello, 64);
    uint32_t version, kinds;
    int32_t device;
    memcpy(&version, hello + 8, 4);
    memcpy(&device, hello + 12, 4);
    memcpy(&kinds, hello + 40, 4);
    if (memcmp(hello, "QVSHARE\0", 8) != 0 || version != 2 || device != 1 || !(kinds & 2)) fail("a HELLO this owner does not serve");

    uint8_t welcome[48] = "QVSHARE";
    int64_t cpu_id = -1;
    uint32_t pid = (uint32_t) getpid();
    memcpy(welcome + 8, &version, 4);
    memcpy(welcome + 12, &device, 4);
    memcpy(welcome + 16, &cpu_id, 8);
    memcpy(welcome + 40, &pid, 4);
    send_message(2, welcome, 48, -1);

    body_t schema = {0};
    field(&schema, "+s", "batch", 4);
    field(&schema, "l", "id", 0);
    u32(&schema, 0);
    field(&schema, "u", "name", 0);
    u32(&schema, 0);
    field(&schema, "g", "score", 0);
    u32(&schema, 0);
    field(&schema, "+l", "tags", 1);
    field(&schema, "i", "item", 0);
    u32(&schema, 0);
    u32(&schema, 0);                          /* tags has no dictionary */
    u32(&schema, 0);                          /* the struct has none */
    send_message(3, schema.p, schema.n, -1);

    for (int b = 0;; b++) {
        while (credit == 0) read_message();
        struct pollfd ready = {conn, POLLIN, 0};
        while (poll(&ready, 1, 0) > 0) read_message();   /* releases that came meanwhile */
        send_batch(b, rows);
        credit--;
        printf("SENT %d\n", b + 1);
        fflush(stdout);
    }
}
