#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "record_batches.h"

struct batch_block {
  atomic_int live_nodes;
  struct batch_counters* counters;
  struct ArrowArray children_storage[2];
  struct ArrowArray* children[2];
  const void* struct_buffers[1];
  const void* int_buffers[2];
  const void* utf8_buffers[3];
  uint8_t* validity;
  int32_t* ints;
  int32_t* offsets;
  char* chars;
};

static void free_block(struct batch_block* block) {
  free(block->validity);
  free(block->ints);
  free(block->offsets);
  free(block->chars);
  atomic_fetch_add(&block->counters->batches_freed, 1);
  free(block);
}

static void drop_node(struct ArrowArray* node) {
  struct batch_block* block = (struct batch_block*)node->private_data;
  node->release = NULL;
  atomic_fetch_add(&block->counters->nodes_released, 1);
  if (atomic_fetch_sub(&block->live_nodes, 1) == 1) {
    free_block(block);
  }
}

static void release_child(struct ArrowArray* child) {
  drop_node(child);
}

static void release_parent(struct ArrowArray* parent) {
  for (int64_t k = 0; k < parent->n_children; k++) {
    if (parent->children[k]->release != NULL) {
      parent->children[k]->release(parent->children[k]);
    }
  }
  drop_node(parent);
}

int make_record_batch(struct ArrowArray* out, int64_t batch, int64_t rows, struct batch_counters* counters) {
  struct batch_block* block = (struct batch_block*)calloc(1, sizeof *block);
  if (block == NULL) return ENOMEM;
  block->counters = counters;
  block->validity = (uint8_t*)calloc((size_t)(rows + 7) / 8 + 1, 1);
  block->ints = (int32_t*)calloc((size_t)rows + 1, sizeof(int32_t));
  block->offsets = (int32_t*)calloc((size_t)rows + 1, sizeof(int32_t));
  block->chars = (char*)calloc((size_t)rows * 32 + 1, 1);
  if (!block->validity || !block->ints || !block->offsets || !block->chars) {
    free_block(block);
    return ENOMEM;
  }
  int64_t nulls = 0;
  int32_t at = 0;
  for (int64_t r = 0; r < rows; r++) {
    if (r % 5 == 3) {
      nulls++;
    } else {
      block->validity[r / 8] |= (uint8_t)(1u << (r % 8));
      block->ints[r] = (int32_t)(1000 * batch + r);
    }
    at += snprintf(block->chars + at, 32, "b%ldr%ld", (long)batch, (long)r);
    block->offsets[r + 1] = at;
  }
  block->struct_buffers[0] = NULL;
  block->int_buffers[0] = block->validity;
  block->int_buffers[1] = block->ints;
  block->utf8_buffers[0] = NULL;
  block->utf8_buffers[1] = block->offsets;
  block->utf8_buffers[2] = block->chars;
  atomic_store(&block->live_nodes, 3);

  struct ArrowArray* ints = &block->children_storage[0];
  struct ArrowArray* strings = &block->children_storage[1];
  memset(ints, 0, sizeof *ints);
  ints->length = rows;
  ints->null_count = nulls;
  ints->n_buffers = 2;
  ints->buffers = block->int_buffers;
  ints->release = release_child;
  ints->private_data = block;
  memset(strings, 0, sizeof *strings);
  strings->length = rows;
  strings->null_count = 0;
  strings->n_buffers = 3;
  strings->buffers = block->utf8_buffers;
  strings->release = release_child;
  strings->private_data = block;
  block->children[0] = ints;
  block->children[1] = strings;

  memset(out, 0, sizeof *out);
  out->length = rows;
  out->null_count = 0;
  out->n_buffers = 1;
  out->buffers = block->struct_buffers;
  out->n_children = 2;
  out->children = block->children;
  out->release = release_parent;
  out->private_data = block;
  atomic_fetch_add(&counters->batches_made, 1);
  return 0;
}

struct schema_block {
  struct batch_counters* counters;
  struct ArrowSchema children_storage[2];
  struct ArrowSchema* children[2];
};

static void release_schema_child(struct ArrowSchema* child) {
  child->release = NULL;
}

static void release_schema(struct ArrowSchema* schema) {
  struct schema_block* block = (struct schema_block*)schema->private_data;
  for (int k = 0; k < 2; k++) {
    if (block->children[k]->release != NULL) block->children[k]->release(block->children[k]);
  }
  atomic_fetch_add(&block->counters->schemas_released, 1);
  schema->release = NULL;
  free(block);
}

void make_record_batch_schema(struct ArrowSchema* out, struct batch_counters* counters) {
  struct schema_block* block = (struct schema_block*)calloc(1, sizeof *block);
  block->counters = counters;
  const char* formats[2] = {"i", "u"};
  const char* names[2] = {"i", "s"};
  for (int k = 0; k < 2; k++) {
    struct ArrowSchema* child = &block->children_storage[k];
    memset(child, 0, sizeof *child);
    child->format = formats[k];
    child->name = names[k];
    child->flags = ARROW_FLAG_NULLABLE;
    child->release = release_schema_child;
    block->children[k] = child;
  }
  memset(out, 0, sizeof *out);
  out->format = "+s";
  out->name = "";
  out->n_children = 2;
  out->children = block->children;
  out->release = release_schema;
  out->private_data = block;
}
