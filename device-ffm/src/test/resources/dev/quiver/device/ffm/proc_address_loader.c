/*
 * A loader function shaped like Vulkan's vkGetInstanceProcAddr: it returns the address of a function by
 * name, for an object or for none (NULL). Global functions are found for any object; the object's own
 * functions only for a non-NULL object, whose counter they update. Any other name gives NULL.
 */
#include <stddef.h>
#include <string.h>

typedef void (*void_function)(void);

typedef struct counter {
    int value;
} counter;

/* A global function: 0 (success) for a non-negative input, the input itself as an error code otherwise. */
int check_sign(int value) {
    return value < 0 ? value : 0;
}

/* An object's function with no result code. */
void counter_add(counter *object, int amount) {
    object->value += amount;
}

/* An object's function that writes a value and returns a result code. */
int counter_read(counter *object, int *out) {
    *out = object->value;
    return 0;
}

void_function get_proc_address(void *object, const char *name) {
    if (strcmp(name, "check_sign") == 0) {
        return (void_function) check_sign;
    }
    if (object != NULL && strcmp(name, "counter_add") == 0) {
        return (void_function) counter_add;
    }
    if (object != NULL && strcmp(name, "counter_read") == 0) {
        return (void_function) counter_read;
    }
    return NULL;
}
