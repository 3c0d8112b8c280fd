/*
 * What the kernel charges for the confirmation an untrusted import asks for: mincore(2) over one page and
 * over 256 pages, beside getppid(2), the cheapest system call, and write(2) of a page to /dev/null.
 * Nanoseconds per call, over 200,000 calls each.
 *
 *   gcc -O2 mincore_cost.c -o /tmp/mincore_cost && /tmp/mincore_cost
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(void) {
    const int calls = 200000;
    char *memory = malloc(1 << 20);
    unsigned char vector[512];
    long page = sysconf(_SC_PAGESIZE);
    void *first = (void *) ((long) memory & -page);
    int null_device = open("/dev/null", O_WRONLY);
    double t0 = now_ns();
    for (int i = 0; i < calls; i++) mincore(first, (size_t) page, vector);
    double t1 = now_ns();
    for (int i = 0; i < calls; i++) mincore(first, 256 * (size_t) page, vector);
    double t2 = now_ns();
    for (int i = 0; i < calls; i++) getppid();
    double t3 = now_ns();
    for (int i = 0; i < calls; i++) if (write(null_device, first, (size_t) page) < 0) return 1;
    double t4 = now_ns();
    printf("mincore 1 page %.0f ns, 256 pages %.0f ns, getppid %.0f ns, write of a page to /dev/null %.0f ns\n",
           (t1 - t0) / calls, (t2 - t1) / calls, (t3 - t2) / calls, (t4 - t3) / calls);
    free(memory);
    return 0;
}
