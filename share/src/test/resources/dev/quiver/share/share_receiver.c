/* A receiver of the Quiver sharing protocol, version 2, written from docs/SHARING.md alone: connects to an
 * owner, checks its credentials and the handshake, maps each memory file the first time a batch introduces it,
 * keeps it by region id until the owner retires it, checks every buffer against the region's size, reads the values of the test table (a struct of int64 "id", utf8 "name", float64
 * "score" and list<int32> "tags"), prints a summary line per batch and releases it.
 * Usage: program SOCKET [hold]   ("hold": keep every batch mapped and never release, for the kill tests) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_FDS 253
#define NO_HANDLE 0xFFFFFFFFu
#define MAX_REGIONS 64

/* The region cache: regions known by id, and retired ones still used by held batches. */
typedef struct { uint64_t id; uint8_t *base; uint64_t size; int users; int retired; int used; } region_t;
static region_t regions[8192];   /* known ones, and retired ones that held batches still use */
static uint64_t highest_id;

static void fail(const char *what) {
    printf("FAIL %s (errno %d)\n", what, errno);
    fflush(stdout);
    exit(2);
}

static int sock;

/* Reads exactly n bytes; collects descriptors into fds. Returns bytes read (less at end of stream). */
static size_t read_exact(uint8_t *into, size_t n, int *fds, int *nfds) {
    size_t done = 0;
    while (done < n) {
        union { char bytes[CMSG_SPACE(MAX_FDS * sizeof(int))]; struct cmsghdr align; } control;
        struct iovec iov = {into + done, n - done};
        struct msghdr msg = {0};
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.bytes;
        msg.msg_controllen = sizeof control.bytes;
        ssize_t got = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
        if (got < 0) {
            if (errno == EINTR) continue;
            fail("recvmsg");
        }
        if (msg.msg_flags & MSG_CTRUNC) fail("descriptors truncated");
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c != NULL; c = CMSG_NXTHDR(&msg, c)) {
            if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
                int count = (int) ((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
                memcpy(fds + *nfds, CMSG_DATA(c), count * sizeof(int));
                *nfds += count;
            }
        }
        if (got == 0) return done;
        done += (size_t) got;
    }
    return done;
}

static void send_message(uint16_t type, const uint8_t *body, uint32_t length) {
    uint8_t message[8 + 64];
    memcpy(message, &length, 4);
    memcpy(message + 4, &type, 2);
    uint16_t none = 0;
    memcpy(message + 6, &none, 2);
    memcpy(message + 8, body, length);
    if (send(sock, message, 8 + length, MSG_NOSIGNAL) != (ssize_t) (8 + length)) fail("send");
}

typedef struct { uint8_t *body; uint32_t length; uint16_t type; int fds[MAX_FDS]; int nfds; } message_t;

static int receive(message_t *m) {
    uint8_t header[8];
    m->nfds = 0;
    size_t got = read_exact(header, 8, m->fds, &m->nfds);
    if (got == 0) return 0;
    if (got < 8) fail("short header");
    uint16_t declared;
    memcpy(&m->length, header, 4);
    memcpy(&m->type, header + 4, 2);
    memcpy(&declared, header + 6, 2);
    if (m->length > (16u << 20)) fail("body past the limit");
    if (declared != m->nfds) fail("descriptor count differs from the header");
    m->body = malloc(m->length + 1);
    int stray = 0, strayfds[MAX_FDS];
    if (read_exact(m->body, m->length, strayfds, &stray) != m->length) fail("short body");
    if (stray != 0) fail("descriptors inside a body");
    return 1;
}

/* A bounded little-endian reader of one body. */
typedef struct { const uint8_t *p; uint32_t left; } reader_t;
static uint64_t rd(reader_t *r, int bytes) {
    if (r->left < (uint32_t) bytes) fail("body too short");
    uint64_t v = 0;
    memcpy(&v, r->p, bytes);
    r->p += bytes;
    r->left -= bytes;
    return v;
}
static void skip(reader_t *r, uint64_t bytes) {
    if (r->left < bytes) fail("body too short");
    r->p += bytes;
    r->left -= (uint32_t) bytes;
}

/* The schema: checks the root is a struct and prints its columns. */
static void schema_field(reader_t *r, int depth, int print) {
    if (depth > 64) fail("schema nested too deep");
    uint32_t n = (uint32_t) rd(r, 4);
    const char *format = (const char *) r->p;
    skip(r, n);
    if (depth == 0 && (n != 2 || memcmp(format, "+s", 2) != 0)) fail("root is not a struct");
    uint32_t name_length = (uint32_t) rd(r, 4);
    if (print) printf(" %.*s:%.*s", (int) name_length, (const char *) r->p, (int) n, format);
    skip(r, name_length);
    rd(r, 8);
    uint32_t metadata = (uint32_t) rd(r, 4);
    for (uint32_t i = 0; i < 2 * metadata; i++) skip(r, rd(r, 4));
    uint32_t children = (uint32_t) rd(r, 4);
    for (uint32_t i = 0; i < children; i++) schema_field(r, depth + 1, depth == 0);
    if (rd(r, 4)) schema_field(r, depth + 1, 0);
}

