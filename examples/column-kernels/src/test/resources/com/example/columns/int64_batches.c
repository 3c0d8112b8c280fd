/*
 * A C producer of an ArrowDeviceArrayStream of CPU int64 batches with nulls and offsets, written from the
 * Arrow C Device Data Interface specification. Batch b has rows logical rows starting at slot
 * offset = b % 7 of its buffers. Slot j of batch b holds a value and a validity bit derived from
 * mix(b, j) (see slot_mix); slots before the offset and null slots hold INT64_MAX, so a consumer that
 * ignores the offset or the validity bitmap gets a different answer. Counts the arrays it released.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "arrow_c_abi.h"

static int64_t arrays_released;

struct producer {
    int batches;
    int64_t rows;
    int next;
};

uint64_t slot_mix(int64_t batch, int64_t slot) {
    uint64_t z = ((uint64_t) batch << 32) + (uint64_t) slot + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void release_schema(struct ArrowSchema *schema) {
    schema->release = NULL;
}

static int get_schema(struct ArrowDeviceArrayStream *stream, struct ArrowSchema *out) {
    (void) stream;
    memset(out, 0, sizeof *out);
    out->format = "l";
    out->name = "value";
    out->flags = ARROW_FLAG_NULLABLE;
    out->release = release_schema;
    return 0;
}

static void release_array(struct ArrowArray *array) {
    free((void *) array->buffers[0]);
    free((void *) array->buffers[1]);
    free(array->buffers);
    array->release = NULL;
    __atomic_add_fetch(&arrays_released, 1, __ATOMIC_SEQ_CST);
}

static int get_next(struct ArrowDeviceArrayStream *stream, struct ArrowDeviceArray *out) {
    struct producer *p = stream->private_data;
    memset(out, 0, sizeof *out);
    out->device_type = ARROW_DEVICE_CPU;
    out->device_id = -1;
    if (p->next == p->batches) {
        return 0;
    }
    int64_t batch = p->next;
    int64_t offset = batch % 7;
    int64_t slots = offset + p->rows;
    uint8_t *validity = calloc((size_t) (slots + 7) / 8, 1);
    int64_t *values = malloc((size_t) slots * sizeof *values);
    const void **buffers = malloc(2 * sizeof *buffers);
    if (validity == NULL || values == NULL || buffers == NULL) {
        free(validity);
        free(values);
        free(buffers);
        return 12; /* ENOMEM */
    }
    int64_t nulls = 0;
    for (int64_t j = 0; j < slots; j++) {
        uint64_t z = slot_mix(batch, j);
        int valid = j < offset || (z >> 40) % 10 != 0;
        values[j] = j >= offset && valid ? (int64_t) (z % 2000001) - 1000000 : INT64_MAX;
        if (valid) {
            validity[j / 8] |= (uint8_t) (1u << (j % 8));
        } else {
            nulls++;
        }
    }
    buffers[0] = validity;
    buffers[1] = values;
    out->array.length = p->rows;
    out->array.null_count = nulls;
    out->array.offset = offset;
    out->array.n_buffers = 2;
    out->array.buffers = buffers;
    out->array.release = release_array;
    p->next++;
    return 0;
}

static const char *get_last_error(struct ArrowDeviceArrayStream *stream) {
    (void) stream;
    return NULL;
}

static void release_stream(struct ArrowDeviceArrayStream *stream) {
    free(stream->private_data);
    stream->release = NULL;
}

/* Fills *out with a stream of batches batches of rows rows each; returns 0, or ENOMEM. */
int int64_batches_stream(struct ArrowDeviceArrayStream *out, int batches, int64_t rows) {
    struct producer *p = malloc(sizeof *p);
    if (p == NULL) {
        return 12;
    }
    p->batches = batches;
    p->rows = rows;
    p->next = 0;
    memset(out, 0, sizeof *out);
    out->device_type = ARROW_DEVICE_CPU;
    out->get_schema = get_schema;
    out->get_next = get_next;
    out->get_last_error = get_last_error;
    out->release = release_stream;
    out->private_data = p;
    return 0;
}

/* How many arrays this library has released so far. */
int64_t int64_batches_released(void) {
    return __atomic_load_n(&arrays_released, __ATOMIC_SEQ_CST);
}
