/* An owner of the Quiver sharing protocol, version 2, written from docs/SHARING.md, that keeps rewriting what it
 * sent while the receiver reads it (the rewriting is mutating_mutator.c's). It serves the streams of a template
 * file in order, one receiver at a time: for each stream it sends WELCOME, the stream's SCHEMA and then
 * BATCHES_PER_STREAM batches over as many connections as it takes (a receiver that refuses a batch ends its
 * connection; the next connection goes on with the same stream), then END. Every batch is a new memory file with
 * a template's contents, sealed against shrinking and growing, introduced as a new region with a fresh batch id
 * and region id; it is mutated until RELEASED, then unmapped, closed and retired with REGION_CLOSED.
 *
 * The template file (little-endian): "QVMUTTP1", u32 stream count, then per stream: u32 n + the SCHEMA body,
 * u32 template count, then per template: u32 n + the BATCH body (one MEMFD handle with NEW, or none), u64 n + the
 * memory file's contents, u32 range count, then per range: u32 kind, u32 width, u64 offset, u64 length.
 *
 * Prints "SOCKET path" once it listens; per connection "CONN stream=S sent=N released=R dropped=D end=WHY";
 * at the end "END after N batches sent=N released=R dropped=D unknown=U" and the rewrites per kind.
 * Usage: program SOCKET_PATH TEMPLATE_FILE BATCHES_PER_STREAM SEED */
#define _GNU_SOURCE
#include "mutating_owner.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

enum { HELLO = 1, WELCOME = 2, SCHEMA = 3, REQUEST = 4, BATCH = 5, RELEASED = 6, END = 7, ERROR = 8, REGION_CLOSED = 9 };

static int conn = -1;
static uint64_t owner_random = 0x51ED2701;
static uint64_t next_batch_id = 1, next_region_id = 1;
static uint64_t total_sent, total_released, total_dropped, total_unknown;

static void die(const char *what) {
    fprintf(stderr, "mutating_owner: %s (errno %d)\n", what, errno);
    exit(2);
}

/* ---- the template file ---- */

static uint8_t *file_bytes;
static size_t file_length, file_at;

static void take(void *into, size_t n) {
    if (n > file_length - file_at) die("the template file ends early");
    memcpy(into, file_bytes + file_at, n);
    file_at += n;
}

static uint8_t *take_bytes(size_t n) {
    uint8_t *out = malloc(n > 0 ? n : 1);
    if (out == NULL) die("malloc");
    take(out, n);
    return out;
}

static struct stream *read_templates(const char *path, uint32_t *count) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) die("opening the template file");
    fseek(f, 0, SEEK_END);
    file_length = (size_t) ftell(f);
    fseek(f, 0, SEEK_SET);
    file_bytes = malloc(file_length);
    if (file_bytes == NULL || fread(file_bytes, 1, file_length, f) != file_length) die("reading the template file");
    fclose(f);
    char magic[8];
    take(magic, 8);
    if (memcmp(magic, "QVMUTTP1", 8) != 0) die("not a template file");
    take(count, 4);
    struct stream *streams = calloc(*count, sizeof *streams);
    for (uint32_t s = 0; s < *count; s++) {
        take(&streams[s].schema_length, 4);
        streams[s].schema = take_bytes(streams[s].schema_length);
        take(&streams[s].template_count, 4);
        streams[s].templates = calloc(streams[s].template_count, sizeof *streams[s].templates);
        for (uint32_t t = 0; t < streams[s].template_count; t++) {
            struct batch_template *b = &streams[s].templates[t];
            take(&b->body_length, 4);
            b->body = take_bytes(b->body_length);
            take(&b->memory_length, 8);
            b->memory = take_bytes(b->memory_length);
            take(&b->range_count, 4);
            b->ranges = calloc(b->range_count + 1, sizeof *b->ranges);
            for (uint32_t r = 0; r < b->range_count; r++) {
                take(&b->ranges[r].kind, 4);
                take(&b->ranges[r].width, 4);
                take(&b->ranges[r].offset, 8);
                take(&b->ranges[r].length, 8);
                if (b->ranges[r].offset > b->memory_length || b->ranges[r].length > b->memory_length - b->ranges[r].offset)
                    die("a range past its memory");
            }
        }
    }
    return streams;
}