static region_t *find_region(uint64_t id) {
    for (int i = 0; i < 8192; i++) {
        if (regions[i].used && !regions[i].retired && regions[i].id == id) return &regions[i];
    }
    return NULL;
}

static void unmap_if_idle(region_t *region) {
    if (region->retired && region->users == 0) {
        munmap(region->base, region->size);
        region->used = 0;
    }
}

typedef struct { int64_t length, null_count, offset; uint32_t nbuf; const uint8_t *buf[3]; uint64_t len[3]; } node_t;

static int valid(const node_t *n, int64_t slot) {
    return n->buf[0] == NULL || (n->buf[0][slot / 8] >> (slot % 8) & 1);
}

int main(int argc, char **argv) {
    int hold = argc > 2 && strcmp(argv[2], "hold") == 0;
    sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, argv[1], sizeof address.sun_path - 1);
    if (connect(sock, (struct sockaddr *) &address, sizeof address) != 0) fail("connect");
    struct ucred peer;
    socklen_t peer_length = sizeof peer;
    if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &peer, &peer_length) != 0) fail("SO_PEERCRED");
    if (peer.uid != getuid()) fail("the owner runs as another user");

    uint8_t hello[64] = "QVSHARE";           /* the magic, its last byte 0 */
    uint32_t version = 2, handle_kinds = 1u << 1, zero = 0, max_regions = MAX_REGIONS;
    uint64_t max_mapped_bytes = 1ull << 40;
    int32_t cpu = 1;
    int64_t cpu_id = -1;
    memcpy(hello + 8, &version, 4);
    memcpy(hello + 12, &cpu, 4);
    memcpy(hello + 16, &cpu_id, 8);          /* 24..39: the UUID, zeros for the CPU */
    memcpy(hello + 40, &handle_kinds, 4);
    memcpy(hello + 44, &zero, 4);
    memcpy(hello + 48, &max_regions, 4);
    memcpy(hello + 52, &zero, 4);
    memcpy(hello + 56, &max_mapped_bytes, 8);
    send_message(1, hello, 64);

    message_t m;
    if (!receive(&m)) fail("the owner closed during the handshake");
    if (m.type == 8) { printf("REFUSED %.*s\n", (int) (m.length - 8), (const char *) m.body + 8); return 3; }
    if (m.type != 2 || m.length != 48 || memcmp(m.body, "QVSHARE\0", 8) != 0) fail("no WELCOME");
    uint32_t owner_pid;
    memcpy(&owner_pid, m.body + 40, 4);
    if ((pid_t) owner_pid != peer.pid) fail("WELCOME's pid is not the socket peer's");
    free(m.body);
    if (!receive(&m) || m.type != 3) fail("no SCHEMA");
    printf("SCHEMA");
    reader_t schema = {m.body, m.length};
    schema_field(&schema, 0, 0);
    printf("\n");
    free(m.body);

    uint32_t window = 1000000;
    send_message(4, (const uint8_t *) &window, 4);
    for (;;) {
        if (!receive(&m)) { printf("GONE\n"); return 4; }
        if (m.type == 7) break;
        if (m.type == 9) {                    /* REGION_CLOSED: forget each id, unmap it once no batch uses it */
            reader_t r = {m.body, m.length};
            uint32_t count = (uint32_t) rd(&r, 4);
            rd(&r, 4);
            for (uint32_t i = 0; i < count; i++) {
                region_t *region = find_region(rd(&r, 8));
                if (region == NULL) fail("REGION_CLOSED of an unknown region");
                region->retired = 1;
                unmap_if_idle(region);
            }
            free(m.body);
            continue;
        }
        if (m.type != 5) fail("expected BATCH, REGION_CLOSED or END");
        reader_t r = {m.body, m.length};
        uint64_t batch_id = rd(&r, 8);
        uint32_t delivery = (uint32_t) rd(&r, 4);
        uint32_t handles = (uint32_t) rd(&r, 4);
        if (handles > MAX_FDS) fail("handle count");
        uint8_t *base[MAX_FDS];
        uint64_t size[MAX_FDS];
        region_t *used[MAX_FDS];
        int next_fd = 0;
        for (uint32_t h = 0; h < handles; h++) {
            if (rd(&r, 4) != 1) fail("not a MEMFD handle");
            uint32_t payload = (uint32_t) rd(&r, 4);
            size[h] = rd(&r, 8);
            uint64_t region_id = rd(&r, 8);
            uint32_t flags = (uint32_t) rd(&r, 4);
            rd(&r, 4);
            skip(&r, (payload + 7) / 8 * 8);
            region_t *region;
            if (flags & 1) {                  /* NEW: the region's descriptor is the next one */
                if (next_fd >= m.nfds) fail("a new region without its descriptor");
                if (region_id <= highest_id) fail("a new region reuses an id");
                int fd = m.fds[next_fd++];
                int seals = fcntl(fd, F_GET_SEALS);
                if (seals < 0 || !(seals & F_SEAL_SHRINK)) fail("memory file not sealed against shrinking");
                struct stat st;
                if (fstat(fd, &st) != 0 || (uint64_t) st.st_size != size[h] || size[h] == 0) fail("handle size");
                region = NULL;
                for (int i = 0; i < 8192 && region == NULL; i++) if (!regions[i].used) region = &regions[i];
                if (region == NULL) fail("more regions than announced");
                region->base = mmap(NULL, size[h], PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
                if (region->base == MAP_FAILED) fail("mmap");
                close(fd);
                region->id = region_id;
                region->size = size[h];
                region->users = 0;
                region->retired = 0;
                region->used = 1;
                highest_id = region_id;
            } else {
                region = find_region(region_id);
                if (region == NULL) fail("a batch names an unknown region");
                if (region->size != size[h]) fail("a region named with another size");
            }
            region->users++;
            used[h] = region;
            base[h] = region->base;
        }
        if (next_fd != m.nfds) fail("descriptors that belong to no new region");
        if (rd(&r, 4) != 0) fail("an event");
        skip(&r, (rd(&r, 4) + 7) / 8 * 8);
        uint32_t count = (uint32_t) rd(&r, 4);
        rd(&r, 4);
        if (count != 6) fail("the test table has 6 nodes");
        node_t nodes[6];
        for (uint32_t n = 0; n < count; n++) {
            nodes[n].length = (int64_t) rd(&r, 8);
            nodes[n].null_count = (int64_t) rd(&r, 8);
            nodes[n].offset = (int64_t) rd(&r, 8);
            nodes[n].nbuf = (uint32_t) rd(&r, 4);
            rd(&r, 4);
            rd(&r, 4);
            rd(&r, 4);
            if (nodes[n].nbuf > 3) fail("buffer count");
            for (uint32_t b = 0; b < nodes[n].nbuf; b++) {
                uint32_t handle = (uint32_t) rd(&r, 4);
                rd(&r, 4);
                uint64_t offset = rd(&r, 8), length = rd(&r, 8);
                if (handle == NO_HANDLE) { nodes[n].buf[b] = NULL; continue; }
                if (handle >= handles || offset > size[handle] || length > size[handle] - offset) fail("buffer past its handle");
                nodes[n].buf[b] = base[handle] + offset;
                nodes[n].len[b] = length;
            }
        }
        /* nodes: 0 struct, 1 id int64, 2 name utf8, 3 score float64, 4 tags list<int32>, 5 item int32 */
        int64_t id_sum = 0, name_bytes = 0, null_names = 0, tag_sum = 0;
        double score_sum = 0;
        for (int64_t row = 0; row < nodes[0].length; row++) {
            int64_t s = nodes[0].offset + row;
            if (valid(&nodes[1], nodes[1].offset + s)) id_sum += ((const int64_t *) nodes[1].buf[1])[nodes[1].offset + s];
            int64_t ns = nodes[2].offset + s;
            if (valid(&nodes[2], ns)) {
                const int32_t *offsets = (const int32_t *) nodes[2].buf[1];
                if ((uint64_t) offsets[ns + 1] > nodes[2].len[2] || offsets[ns] > offsets[ns + 1]) fail("string past its data");
                name_bytes += offsets[ns + 1] - offsets[ns];
            } else {
                null_names++;
            }
            if (valid(&nodes[3], nodes[3].offset + s)) score_sum += ((const double *) nodes[3].buf[1])[nodes[3].offset + s];
            int64_t ls = nodes[4].offset + s;
            if (valid(&nodes[4], ls)) {
                const int32_t *offsets = (const int32_t *) nodes[4].buf[1];
                for (int32_t j = offsets[ls]; j < offsets[ls + 1]; j++) {
                    if (valid(&nodes[5], nodes[5].offset + j)) tag_sum += ((const int32_t *) nodes[5].buf[1])[nodes[5].offset + j];
                }
            }
        }
        printf("BATCH %llu %s rows=%lld ids=%lld nullnames=%lld namebytes=%lld score2=%lld tags=%lld\n",
               (unsigned long long) batch_id, delivery == 0 ? "zero-copy" : "copied", (long long) nodes[0].length,
               (long long) id_sum, (long long) null_names, (long long) name_bytes, (long long) (score_sum * 2), (long long) tag_sum);
        fflush(stdout);
        free(m.body);
        if (!hold) {
            for (uint32_t h = 0; h < handles; h++) {
                used[h]->users--;
                unmap_if_idle(used[h]);
            }
            uint8_t released[16] = {1};       /* count 1, reserved 0, the batch id */
            memcpy(released + 8, &batch_id, 8);
            send_message(6, released, 16);
        }
    }
    printf("END\n");
    close(sock);
    return 0;
}
