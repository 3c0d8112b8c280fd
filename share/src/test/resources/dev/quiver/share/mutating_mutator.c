/* The mutator of the mutating owner: a table of the batches sent and not yet released, and a thread that keeps
 * rewriting their structural bytes (offsets, sizes, views, variadic sizes, union type ids and offsets, run ends,
 * dictionary indices, validity bits) through the owner's writable shared mapping while the receiver reads them.
 * A rewrite puts an extreme or random value (0, -1, the smallest and largest of the width, the file's size and
 * just past it, the old value plus or minus one, random bits) and either leaves it there or puts the old value
 * back after up to 200 microseconds, so that a check may see the old value and a later read the new one. Between
 * rounds the thread waits 0 to 3 ms. Batches whose id is a multiple of QUIET_EVERY are left alone. */
#define _GNU_SOURCE
#include "mutating_owner.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define MAX_HELD 256

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct held table[MAX_HELD];
static int used[MAX_HELD];
static uint64_t rewrites[RANGE_KINDS];
static uint64_t mutator_state;
static atomic_int stopping;
static pthread_t thread;

uint64_t next_random(uint64_t *state) {   /* xorshift64* */
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

int held_add(const struct held *batch) {
    pthread_mutex_lock(&lock);
    for (int i = 0; i < MAX_HELD; i++) {
        if (!used[i]) {
            table[i] = *batch;
            used[i] = 1;
            pthread_mutex_unlock(&lock);
            return 1;
        }
    }
    pthread_mutex_unlock(&lock);
    return 0;
}

static void let_go(int i) {
    if (table[i].memory != NULL) {
        munmap(table[i].memory, table[i].template->memory_length);
        close(table[i].fd);
    }
    used[i] = 0;
}

int64_t held_release(uint64_t batch_id) {
    pthread_mutex_lock(&lock);
    for (int i = 0; i < MAX_HELD; i++) {
        if (used[i] && table[i].batch_id == batch_id) {
            int64_t region = (int64_t) table[i].region_id;
            let_go(i);
            pthread_mutex_unlock(&lock);
            return region;
        }
    }
    pthread_mutex_unlock(&lock);
    return -1;
}

uint64_t held_drop_all(void) {
    uint64_t dropped = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < MAX_HELD; i++) {
        if (used[i]) {
            let_go(i);
            dropped++;
        }
    }
    pthread_mutex_unlock(&lock);
    return dropped;
}

uint64_t held_count(void) {
    uint64_t count = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < MAX_HELD; i++) {
        count += (uint64_t) used[i];
    }
    pthread_mutex_unlock(&lock);
    return count;
}

/* A value to write over an entry of `width` bytes (1, 2, 4 or 8) whose value was `old`, in a file of `size` bytes. */
static uint64_t hostile_value(uint64_t *state, uint32_t width, uint64_t old, uint64_t size) {
    uint64_t top = width == 8 ? UINT64_MAX : (1ULL << (8 * width)) - 1;
    uint64_t smallest = 1ULL << (8 * width - 1);          /* the most negative value of the width */
    switch (next_random(state) % 14) {
        case 0: return 0;
        case 1: return UINT64_MAX;                          /* -1 */
        case 2: return smallest;
        case 3: return smallest - 1;                        /* the largest positive value */
        case 4: return size;
        case 5: return size + 1;
        case 6: return size + 4096;                         /* a page past the end */
        case 7: return old + 1;
        case 8: return old - 1;
        case 9: return old + size;
        case 10: return next_random(state) % 256;
        case 11: return 0x7FFFFFF0ULL + next_random(state) % 16;
        case 12: return old ^ (1ULL << (next_random(state) % (8 * width)));
        default: return next_random(state) & top;
    }
}

/* Rewrites one entry of one range of a held batch; the table's lock is held. */
static void mutate_one(struct held *batch, uint64_t *state) {
    const struct batch_template *t = batch->template;
    if (t->range_count == 0 || batch->memory == NULL) {
        return;
    }
    const struct range *r = &t->ranges[next_random(state) % t->range_count];
    for (int tries = 0; tries < 4 && r->kind == RANGE_VALIDITY && next_random(state) % 8 != 0; tries++) {
        r = &t->ranges[next_random(state) % t->range_count];   /* every node has a bitmap: favour the rest */
    }
    if (r->length == 0) {
        return;
    }
    uint8_t *at;
    uint32_t width;
    if (r->width == 0) {
        at = batch->memory + r->offset + next_random(state) % r->length;
        width = 1;
    } else {
        uint64_t entries = r->length / r->width;
        if (entries == 0) {
            return;
        }
        at = batch->memory + r->offset + (next_random(state) % entries) * r->width;
        width = r->width;
        if (width == 16) {                                  /* a view: its length, prefix, buffer index or offset */
            at += 4 * (next_random(state) % 4);
            width = 4;
        }
    }
    uint64_t old = 0;
    memcpy(&old, at, width);
    uint64_t value = r->width == 0 ? old ^ (1ULL << (next_random(state) % 8))
            : hostile_value(state, width, old, t->memory_length);
    volatile uint8_t *target = at;                          /* the receiver reads this memory concurrently */
    for (uint32_t i = 0; i < width; i++) {
        target[i] = (uint8_t) (value >> (8 * i));
    }
    rewrites[r->kind < RANGE_KINDS ? r->kind : 0]++;
    if (next_random(state) % 4 != 0) {                      /* mostly a flicker: the old value comes back */
        struct timespec pause = {0, (long) (next_random(state) % 200) * 1000};
        nanosleep(&pause, NULL);
        for (uint32_t i = 0; i < width; i++) {
            target[i] = (uint8_t) (old >> (8 * i));
        }
    }
}

void mutate_now(uint64_t batch_id) {
    pthread_mutex_lock(&lock);
    for (int i = 0; i < MAX_HELD; i++) {
        if (used[i] && table[i].batch_id == batch_id && !table[i].quiet) {
            int n = 1 + (int) (next_random(&mutator_state) % 4);
            for (int k = 0; k < n; k++) {
                mutate_one(&table[i], &mutator_state);
            }
        }
    }
    pthread_mutex_unlock(&lock);
}

static void *mutate_forever(void *unused) {
    (void) unused;
    uint64_t state = mutator_state ^ 0x9E3779B97F4A7C15ULL;
    while (!atomic_load(&stopping)) {
        pthread_mutex_lock(&lock);
        for (int i = 0; i < MAX_HELD; i++) {
            if (used[i] && !table[i].quiet) {
                int n = 1 + (int) (next_random(&state) % 3);
                for (int k = 0; k < n; k++) {
                    mutate_one(&table[i], &state);
                }
            }
        }
        pthread_mutex_unlock(&lock);
        uint64_t pick = next_random(&state) % 10;
        if (pick < 4) {
            sched_yield();
        } else {
            struct timespec pause = {0, (long) (pick < 8 ? next_random(&state) % 200 : next_random(&state) % 3000) * 1000};
            nanosleep(&pause, NULL);
        }
    }
    return NULL;
}

void mutator_start(uint64_t seed) {
    mutator_state = seed | 1;
    pthread_create(&thread, NULL, mutate_forever, NULL);
}

void mutator_stop(uint64_t counts[RANGE_KINDS]) {
    atomic_store(&stopping, 1);
    pthread_join(thread, NULL);
    pthread_mutex_lock(&lock);
    memcpy(counts, rewrites, sizeof rewrites);
    pthread_mutex_unlock(&lock);
}