/* ---- framing ---- */

/* Sends one message, the descriptor (if fd >= 0) attached to its first byte; 0 if the receiver is gone. The
 * header and body go out of one buffer: the first sendmsg carries the descriptor, plain sends carry the rest. */
static int send_message(uint16_t type, const uint8_t *body, uint32_t length, int fd) {
    size_t total = 8 + (size_t) length;
    uint8_t *bytes = malloc(total);
    uint16_t fds = fd >= 0 ? 1 : 0;
    if (bytes == NULL) die("malloc");
    memcpy(bytes, &length, 4);
    memcpy(bytes + 4, &type, 2);
    memcpy(bytes + 6, &fds, 2);
    if (length > 0) memcpy(bytes + 8, body, length);
    char control[CMSG_SPACE(sizeof(int))] __attribute__((aligned(8))) = {0};
    struct iovec all = {bytes, total};
    struct msghdr msg = {.msg_iov = &all, .msg_iovlen = 1};
    if (fd >= 0) {
        msg.msg_control = control;
        msg.msg_controllen = sizeof control;
        struct cmsghdr *rights = CMSG_FIRSTHDR(&msg);
        *rights = (struct cmsghdr) {.cmsg_len = CMSG_LEN(sizeof(int)), .cmsg_level = SOL_SOCKET, .cmsg_type = SCM_RIGHTS};
        memcpy(CMSG_DATA(rights), &fd, sizeof(int));
    }
    ssize_t done = sendmsg(conn, &msg, MSG_NOSIGNAL);
    while (done > 0 && (size_t) done < total) {
        ssize_t more = send(conn, bytes + done, total - (size_t) done, MSG_NOSIGNAL);
        done = more > 0 ? done + more : -1;
    }
    free(bytes);
    return done > 0;
}

static int read_exact(uint8_t *into, size_t n) {
    for (size_t done = 0; done < n; ) {
        ssize_t got = recv(conn, into + done, n - done, 0);
        if (got == 0 || (got < 0 && errno != EINTR)) return 0;
        if (got > 0) done += (size_t) got;
    }
    return 1;
}

/* Reads one message of the receiver (which sends no descriptors); its body in a malloc'd *body. 0 at the end. */
static int read_message(uint16_t *type, uint8_t **body, uint32_t *length) {
    uint8_t header[8];
    uint16_t fds;
    if (!read_exact(header, 8)) return 0;
    memcpy(length, header, 4);
    memcpy(type, header + 4, 2);
    memcpy(&fds, header + 6, 2);
    if (*length > (16u << 20) || fds != 0) return 0;
    *body = malloc(*length + 1);
    return *body != NULL && read_exact(*body, *length);
}

static void send_error(uint32_t code, const char *reason) {
    uint8_t body[256];
    uint32_t n = (uint32_t) strlen(reason);
    memcpy(body, &code, 4);
    memcpy(body + 4, &n, 4);
    memcpy(body + 8, reason, n);
    send_message(ERROR, body, 8 + n, -1);
}

/* ---- one connection ---- */

/* Checks the peer and HELLO and answers WELCOME and SCHEMA; 0 if the receiver was refused or left. */
static int handshake(const struct stream *stream) {
    struct ucred peer;
    socklen_t size = sizeof peer;
    if (getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &peer, &size) != 0 || peer.uid != getuid()) {
        send_error(3, "HELLO: the receiver runs as another user");
        return 0;
    }
    uint16_t type;
    uint8_t *hello = NULL;
    uint32_t length;
    if (!read_message(&type, &hello, &length)) return free(hello), 0;
    int32_t device_type;
    uint32_t version, kinds;
    if (type != HELLO || length != 64 || memcmp(hello, "QVSHARE\0", 8) != 0) {
        free(hello);
        send_error(4, "HELLO: not a HELLO of 64 bytes with the magic");
        return 0;
    }
    memcpy(&version, hello + 8, 4);
    memcpy(&device_type, hello + 12, 4);
    memcpy(&kinds, hello + 40, 4);
    free(hello);
    if (version != 2) return send_error(1, "HELLO: this owner speaks version 2"), 0;
    if (device_type != 1) return send_error(2, "HELLO: this owner serves the CPU"), 0;
    if ((kinds & 0x2) == 0) return send_error(7, "HELLO: the receiver does not import MEMFD"), 0;
    uint8_t welcome[48] = {0};
    int64_t cpu_id = -1;
    uint32_t pid = (uint32_t) getpid();
    memcpy(welcome, "QVSHARE\0", 8);
    memcpy(welcome + 8, &version, 4);
    memcpy(welcome + 12, &device_type, 4);
    memcpy(welcome + 16, &cpu_id, 8);
    memcpy(welcome + 40, &pid, 4);
    return send_message(WELCOME, welcome, 48, -1) && send_message(SCHEMA, stream->schema, stream->schema_length, -1);
}

