/*
 * A constructor shaped like OpenCL's clCreate* functions: it returns the new handle and writes its result
 * code through the last parameter (errcode_ret). Asked to fail, it returns NULL and writes that code.
 */
#include <stdlib.h>

void *handle_create(int fail_with, int *errcode_ret) {
    if (fail_with != 0) {
        *errcode_ret = fail_with;
        return NULL;
    }
    *errcode_ret = 0;
    return malloc(16);
}
