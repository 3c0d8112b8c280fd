/*
 * The floor of a stream of small batches between two processes: the same messages over the same kind of socket
 * as docs/SHARING.md's stream (a BATCH frame per batch from the owner; from the receiver, RELEASED for half a
 * window of batches with a REQUEST that tops the window up, in one write), with no Arrow work on either side:
 * the owner writes frames of a fixed body, the receiver reads ahead and looks at each header only.
 *
 * The owner is a child of fork(): it runs only this file's loop (send, recv) and leaves with _exit, so that
 * nothing of the parent process (a JVM) runs in it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { HEADER = 8, TYPE_REQUEST = 4, TYPE_BATCH = 5, TYPE_RELEASED = 6, READ_BUFFER = 64 * 1024, MAX_BODY = 4096 };

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void put_header(unsigned char* at, uint32_t length, uint16_t type) {
  memcpy(at, &length, 4);
  memcpy(at + 4, &type, 2);
  memset(at + 6, 0, 2);
}

static uint32_t body_length(const unsigned char* header) {
  uint32_t length;
  memcpy(&length, header, 4);
  return length;
}

static int send_all(int fd, const unsigned char* bytes, size_t n) {
  while (n > 0) {
    ssize_t sent = send(fd, bytes, n, MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0) return -1;
    bytes += sent;
    n -= (size_t)sent;
  }
  return 0;
}

static int recv_all(int fd, unsigned char* into, size_t n) {
  while (n > 0) {
    ssize_t got = recv(fd, into, n, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return -1;
    into += got;
    n -= (size_t)got;
  }
  return 0;
}

/* The owner: sends `batches` BATCH frames of `body` bytes as the receiver's REQUESTs allow. */
static int owner(int fd, int64_t batches, int32_t body) {
  unsigned char frame[HEADER + MAX_BODY];
  memset(frame, 0x5a, sizeof frame);
  put_header(frame, (uint32_t)body, TYPE_BATCH);
  static unsigned char message[HEADER + 16 + 8 * 65536];
  int64_t credits = 0;
  for (int64_t sent = 0; sent < batches; sent++) {
    while (credits == 0) {   /* RELEASED (ignored here) and REQUEST, each a frame */
      uint32_t length;
      uint16_t type;
      if (recv_all(fd, message, HEADER) != 0) return 1;
      memcpy(&length, message, 4);
      memcpy(&type, message + 4, 2);
      if (length > sizeof message - HEADER || recv_all(fd, message + HEADER, length) != 0) return 1;
      if (type == TYPE_REQUEST) {
        uint32_t count;
        memcpy(&count, message + HEADER, 4);
        credits += count;
      }
    }
    if (send_all(fd, frame, HEADER + (size_t)body) != 0) return 1;
    credits--;
  }
  return 0;
}

/* The receiver: reads ahead; every half window, one write of RELEASED (those batches' ids) and REQUEST. */
static int64_t receiver(int fd, int64_t batches, int32_t window) {
  static unsigned char buffer[READ_BUFFER];
  static unsigned char reply[HEADER + 16 + 8 * 65536 + HEADER + 4];
  size_t start = 0, end = 0;
  int64_t received = 0, in_flight = 0, unreleased = 0;
  int64_t began = now_ns();
  while (received < batches) {
    if (in_flight <= window / 2 && received + in_flight < batches) {   /* never ask for more than the stream has */
      size_t at = 0;
      if (unreleased > 0) {
        uint32_t count = (uint32_t)unreleased, reserved = 0;
        put_header(reply, 8 + 8 * count, TYPE_RELEASED);
        memcpy(reply + HEADER, &count, 4);
        memcpy(reply + HEADER + 4, &reserved, 4);
        for (uint32_t i = 0; i < count; i++) {
          uint64_t id = (uint64_t)(received - count + i + 1);
          memcpy(reply + HEADER + 8 + 8 * i, &id, 8);
        }
        at = HEADER + 8 + 8 * (size_t)count;
        unreleased = 0;
      }
      int64_t wanted = window - in_flight < batches - received - in_flight ? window - in_flight : batches - received - in_flight;
      uint32_t more = (uint32_t)wanted;
      put_header(reply + at, 4, TYPE_REQUEST);
      memcpy(reply + at + HEADER, &more, 4);
      if (send_all(fd, reply, at + HEADER + 4) != 0) return -1;
      in_flight += wanted;
    }
    while (end - start < HEADER || end - start < HEADER + (size_t)body_length(buffer + start)) {
      memmove(buffer, buffer + start, end - start);
      end -= start;
      start = 0;
      ssize_t got = recv(fd, buffer + end, sizeof buffer - end, 0);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return -1;
      end += (size_t)got;
    }
    start += HEADER + body_length(buffer + start);
    received++;
    in_flight--;
    unreleased++;
  }
  return now_ns() - began;
}

/*
 * Streams `batches` frames of `body` bytes (at most 4,096) from a child process to this one with a window of
 * `window` (2 to 65,536). Returns the nanoseconds the receiver took from its first REQUEST to its last batch,
 * or -1 if something failed.
 */
int64_t bench_share_floor(int64_t batches, int32_t body, int32_t window) {
  if (body < 0 || body > MAX_BODY || window < 2 || window > 65536) return -1;
  int pair[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) return -1;
  pid_t child = fork();
  if (child < 0) {
    close(pair[0]);
    close(pair[1]);
    return -1;
  }
  if (child == 0) {
    close(pair[1]);
    _exit(owner(pair[0], batches, body));
  }
  close(pair[0]);
  int64_t elapsed = receiver(pair[1], batches, window);
  close(pair[1]);
  int status = 0;
  if (elapsed < 0) kill(child, SIGKILL);
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return elapsed >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? elapsed : -1;
}
