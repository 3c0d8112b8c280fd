/*
 * Test double: an OpenCL installable client driver (cl_khr_icd) with one platform and no device, for
 * checking what the probe reports when a driver is installed but finds no hardware. The ICD loader loads
 * it when OCL_ICD_VENDORS names this library. It implements only what the loader and the probe call.
 * Internal references go to static functions: the exported names would otherwise bind to the loader's own
 * clGetPlatformInfo when the loader is in the global symbol scope.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl_icd.h>
#include <string.h>

struct _cl_platform_id {
    const struct _cl_icd_dispatch *dispatch;
};

static cl_int info_string(const char *value, size_t size, void *out, size_t *size_ret) {
    size_t needed = strlen(value) + 1;
    if (out != NULL) {
        if (size < needed) {
            return CL_INVALID_VALUE;
        }
        memcpy(out, value, needed);
    }
    if (size_ret != NULL) {
        *size_ret = needed;
    }
    return CL_SUCCESS;
}

static cl_int CL_API_CALL platform_info(cl_platform_id platform, cl_platform_info param, size_t size,
                                        void *value, size_t *size_ret) {
    switch (param) {
    case CL_PLATFORM_PROFILE: return info_string("FULL_PROFILE", size, value, size_ret);
    case CL_PLATFORM_VERSION: return info_string("OpenCL 3.0 test double", size, value, size_ret);
    case CL_PLATFORM_NAME: return info_string("Quiver test double platform", size, value, size_ret);
    case CL_PLATFORM_VENDOR: return info_string("Quiver tests", size, value, size_ret);
    case CL_PLATFORM_EXTENSIONS: return info_string("cl_khr_icd", size, value, size_ret);
    case CL_PLATFORM_ICD_SUFFIX_KHR: return info_string("QTD", size, value, size_ret);
    default: return CL_INVALID_VALUE;
    }
}

static cl_int CL_API_CALL no_devices(cl_platform_id platform, cl_device_type type, cl_uint entries,
                                     cl_device_id *devices, cl_uint *count) {
    if (count != NULL) {
        *count = 0;
    }
    return CL_DEVICE_NOT_FOUND;
}

static struct _cl_icd_dispatch dispatch;
static struct _cl_platform_id the_platform = {&dispatch};

static cl_int CL_API_CALL platform_ids(cl_uint entries, cl_platform_id *platforms, cl_uint *count) {
    dispatch.clGetPlatformInfo = platform_info;
    dispatch.clGetDeviceIDs = no_devices;
    if (platforms != NULL && entries > 0) {
        platforms[0] = &the_platform;
    }
    if (count != NULL) {
        *count = 1;
    }
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param, size_t size,
                                                  void *value, size_t *size_ret) {
    return platform_info(platform, param, size, value, size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint entries, cl_platform_id *platforms, cl_uint *count) {
    return platform_ids(entries, platforms, count);
}

CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddress(const char *name) {
    if (strcmp(name, "clIcdGetPlatformIDsKHR") == 0) {
        return (void *) platform_ids;
    }
    if (strcmp(name, "clGetPlatformInfo") == 0) {
        return (void *) platform_info;
    }
    return NULL;
}
