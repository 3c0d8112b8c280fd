/* What the two files of the mutating owner share: the templates read from the file the Java test writes, and the
 * table of batches sent and not yet released, which the mutator thread keeps rewriting (mutating_owner.c speaks
 * the protocol, mutating_mutator.c rewrites). */
#ifndef MUTATING_OWNER_H
#define MUTATING_OWNER_H

#include <stddef.h>
#include <stdint.h>

/* The kinds of structural bytes a range holds (the numbers the template file uses). */
enum range_kind {
    RANGE_VALIDITY = 1,        /* a validity bitmap: bits are flipped */
    RANGE_OFFSETS = 2,         /* offsets of strings, binaries, lists, maps (and list-view offsets) */
    RANGE_SIZES = 3,           /* list-view sizes */
    RANGE_VIEWS = 4,           /* 16-byte views: length, prefix, buffer index, offset */
    RANGE_VARIADIC_SIZES = 5,  /* the sizes of the variadic buffers of views */
    RANGE_TYPE_IDS = 6,        /* union type ids */
    RANGE_UNION_OFFSETS = 7,   /* dense union offsets */
    RANGE_RUN_ENDS = 8,        /* run ends of run-end encoding */
    RANGE_DICTIONARY_INDICES = 9,
    RANGE_KINDS = 10
};

/* Bytes of the memory file that a reader relies on to stay in bounds. */
struct range {
    uint32_t kind;
    uint32_t width;            /* bytes per entry; 0 for a bitmap */
    uint64_t offset;           /* from the start of the memory file */
    uint64_t length;
};

/* One batch as the owner sends it again and again: the BATCH body (batch id and region id patched per send), the
 * memory file's contents, and where the structural bytes lie in it. */
struct batch_template {
    uint8_t *body;
    uint32_t body_length;
    uint8_t *memory;
    uint64_t memory_length;    /* 0: the batch has no handle (an array without memory) */
    struct range *ranges;
    uint32_t range_count;
};

/* One connection's worth: the SCHEMA body and the batches of that schema. */
struct stream {
    uint8_t *schema;
    uint32_t schema_length;
    struct batch_template *templates;
    uint32_t template_count;
};

/* A batch sent and not yet released. */
struct held {
    uint64_t batch_id;
    uint64_t region_id;        /* 0 for a batch without memory */
    int fd;
    uint8_t *memory;           /* the owner's writable shared mapping of the memory file */
    const struct batch_template *template;
    int quiet;                 /* never rewritten: the receiver checks its values */
};

/* A batch whose id is a multiple of this is never rewritten. */
#define QUIET_EVERY 8

uint64_t next_random(uint64_t *state);

/* The table of held batches; every function takes the table's lock. Returns 0 if the table is full. */
int held_add(const struct held *batch);
/* Lets go of a batch (unmaps and closes its file); returns its region id, 0 for none, or -1 if it is not held. */
int64_t held_release(uint64_t batch_id);
/* Lets go of every batch still held (the connection ended); returns how many. */
uint64_t held_drop_all(void);
uint64_t held_count(void);
/* Rewrites structural bytes of the batch of that id at once (just after its BATCH was sent). */
void mutate_now(uint64_t batch_id);

void mutator_start(uint64_t seed);
/* Stops the thread; returns how many rewrites it and mutate_now made, per range kind in counts[RANGE_KINDS]. */
void mutator_stop(uint64_t counts[RANGE_KINDS]);

#endif
