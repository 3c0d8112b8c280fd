/*
 * Test double device model: see test_double_device.h. Host memory only; never a claim about hardware.
 */
#define _GNU_SOURCE /* memfd_create */
#include "test_double_device.h"
#include "test_double_shared.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEVICE_TAG ((uintptr_t)1 << 62)

pthread_mutex_t td_lock = PTHREAD_MUTEX_INITIALIZER;
long td_executed_copies_count;

/* ---- memory ------------------------------------------------------------------------------------ */

struct allocation {
  struct allocation* next;
  uintptr_t handle;
  void* base;
  size_t size;
  int kind;
  int device;
  int fd;      /* device kind: the memfd behind the bytes, else -1 */
  int opened;  /* mapped from another process's handle: closed with td_ipc_close, never freed */
};

static struct allocation* allocations;
static long live_allocations;

/* Fills in a and links it into the live allocations; returns its handle. */
static uintptr_t track(struct allocation* a, void* base, size_t size, int kind, int device, int fd, int opened) {
  a->base = base;
  a->size = size;
  a->kind = kind;
  a->device = device;
  a->fd = fd;
  a->opened = opened;
  a->handle = kind == TD_DEVICE ? (uintptr_t)base | DEVICE_TAG : (uintptr_t)base;
  pthread_mutex_lock(&td_lock);
  a->next = allocations;
  allocations = a;
  live_allocations++;
  pthread_mutex_unlock(&td_lock);
  return a->handle;
}

int td_alloc(int kind, int device, size_t size, size_t alignment, uintptr_t* out) {
  if (out == NULL || size == 0 || (kind != TD_DEVICE && kind != TD_HOST && kind != TD_SHARED)) return TD_INVALID_VALUE;
  if (alignment < 256) alignment = 256;
  if ((alignment & (alignment - 1)) != 0) return TD_INVALID_VALUE;
  struct allocation* a = malloc(sizeof *a);
  int fd = -1;
  void* base = NULL;
  if (kind == TD_DEVICE && alignment <= 4096) {
    /* device memory lives in a memfd, so that another process can map the same bytes (td_ipc_open) */
    fd = memfd_create("quiver-test-double-device", MFD_CLOEXEC);
    if (fd >= 0 && ftruncate(fd, (off_t)size) == 0) {
      base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      if (base == MAP_FAILED) base = NULL;
    }
    if (base == NULL && fd >= 0) {
      close(fd);
      fd = -1;
    }
  } else {
    base = aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
  }
  if (a == NULL || base == NULL) {
    free(a);
    if (base != NULL) free(base);
    return TD_OUT_OF_MEMORY;
  }
  memset(base, 0xA5, size); /* like device memory: never zeroed for you */
  *out = track(a, base, size, kind, device, fd, 0);
  return TD_OK;
}

static void release_bytes(struct allocation* a) {
  if (a->fd >= 0 || a->opened) {
    munmap(a->base, a->size);
    if (a->fd >= 0) close(a->fd);
  } else {
    free(a->base);
  }
  free(a);
}

/* Unlinks and releases the allocation whose handle is pointer, if it was opened from a handle (opened) or
 * allocated here with that kind (!opened). */
static int remove_allocation(uintptr_t pointer, int kind, int opened) {
  pthread_mutex_lock(&td_lock);
  for (struct allocation** at = &allocations; *at != NULL; at = &(*at)->next) {
    struct allocation* a = *at;
    if (a->handle == pointer) {
      if (a->opened != opened || (!opened && a->kind != kind)) break;
      *at = a->next;
      live_allocations--;
      pthread_mutex_unlock(&td_lock);
      release_bytes(a);
      return TD_OK;
    }
  }
  pthread_mutex_unlock(&td_lock);
  return TD_INVALID_VALUE;
}

int td_free(int kind, uintptr_t pointer) {
  return remove_allocation(pointer, kind, 0);
}

static struct allocation* find_locked(uintptr_t pointer) {
  for (struct allocation* a = allocations; a != NULL; a = a->next) {
    if (pointer >= a->handle && pointer - a->handle < a->size) return a;
  }
  return NULL;
}

void* td_resolve(uintptr_t pointer, size_t size) {
  pthread_mutex_lock(&td_lock);
  struct allocation* a = find_locked(pointer);
  void* host = NULL;
  if (a != NULL && size <= a->size - (pointer - a->handle)) {
    host = (char*)a->base + (pointer - a->handle);
  }
  pthread_mutex_unlock(&td_lock);
  return host;
}

