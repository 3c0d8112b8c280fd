/*
 * The driver work of a device listing, from C: what DiscoveryRuns' listing spends in the drivers themselves.
 * OpenCL: the platforms, their devices and a context on the first (PoCL here); Vulkan: an instance and its
 * physical devices (lavapipe here); HIP and Level Zero: their libraries loaded and asked for devices. Prints
 * the milliseconds of each part. With an argument (opencl, vulkan or others) it does only that part, as a
 * process that probes one backend would.
 *
 *   gcc -O2 probe_drivers.c -o /tmp/probe_drivers /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 -lvulkan -ldl
 *   for i in 1 2 3 4 5; do /tmp/probe_drivers; done
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <vulkan/vulkan.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    const char *only = argc > 1 ? argv[1] : NULL;
    int do_opencl = only == NULL || strcmp(only, "opencl") == 0;
    int do_vulkan = only == NULL || strcmp(only, "vulkan") == 0;
    int do_others = only == NULL || strcmp(only, "others") == 0;
    double start = now_ms();
    cl_uint platforms = 0, devices = 0;
    cl_platform_id platform[8];
    cl_device_id device[8];
    if (do_opencl) clGetPlatformIDs(8, platform, &platforms);
    if (platforms > 0) {
        clGetDeviceIDs(platform[0], CL_DEVICE_TYPE_ALL, 8, device, &devices);
    }
    cl_context context = devices > 0 ? clCreateContext(NULL, 1, device, NULL, NULL, NULL) : NULL;
    double opencl = now_ms();

    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo create = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    create.pApplicationInfo = &app;
    VkInstance instance = VK_NULL_HANDLE;
    uint32_t physical = 0;
    if (do_vulkan && vkCreateInstance(&create, NULL, &instance) == VK_SUCCESS) {
        vkEnumeratePhysicalDevices(instance, &physical, NULL);
    }
    double vulkan = now_ms();

    void *ze = do_others ? dlopen("libze_loader.so.1", RTLD_NOW) : NULL;
    if (ze != NULL) {
        int (*ze_init)(int) = (int (*)(int)) dlsym(ze, "zeInit");
        if (ze_init != NULL) ze_init(0);
    }
    void *hip = do_others ? dlopen("libamdhip64.so.5", RTLD_NOW) : NULL;
    if (hip != NULL) {
        int (*count)(int *) = (int (*)(int *)) dlsym(hip, "hipGetDeviceCount");
        int n = 0;
        if (count != NULL) count(&n);
    }
    double others = now_ms();

    printf("opencl %.1f ms, vulkan %.1f ms, hip + level zero %.1f ms, total %.1f ms (%u OpenCL, %u Vulkan devices)\n",
           opencl - start, vulkan - opencl, others - vulkan, others - start, devices, physical);
    if (context != NULL) clReleaseContext(context);
    if (instance != VK_NULL_HANDLE) vkDestroyInstance(instance, NULL);
    return 0;
}
