/*
 * A C consumer for the host builder tests: reads the values of an exported array (or of one child of an
 * exported struct, applying the struct's offset as the format requires) by logical index, copies them out
 * for Java to compare with what it built, checks the format string, then releases array and schema.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "arrow_c_abi.h"

static void release_both(struct ArrowDeviceArray* device_array, struct ArrowSchema* schema) {
  if (device_array->array.release != NULL) {
    device_array->array.release(&device_array->array);
  }
  if (schema->release != NULL) {
    schema->release(schema);
  }
}

/* Picks the array to read: the exported one (child < 0) or its child, and the slot of element 0. */
static int pick(struct ArrowDeviceArray* device_array, struct ArrowSchema* schema, int64_t child,
                struct ArrowArray** array, struct ArrowSchema** field, int64_t* first, char* err, int64_t err_len) {
  struct ArrowArray* top = &device_array->array;
  if (device_array->device_type != ARROW_DEVICE_CPU || device_array->device_id != -1) {
    snprintf(err, err_len, "not a CPU array: device %d id %lld", device_array->device_type, (long long) device_array->device_id);
    return -1;
  }
  if (child < 0) {
    *array = top;
    *field = schema;
    *first = top->offset;
    return 0;
  }
  if (child >= top->n_children || child >= schema->n_children) {
    snprintf(err, err_len, "no child %lld", (long long) child);
    return -1;
  }
  *array = top->children[child];
  *field = schema->children[child];
  /* A struct member's element i is its slot offset + parent offset + i. */
  *first = top->offset + (*array)->offset;
  if ((*array)->length < top->offset + top->length) {
    snprintf(err, err_len, "child %lld has %lld slots, parent needs %lld", (long long) child,
             (long long) (*array)->length, (long long) (top->offset + top->length));
    return -1;
  }
  return 0;
}

/* Picks the array, checks its format and buffer count, and sets the number of elements to read. */
static int open_array(struct ArrowDeviceArray* device_array, struct ArrowSchema* schema, int64_t child, const char* format,
                      int64_t n_buffers, int64_t capacity, struct ArrowArray** array, int64_t* first, int64_t* length,
                      char* err, int64_t err_len) {
  struct ArrowSchema* field;
  if (pick(device_array, schema, child, array, &field, first, err, err_len) != 0) {
    return -1;
  }
  *length = child < 0 ? (*array)->length : device_array->array.length;
  if (strcmp(field->format, format) != 0) {
    snprintf(err, err_len, "format is \"%s\", expected \"%s\"", field->format, format);
    return -1;
  }
  if ((*array)->n_buffers != n_buffers || *length > capacity) {
    snprintf(err, err_len, "n_buffers %lld, length %lld (capacity %lld)", (long long) (*array)->n_buffers,
             (long long) *length, (long long) capacity);
    return -1;
  }
  return 0;
}

static int bit(const void* bits, int64_t i) {
  return (((const uint8_t*) bits)[i >> 3] >> (i & 7)) & 1;
}

/*
 * Reads length values of byte_width bytes each (0 for bit-packed booleans, written as one byte each) into
 * values, and one byte per value into valid (1 valid, 0 null). Returns the number of values, or -1 with a
 * message in err. Releases the array and schema either way.
 */
int64_t host_fixed_values(struct ArrowDeviceArray* device_array, struct ArrowSchema* schema, int64_t child,
                          const char* format, int64_t byte_width, uint8_t* values, uint8_t* valid, int64_t capacity,
                          char* err, int64_t err_len) {
  struct ArrowArray* array;
  int64_t first;
  int64_t length;
  int64_t n = -1;
  if (open_array(device_array, schema, child, format, 2, capacity, &array, &first, &length, err, err_len) != 0) {
    goto done;
  }
  const void* validity = array->buffers[0];
  const uint8_t* data = (const uint8_t*) array->buffers[1];
  int64_t nulls = 0;
  for (int64_t i = 0; i < length; i++) {
    int64_t slot = first + i;
    valid[i] = validity == NULL ? 1 : (uint8_t) bit(validity, slot);
    nulls += valid[i] ? 0 : 1;
    if (byte_width == 0) {
      values[i] = (uint8_t) bit(data, slot);
    } else {
      memcpy(values + i * byte_width, data + slot * byte_width, (size_t) byte_width);
    }
  }
  if (child < 0 && array->null_count != -1 && array->null_count != nulls) {
    snprintf(err, err_len, "null_count %lld, but %lld validity bits are clear", (long long) array->null_count, (long long) nulls);
    goto done;
  }
  n = length;
done:
  release_both(device_array, schema);
  return n;
}

/*
 * Reads the values of a binary or utf8 array (offset_width 4) or of a large one (offset_width 8): their
 * bytes back to back into bytes, each value's length into lengths (-1 for null). Returns the number of
 * values, or -1 with a message in err. Releases the array and schema either way.
 */
int64_t host_binary_values(struct ArrowDeviceArray* device_array, struct ArrowSchema* schema, int64_t child,
                           const char* format, int64_t offset_width, uint8_t* bytes, int64_t bytes_capacity,
                           int64_t* lengths, int64_t capacity, char* err, int64_t err_len) {
  struct ArrowArray* array;
  int64_t first;
  int64_t length;
  int64_t n = -1;
  if (open_array(device_array, schema, child, format, 3, capacity, &array, &first, &length, err, err_len) != 0) {
    goto done;
  }
  const void* validity = array->buffers[0];
  const uint8_t* data = (const uint8_t*) array->buffers[2];
  int64_t written = 0;
  for (int64_t i = 0; i < length; i++) {
    int64_t slot = first + i;
    int64_t start = offset_width == 4 ? ((const int32_t*) array->buffers[1])[slot] : ((const int64_t*) array->buffers[1])[slot];
    int64_t end = offset_width == 4 ? ((const int32_t*) array->buffers[1])[slot + 1] : ((const int64_t*) array->buffers[1])[slot + 1];
    if (validity != NULL && !bit(validity, slot)) {
      lengths[i] = -1;
      continue;
    }
    if (start < 0 || end < start || written + (end - start) > bytes_capacity) {
      snprintf(err, err_len, "value %lld: offsets %lld..%lld", (long long) i, (long long) start, (long long) end);
      goto done;
    }
    memcpy(bytes + written, data + start, (size_t) (end - start));
    written += end - start;
    lengths[i] = end - start;
  }
  n = length;
done:
  release_both(device_array, schema);
  return n;
}