int td_describe(uintptr_t pointer, int* kind, int* device) {
  pthread_mutex_lock(&td_lock);
  struct allocation* a = find_locked(pointer);
  if (a != NULL) {
    *kind = a->kind;
    *device = a->device;
  }
  pthread_mutex_unlock(&td_lock);
  return a != NULL ? TD_OK : TD_INVALID_VALUE;
}

int td_range(uintptr_t pointer, uintptr_t* base, size_t* size) {
  pthread_mutex_lock(&td_lock);
  struct allocation* a = find_locked(pointer);
  if (a != NULL) {
    if (base != NULL) *base = a->handle;
    if (size != NULL) *size = a->size;
  }
  pthread_mutex_unlock(&td_lock);
  return a != NULL ? TD_OK : TD_INVALID_VALUE;
}

/* ---- inter-process handles --------------------------------------------------------------------- */

#define IPC_MAGIC 0x51544449u /* "QTDI" */

/* Names a file of this process in a handle of the kind `magic`. */
void td_name_peer_file(struct peer_file* file, uint32_t magic, int fd) {
  file->magic = magic;
  file->pid = (int32_t)getpid();
  file->fd = fd;
}

/* Checks a handle's file part before anything is opened: TD_INVALID_VALUE for bytes that are no handle of the
 * kind `magic`, `own` for a handle of this process (the drivers refuse those), else TD_OK. */
int td_check_peer_file(const struct peer_file* file, uint32_t magic, int own) {
  if (file->magic != magic || file->pid <= 0 || file->fd < 0) return TD_INVALID_VALUE;
  return file->pid == (int32_t)getpid() ? own : TD_OK;
}

/* Maps `size` bytes of the exporter's file: MAP_FAILED if the exporter is gone, the descriptor never named its
 * file, or the file is not `size` bytes. */
void* td_map_peer_file(const struct peer_file* file, uint64_t size) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)file->pid, (int)file->fd);
  int fd = open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0) return MAP_FAILED;
  struct stat st;
  void* base = MAP_FAILED;
  if (fstat(fd, &st) == 0 && (uint64_t)st.st_size == size) {
    base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  }
  close(fd);
  return base;
}

struct ipc_handle {
  struct peer_file file;
  int32_t kind;
  int32_t device;
  uint32_t unused;
  uint64_t size;
  char reserved[TD_IPC_HANDLE_SIZE - 32];
};
_Static_assert(sizeof(struct ipc_handle) == TD_IPC_HANDLE_SIZE, "an IPC handle is TD_IPC_HANDLE_SIZE bytes");

int td_ipc_export(uintptr_t pointer, void* handle) {
  struct ipc_handle h;
  memset(&h, 0, sizeof h);
  pthread_mutex_lock(&td_lock);
  struct allocation* a = find_locked(pointer);
  int status = TD_OK;
  if (a == NULL || a->handle != pointer || a->fd < 0) {
    status = TD_INVALID_VALUE; /* only the start of a device allocation of this process has a handle */
  } else {
    td_name_peer_file(&h.file, IPC_MAGIC, a->fd);
    h.kind = a->kind;
    h.device = a->device;
    h.size = a->size;
  }
  pthread_mutex_unlock(&td_lock);
  if (status == TD_OK) memcpy(handle, &h, sizeof h);
  return status;
}

int td_ipc_open(const void* handle, uintptr_t* out) {
  struct ipc_handle h;
  memcpy(&h, handle, sizeof h);
  int status = h.size == 0 ? TD_INVALID_VALUE : td_check_peer_file(&h.file, IPC_MAGIC, TD_INVALID_HANDLE);
  if (status != TD_OK) return status;
  void* base = td_map_peer_file(&h.file, h.size);
  if (base == MAP_FAILED) return TD_INVALID_HANDLE;
  struct allocation* a = malloc(sizeof *a);
  if (a == NULL) {
    munmap(base, h.size);
    return TD_OUT_OF_MEMORY;
  }
  *out = track(a, base, h.size, h.kind, h.device, -1, 1);
  return TD_OK;
}

int td_ipc_close(uintptr_t pointer) {
  return remove_allocation(pointer, 0, 1);
}

TD_COUNTER(td_live_allocations, live_allocations)
TD_COUNTER(td_executed_copies, td_executed_copies_count)
