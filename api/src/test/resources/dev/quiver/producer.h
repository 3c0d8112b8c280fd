/*
 * A C producer of Arrow C Device arrays in host memory, written from the C Data Interface
 * specification's export example: every node's private_data records what it allocated, and its
 * release callback releases the children that are still live, frees what the node owns, marks the
 * struct released (release = NULL) and counts the call.
 */
#ifndef QUIVER_TEST_PRODUCER_H
#define QUIVER_TEST_PRODUCER_H

#include <stddef.h>
#include <stdint.h>
#include "arrow_c_abi.h"

/* Array nodes. n_buffers and n_children are also the capacity of the pointer arrays. */
void p_array(struct ArrowArray* a, int64_t length, int64_t offset, int64_t n_buffers, int64_t n_children);
struct ArrowArray* p_array_child(struct ArrowArray* parent, int64_t i);
void p_buffer(struct ArrowArray* a, int64_t i, const void* bytes, size_t size);
/* Buffer 0 from a mask over the whole buffer ('1' valid, '0' null; NULL: no validity buffer), and
 * null_count over [offset, offset + length). */
void p_validity(struct ArrowArray* a, const char* mask);

/* Schema nodes; format and name are copied (NULL name stays NULL). */
void p_schema(struct ArrowSchema* s, const char* format, const char* name, int64_t n_children);
struct ArrowSchema* p_schema_child(struct ArrowSchema* parent, int64_t i);
/* A schema node hung on parent->dictionary, released and freed with the parent as its children are. */
struct ArrowSchema* p_schema_dictionary(struct ArrowSchema* parent);

/* Leaves: array and schema together. */
void p_fixed(struct ArrowArray* a, struct ArrowSchema* s, const char* format, const char* name,
             const void* values, size_t width, int64_t n, const char* mask);
void p_bool(struct ArrowArray* a, struct ArrowSchema* s, const char* name, const char* bits, const char* mask);
/* utf8 ("u") or binary ("z") from explicit offsets and bytes. */
void p_varlen(struct ArrowArray* a, struct ArrowSchema* s, const char* format, const char* name,
              const int32_t* offsets, int64_t n, const void* data, size_t data_size, const char* mask);
/* utf8 from C strings, NULL for null. */
void p_utf8(struct ArrowArray* a, struct ArrowSchema* s, const char* name, const char* const* values, int64_t n);

/* `depth` nested one-element lists around int64 [7]. */
void p_nested_lists(struct ArrowArray* a, struct ArrowSchema* s, int depth);

/* Small well-formed shapes (producer_bad.c) that the broken cases start from: int32 [1, 2, 3] with
 * validity `mask`, utf8 ["a", "bb", "ccc"], list<int32> [[1], [2], [3]], struct{a: int32, b: utf8}. */
void p_int32_3(struct ArrowArray* a, struct ArrowSchema* s, const char* mask);
void p_utf8_3(struct ArrowArray* a, struct ArrowSchema* s);
void p_list_3(struct ArrowArray* a, struct ArrowSchema* s);
void p_struct_3(struct ArrowArray* a, struct ArrowSchema* s);

/* Cases: 0 when built, -1 for an unknown name (nothing built then). */
int p_good_case(const char* name, struct ArrowDeviceArray* d, struct ArrowSchema* s);
int p_bad_case(const char* name, struct ArrowDeviceArray* d, struct ArrowSchema* s);
int p_hostile_case(const char* name, struct ArrowDeviceArray* d, struct ArrowSchema* s);

#endif