/* Sends one batch of `t` in a new memory file; 0 if the receiver is gone. */
static int send_batch(const struct batch_template *t) {
    uint64_t batch_id = next_batch_id++;
    struct held h = {batch_id, 0, -1, NULL, t, batch_id % QUIET_EVERY == 0};
    uint8_t *body = malloc(t->body_length);
    memcpy(body, t->body, t->body_length);
    memcpy(body, &batch_id, 8);
    if (t->memory_length > 0) {
        h.region_id = next_region_id++;
        memcpy(body + 32, &h.region_id, 8);             /* handles[0].region_id */
        h.fd = memfd_create("quiver-mutating-owner", MFD_CLOEXEC | MFD_ALLOW_SEALING);
        if (h.fd < 0 || ftruncate(h.fd, (off_t) t->memory_length) != 0) die("memfd_create, ftruncate");
        h.memory = mmap(NULL, t->memory_length, PROT_READ | PROT_WRITE, MAP_SHARED, h.fd, 0);
        if (h.memory == MAP_FAILED) die("mmap");
        memcpy(h.memory, t->memory, t->memory_length);
        if (fcntl(h.fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) die("F_ADD_SEALS");
    }
    if (!held_add(&h)) die("more batches held than the table has room for");
    total_sent++;
    int sent = send_message(BATCH, body, t->body_length, h.fd);
    free(body);
    if (sent && next_random(&owner_random) % 3 == 0) {
        mutate_now(batch_id);                              /* at once, before the receiver could have looked */
    }
    return sent;
}

/* Handles one message of the receiver; 0 if the connection ends with it. */
static int handle(uint16_t type, const uint8_t *body, uint32_t length, uint64_t *allowance, uint64_t *released) {
    if (type == REQUEST && length == 4) {
        uint32_t count;
        memcpy(&count, body, 4);
        *allowance += count;
        return 1;
    }
    if (type == RELEASED && length >= 8) {
        uint32_t count;
        memcpy(&count, body, 4);
        if ((uint64_t) length != 8 + 8ULL * count) return 0;
        uint8_t *closed = malloc(8 + 8ULL * count);
        uint32_t regions = 0;
        for (uint32_t i = 0; i < count; i++) {
            uint64_t id;
            memcpy(&id, body + 8 + 8 * i, 8);
            int64_t region = held_release(id);
            if (region < 0) {
                total_unknown++;
                printf("UNKNOWN_RELEASE %llu\n", (unsigned long long) id);
            } else {
                (*released)++;
                if (region > 0) memcpy(closed + 8 + 8 * regions++, &region, 8);
            }
        }
        if (regions > 0) {   /* a receiver that closed after its last RELEASED cannot take it; its releases still count */
            uint32_t zero = 0;
            memcpy(closed, &regions, 4);
            memcpy(closed + 4, &zero, 4);
            send_message(REGION_CLOSED, closed, 8 + 8 * regions, -1);
        }
        free(closed);
        return 1;
    }
    if (type == ERROR && length >= 8) {
        uint32_t code, n;
        memcpy(&code, body, 4);
        memcpy(&n, body + 4, 4);
        printf("RECEIVER_ERROR %u %.*s\n", code, (int) (n < length - 8 ? n : length - 8), (const char *) body + 8);
        return 0;
    }
    printf("UNEXPECTED_MESSAGE %u of %u bytes\n", type, length);
    return 0;
}

/* Serves one connection of `stream`; *remaining counts down the stream's batches. Returns whether the receiver
 * took END (it sent no ERROR after it). */
static int serve(const struct stream *stream, uint32_t index, uint64_t *remaining) {
    uint64_t allowance = 0, sent = 0, released = 0, cap = 1 + next_random(&owner_random) % 8;
    const char *why = "EOF";
    int open = handshake(stream), end_sent = 0;
    while (open) {
        if (*remaining > 0 && allowance > 0 && held_count() < cap) {
            const struct batch_template *t = &stream->templates[(total_sent + sent) % stream->template_count];
            allowance--;
            (*remaining)--;
            sent++;
            open = send_batch(t);
            struct pollfd ready = {conn, POLLIN, 0};
            if (!open || poll(&ready, 1, 0) <= 0) continue;   /* read what has come, if anything */
        } else if (*remaining == 0 && !end_sent) {
            open = end_sent = send_message(END, NULL, 0, -1);
            why = open ? "END" : why;                    /* END that could not be sent was not taken */
            continue;
        } else {
            struct pollfd ready = {conn, POLLIN, 0};
            if (poll(&ready, 1, 120000) <= 0) die("no message from the receiver for 2 minutes");
        }
        uint16_t type = 0;
        uint8_t *body = NULL;
        uint32_t length;
        open = read_message(&type, &body, &length) && handle(type, body, length, &allowance, &released);
        if (!open && type == ERROR) why = "ERROR";
        free(body);
    }
    uint64_t dropped = held_drop_all();
    total_released += released;
    total_dropped += dropped;
    printf("CONN stream=%u sent=%llu released=%llu dropped=%llu end=%s\n", index, (unsigned long long) sent,
           (unsigned long long) released, (unsigned long long) dropped, why);
    fflush(stdout);
    return end_sent && strcmp(why, "END") == 0;   /* a receiver that refused a batch sent before END never saw it */
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s SOCKET_PATH TEMPLATE_FILE BATCHES_PER_STREAM SEED\n", argv[0]);
        return 2;
    }
    uint32_t stream_count;
    struct stream *streams = read_templates(argv[2], &stream_count);
    uint64_t per_stream = strtoull(argv[3], NULL, 10);
    owner_random ^= strtoull(argv[4], NULL, 10) << 1;
    int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un address = {0};
    address.sun_family = AF_UNIX;
    if (strlen(argv[1]) >= sizeof address.sun_path) die("socket path too long");
    strcpy(address.sun_path, argv[1]);
    if (listener < 0 || bind(listener, (struct sockaddr *) &address, sizeof address) != 0
            || chmod(argv[1], 0600) != 0 || listen(listener, 4) != 0) die("listening");
    printf("SOCKET %s\n", argv[1]);
    fflush(stdout);
    mutator_start(owner_random);
    for (uint32_t s = 0; s < stream_count; s++) {
        uint64_t remaining = per_stream;
        for (int ended = 0; !ended; ) {                   /* until a receiver took the stream's END */
            conn = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
            if (conn < 0) die("accept");
            ended = serve(&streams[s], s, &remaining);
            close(conn);
        }
    }
    uint64_t counts[RANGE_KINDS];
    mutator_stop(counts);
    close(listener);
    unlink(argv[1]);
    printf("END after %llu batches sent=%llu released=%llu dropped=%llu unknown=%llu\n", (unsigned long long) total_sent,
           (unsigned long long) total_sent, (unsigned long long) total_released, (unsigned long long) total_dropped,
           (unsigned long long) total_unknown);
    printf("REWRITES validity=%llu offsets=%llu sizes=%llu views=%llu variadic_sizes=%llu type_ids=%llu union_offsets=%llu "
           "run_ends=%llu dictionary_indices=%llu\n", (unsigned long long) counts[1], (unsigned long long) counts[2],
           (unsigned long long) counts[3], (unsigned long long) counts[4], (unsigned long long) counts[5],
           (unsigned long long) counts[6], (unsigned long long) counts[7], (unsigned long long) counts[8],
           (unsigned long long) counts[9]);
    return 0;
}
