/*
 * What the two halves of the test double device model share (test_double_device.c: memory and its inter-process
 * handles; test_double_queues.c: queues, events and their inter-process handles). Private to the model: hidden from
 * the built library's symbol table.
 */
#ifndef TEST_DOUBLE_SHARED_H
#define TEST_DOUBLE_SHARED_H

#include <pthread.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

/* Guards every list and counter of the model. */
extern pthread_mutex_t td_lock;

/* Copies the queues have run, under td_lock. */
extern long td_executed_copies_count;

#define TD_COUNTER(function, variable) \
  long function(void) {                \
    pthread_mutex_lock(&td_lock);      \
    long n = variable;                 \
    pthread_mutex_unlock(&td_lock);    \
    return n;                          \
  }

/* The start of every handle: its kind's magic, and the exporting process and its descriptor of the file behind
 * the handle (a memfd), which the opening process maps through /proc. */
struct peer_file {
  uint32_t magic;
  int32_t pid;
  int32_t fd;
};

/* Names a file of this process in a handle of the kind `magic`. */
void td_name_peer_file(struct peer_file* file, uint32_t magic, int fd);

/* Checks a handle's file part before anything is opened: TD_INVALID_VALUE for bytes that are no handle of the
 * kind `magic`, `own` for a handle of this process (the drivers refuse those), else TD_OK. */
int td_check_peer_file(const struct peer_file* file, uint32_t magic, int own);

/* Maps `size` bytes of the exporter's file: MAP_FAILED if the exporter is gone, the descriptor never named its
 * file, or the file is not `size` bytes. */
void* td_map_peer_file(const struct peer_file* file, uint64_t size);

#pragma GCC visibility pop

#endif
