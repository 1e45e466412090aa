/* fake_cudart.c - a stand-in for the CUDA runtime (libcudart) that runs on the host, so the
 * host side of tensorlib._C_cuda (its allocator and statistics, streams, events, pinned memory,
 * copies, DLPack synchronisation, error paths) executes on machines without a GPU.
 *
 * tests/_fake_cudart.py compiles this file against the toolkit's own headers (so every type,
 * enum value and signature is the real one) into a library named like the real one
 * (libcudart.so.N, every symbol in the version node of that name) and runs Python with its
 * directory first in LD_LIBRARY_PATH: the module's RUNPATH comes after LD_LIBRARY_PATH, so the
 * module binds to this file instead of the toolkit's library.
 *
 * "Device memory" is host memory, but the fake keeps a registry of device allocations and
 * checks what the real runtime would refuse: a copy whose device side is not inside a live
 * allocation of that device or whose host side is, a memset out of bounds, a free of an
 * unknown pointer, use of a destroyed stream or event. Kernel launches fail with
 * cudaErrorNoKernelImageForDevice (the device code cannot run here); the launch count is
 * readable for tests (tl_fake_cudart_launches).
 *
 * Device memory is guarded: its pages are mapped PROT_NONE and opened only while the fake
 * itself copies or sets them, so host code that reads or writes device memory directly (a CPU
 * kernel handed a CUDA tensor) dies with SIGSEGV instead of computing a plausible answer.
 *
 * Environment: TL_FAKE_CUDA_DEVICES (default 1; 0: "no CUDA-capable device"; -1: no driver),
 * TL_FAKE_CUDA_MEMORY (bytes per device, default 1 GiB: cudaMalloc past it fails with
 * cudaErrorMemoryAllocation), TL_FAKE_CUDA_GUARD=0 (device memory readable by the host). */
#include <cuda_runtime_api.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static __thread int current_device;
static __thread cudaError_t last_error;

static cudaError_t fail(cudaError_t e)
{
    if (e != cudaSuccess) last_error = e;
    return e;
}

static int num_devices(void)
{
    const char *s = getenv("TL_FAKE_CUDA_DEVICES");
    return s ? atoi(s) : 1;
}

static size_t device_memory(void)
{
    const char *s = getenv("TL_FAKE_CUDA_MEMORY");
    return s ? (size_t)strtoull(s, NULL, 10) : ((size_t)1 << 30);
}

/* ---- registries: device allocations, pinned allocations, streams, events ---- */

typedef struct block {
    char *ptr;
    size_t size;
    int device;  /* -1: pinned host memory */
    struct block *next;
} block;
static block *blocks;
static size_t in_use[64];
static long launches, host_allocs;

static int guarded(void)
{
    const char *s = getenv("TL_FAKE_CUDA_GUARD");
    return !s || strcmp(s, "0") != 0;
}

static size_t page_round(size_t n)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    return n ? (n + pg - 1) / pg * pg : pg;
}

/* Opens (or closes again) the device blocks touching [p, p + n) to the host. */
static void open_device_range(const void *p, size_t n, int open)
{
    for (block *b = blocks; b; b = b->next)
        if (b->device >= 0 && (const char *)p < b->ptr + b->size && (const char *)p + n > b->ptr)
            mprotect(b->ptr, page_round(b->size), open ? PROT_READ | PROT_WRITE : PROT_NONE);
}

static block *find_any_device_block(const void *p)
{
    for (block *b = blocks; b; b = b->next)
        if (b->device >= 0 && (const char *)p >= b->ptr && (const char *)p < b->ptr + b->size) return b;
    return NULL;
}

typedef struct handle {
    int kind;  /* 1 stream, 2 event */
    int device;
    int priority;
    unsigned flags;
    int recorded;
    double time_ms;
    struct handle *next;
} handle;
static handle *handles;

static int live_handle(const void *h, int kind)
{
    for (handle *x = handles; x; x = x->next)
        if ((const void *)x == h && x->kind == kind) return 1;
    return 0;
}

static int valid_stream(cudaStream_t s)
{
    return s == 0 || s == cudaStreamLegacy || s == cudaStreamPerThread || live_handle(s, 1);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---- test hooks ---- */

EXPORT long tl_fake_cudart_launches(void) { return launches; }
EXPORT long tl_fake_cudart_host_allocs(void) { return host_allocs; }
EXPORT int tl_fake_cudart_host_blocks(void)
{
    int n = 0;
    for (block *b = blocks; b; b = b->next) n += b->device < 0;
    return n;
}
EXPORT size_t tl_fake_cudart_in_use(int device) { return device >= 0 && device < 64 ? in_use[device] : 0; }
EXPORT int tl_fake_cudart_live_handles(void)
{
    int n = 0;
    for (handle *x = handles; x; x = x->next) n++;
    return n;
}

/* For the fake cuBLAS (fake_cublas.c), which links this library: whether [p, p + n) lies inside
 * one live allocation of device dev; opening (or closing again) the device blocks it touches to
 * the host; whether s is a stream handle the runtime would take. */
EXPORT int tl_fake_cudart_device_range(const void *p, size_t n, int dev)
{
    pthread_mutex_lock(&lock);
    block *b = find_any_device_block(p);
    int ok = b && b->device == dev && (const char *)p + n <= b->ptr + b->size;
    pthread_mutex_unlock(&lock);
    return ok;
}

EXPORT void tl_fake_cudart_open(const void *p, size_t n, int open)
{
    if (!guarded()) return;
    pthread_mutex_lock(&lock);
    open_device_range(p, n, open);
    pthread_mutex_unlock(&lock);
}

EXPORT int tl_fake_cudart_stream_ok(cudaStream_t s)
{
    pthread_mutex_lock(&lock);
    int ok = valid_stream(s);
    pthread_mutex_unlock(&lock);
    return ok;
}

/* ---- devices ---- */

EXPORT cudaError_t cudaGetDeviceCount(int *count)
{
    int n = num_devices();
    *count = n > 0 ? n : 0;
    if (n < 0) return fail(cudaErrorInsufficientDriver);
    return n == 0 ? fail(cudaErrorNoDevice) : cudaSuccess;
}

EXPORT cudaError_t cudaGetDevice(int *device)
{
    if (num_devices() <= 0) return fail(cudaErrorNoDevice);
    *device = current_device;
    return cudaSuccess;
}

EXPORT cudaError_t cudaSetDevice(int device)
{
    if (device < 0 || device >= num_devices()) return fail(cudaErrorInvalidDevice);
    current_device = device;
    return cudaSuccess;
}

EXPORT cudaError_t cudaDeviceSynchronize(void) { return num_devices() > 0 ? cudaSuccess : fail(cudaErrorNoDevice); }

EXPORT cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    if (device < 0 || device >= num_devices()) return fail(cudaErrorInvalidDevice);
    memset(prop, 0, sizeof *prop);
    snprintf(prop->name, sizeof prop->name, "tensorlib fake CUDA device %d", device);
    prop->totalGlobalMem = device_memory();
    prop->major = 9;
    prop->minor = 0;
    prop->multiProcessorCount = 132;
    prop->warpSize = 32;
    prop->maxThreadsPerBlock = 1024;
    return cudaSuccess;
}

/* the attributes the module asks for (scan.cu: the multiprocessor count), as the properties above */
EXPORT cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    if (device < 0 || device >= num_devices()) return fail(cudaErrorInvalidDevice);
    switch (attr) {
    case cudaDevAttrMultiProcessorCount: *value = 132; return cudaSuccess;
    case cudaDevAttrComputeCapabilityMajor: *value = 9; return cudaSuccess;
    case cudaDevAttrComputeCapabilityMinor: *value = 0; return cudaSuccess;
    case cudaDevAttrWarpSize: *value = 32; return cudaSuccess;
    case cudaDevAttrMaxThreadsPerBlock: *value = 1024; return cudaSuccess;
    default: return fail(cudaErrorInvalidValue);
    }
}

EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    if (least) *least = 0;
    if (greatest) *greatest = -5;
    return cudaSuccess;
}

EXPORT cudaError_t cudaGetLastError(void)
{
    cudaError_t e = last_error;
    last_error = cudaSuccess;
    return e;
}

EXPORT cudaError_t cudaPeekAtLastError(void) { return last_error; }

EXPORT const char *cudaGetErrorString(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInsufficientDriver: return "CUDA driver version is insufficient for CUDA runtime version";
    case cudaErrorNoKernelImageForDevice: return "no kernel image is available for execution on the device";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    default: return "unknown error (tensorlib fake cudart)";
    }
}

EXPORT const char *cudaGetErrorName(cudaError_t e)
{
    (void)e;
    return "cudaError (tensorlib fake cudart)";
}

/* ---- memory ---- */

EXPORT cudaError_t cudaMalloc(void **p, size_t n)
{
    *p = NULL;
    int dev = current_device;
    if (num_devices() <= 0) return fail(cudaErrorNoDevice);
    pthread_mutex_lock(&lock);
    if (in_use[dev] + n > device_memory()) {
        pthread_mutex_unlock(&lock);
        return fail(cudaErrorMemoryAllocation);
    }
    block *b = malloc(sizeof *b);
    b->ptr = mmap(NULL, page_round(n), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (b->ptr == MAP_FAILED) {
        free(b);
        pthread_mutex_unlock(&lock);
        return fail(cudaErrorMemoryAllocation);
    }
    b->size = n;
    b->device = dev;
    b->next = blocks;
    blocks = b;
    in_use[dev] += n;
    memset(b->ptr, 0xA5, n);  /* garbage, as fresh device memory */
    if (guarded()) mprotect(b->ptr, page_round(n), PROT_NONE);
    *p = b->ptr;
    pthread_mutex_unlock(&lock);
    return cudaSuccess;
}

static cudaError_t free_block(void *p, int device_kind)
{
    if (!p) return cudaSuccess;
    pthread_mutex_lock(&lock);
    for (block **pp = &blocks; *pp; pp = &(*pp)->next) {
        block *b = *pp;
        if (b->ptr == p && ((device_kind && b->device >= 0) || (!device_kind && b->device < 0))) {
            *pp = b->next;
            if (b->device >= 0) {
                in_use[b->device] -= b->size;
                munmap(b->ptr, page_round(b->size));
            } else {
                free(b->ptr);
            }
            free(b);
            pthread_mutex_unlock(&lock);
            return cudaSuccess;
        }
    }
    pthread_mutex_unlock(&lock);
    return fail(cudaErrorInvalidValue);
}

EXPORT cudaError_t cudaFree(void *p) { return free_block(p, 1); }

EXPORT cudaError_t cudaHostAlloc(void **p, size_t n, unsigned int flags)
{
    (void)flags;
    block *b = malloc(sizeof *b);
    b->ptr = aligned_alloc(64, n ? (n + 63) / 64 * 64 : 64);
    b->size = n;
    b->device = -1;
    pthread_mutex_lock(&lock);
    host_allocs++;
    b->next = blocks;
    blocks = b;
    pthread_mutex_unlock(&lock);
    *p = b->ptr;
    return cudaSuccess;
}

EXPORT cudaError_t cudaMallocHost(void **p, size_t n) { return cudaHostAlloc(p, n, 0); }
EXPORT cudaError_t cudaFreeHost(void *p) { return free_block(p, 0); }

/* A device side must lie inside one live allocation (of any device: peer copies are fine);
 * a host side must not touch one. */
static cudaError_t check_side(const void *p, size_t n, int on_device)
{
    pthread_mutex_lock(&lock);
    int ok;
    if (on_device) {
        ok = 0;
        for (block *b = blocks; b && !ok; b = b->next)
            ok = b->device >= 0 && (const char *)p >= b->ptr && (const char *)p + n <= b->ptr + b->size;
    } else {
        ok = find_any_device_block(p) == NULL && (n == 0 || find_any_device_block((const char *)p + n - 1) == NULL);
    }
    pthread_mutex_unlock(&lock);
    return ok ? cudaSuccess : cudaErrorInvalidValue;
}

static cudaError_t do_copy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind)
{
    if (n == 0) return cudaSuccess;
    int dd = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    int sd = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if (kind == cudaMemcpyDefault) return fail(cudaErrorInvalidValue);  /* tensorlib always names the kind */
    cudaError_t e = check_side(dst, n, dd);
    if (e == cudaSuccess) e = check_side(src, n, sd);
    if (e != cudaSuccess) return fail(e);
    pthread_mutex_lock(&lock);
    if (guarded()) {
        if (dd) open_device_range(dst, n, 1);
        if (sd) open_device_range(src, n, 1);
    }
    memmove(dst, src, n);
    if (guarded()) {
        if (dd) open_device_range(dst, n, 0);
        if (sd) open_device_range(src, n, 0);
    }
    pthread_mutex_unlock(&lock);
    return cudaSuccess;
}

EXPORT cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind)
{
    return do_copy(dst, src, n, kind);
}

EXPORT cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind, cudaStream_t s)
{
    pthread_mutex_lock(&lock);
    int ok = valid_stream(s);
    pthread_mutex_unlock(&lock);
    if (!ok) return fail(cudaErrorInvalidResourceHandle);
    return do_copy(dst, src, n, kind);  /* done at once: a valid schedule of an asynchronous copy */
}

/* Row by row: `height` copies of `width` bytes, pitches apart (each row checked as a copy). */
EXPORT cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                     size_t height, enum cudaMemcpyKind kind, cudaStream_t s)
{
    if (width > dpitch || width > spitch) return fail(cudaErrorInvalidPitchValue);
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = cudaMemcpyAsync((char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind, s);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

EXPORT cudaError_t cudaMemset(void *dst, int value, size_t n)
{
    if (n == 0) return cudaSuccess;
    cudaError_t e = check_side(dst, n, 1);
    if (e != cudaSuccess) return fail(e);
    pthread_mutex_lock(&lock);
    if (guarded()) open_device_range(dst, n, 1);
    memset(dst, value, n);
    if (guarded()) open_device_range(dst, n, 0);
    pthread_mutex_unlock(&lock);
    return cudaSuccess;
}

EXPORT cudaError_t cudaMemsetAsync(void *dst, int value, size_t n, cudaStream_t s)
{
    (void)s;
    return cudaMemset(dst, value, n);
}

/* ---- streams and events ---- */

static handle *new_handle(int kind)
{
    handle *h = calloc(1, sizeof *h);
    h->kind = kind;
    h->device = current_device;
    pthread_mutex_lock(&lock);
    h->next = handles;
    handles = h;
    pthread_mutex_unlock(&lock);
    return h;
}

static cudaError_t destroy_handle(void *p, int kind)
{
    pthread_mutex_lock(&lock);
    for (handle **pp = &handles; *pp; pp = &(*pp)->next)
        if ((void *)*pp == p && (*pp)->kind == kind) {
            handle *h = *pp;
            *pp = h->next;
            free(h);
            pthread_mutex_unlock(&lock);
            return cudaSuccess;
        }
    pthread_mutex_unlock(&lock);
    return fail(cudaErrorInvalidResourceHandle);
}

EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned int flags, int priority)
{
    if (num_devices() <= 0) return fail(cudaErrorNoDevice);
    handle *h = new_handle(1);
    h->flags = flags;
    h->priority = priority;
    *s = (cudaStream_t)h;
    return cudaSuccess;
}

EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int flags)
{
    return cudaStreamCreateWithPriority(s, flags, 0);
}

EXPORT cudaError_t cudaStreamCreate(cudaStream_t *s) { return cudaStreamCreateWithPriority(s, 0, 0); }
EXPORT cudaError_t cudaStreamDestroy(cudaStream_t s) { return destroy_handle(s, 1); }

static cudaError_t stream_ok(cudaStream_t s)
{
    pthread_mutex_lock(&lock);
    int ok = valid_stream(s);
    pthread_mutex_unlock(&lock);
    return ok ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}

EXPORT cudaError_t cudaStreamQuery(cudaStream_t s) { return stream_ok(s); }
EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t s) { return stream_ok(s); }

EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned int flags)
{
    (void)flags;
    if (stream_ok(s) != cudaSuccess) return cudaErrorInvalidResourceHandle;
    pthread_mutex_lock(&lock);
    int ok = live_handle(e, 2);
    pthread_mutex_unlock(&lock);
    return ok ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}

EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned int flags)
{
    if (num_devices() <= 0) return fail(cudaErrorNoDevice);
    handle *h = new_handle(2);
    h->flags = flags;
    *e = (cudaEvent_t)h;
    return cudaSuccess;
}

EXPORT cudaError_t cudaEventCreate(cudaEvent_t *e) { return cudaEventCreateWithFlags(e, 0); }
EXPORT cudaError_t cudaEventDestroy(cudaEvent_t e) { return destroy_handle(e, 2); }

EXPORT cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s)
{
    if (stream_ok(s) != cudaSuccess) return cudaErrorInvalidResourceHandle;
    pthread_mutex_lock(&lock);
    int ok = live_handle(e, 2);
    if (ok) {
        ((handle *)e)->recorded = 1;
        ((handle *)e)->time_ms = now_ms();
    }
    pthread_mutex_unlock(&lock);
    return ok ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}

static cudaError_t event_ok(cudaEvent_t e)
{
    pthread_mutex_lock(&lock);
    int ok = live_handle(e, 2);
    pthread_mutex_unlock(&lock);
    return ok ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}

EXPORT cudaError_t cudaEventQuery(cudaEvent_t e) { return event_ok(e); }
EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t e) { return event_ok(e); }

EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
    if (event_ok(a) != cudaSuccess || event_ok(b) != cudaSuccess) return cudaErrorInvalidResourceHandle;
    handle *x = (handle *)a, *y = (handle *)b;
    if ((x->flags | y->flags) & cudaEventDisableTiming) return fail(cudaErrorInvalidResourceHandle);
    if (!x->recorded || !y->recorded) return fail(cudaErrorInvalidResourceHandle);
    *ms = (float)(y->time_ms - x->time_ms);
    return cudaSuccess;
}

/* ---- kernels: registered, never run ---- */

EXPORT void **__cudaRegisterFatBinary(void *fat)
{
    static void *handle_slot;
    handle_slot = fat;
    return &handle_slot;
}

EXPORT void __cudaRegisterFatBinaryEnd(void **h) { (void)h; }
EXPORT void __cudaUnregisterFatBinary(void **h) { (void)h; }

EXPORT void __cudaRegisterFunction(void **h, const char *host_fun, char *device_fun, const char *device_name,
                                   int thread_limit, uint3 *tid, uint3 *bid, dim3 *bdim, dim3 *gdim, int *wsize)
{
    (void)h, (void)host_fun, (void)device_fun, (void)device_name, (void)thread_limit;
    (void)tid, (void)bid, (void)bdim, (void)gdim, (void)wsize;
}

EXPORT void __cudaRegisterVar(void **h, char *host_var, char *device_address, const char *device_name, int ext,
                              size_t size, int constant, int global)
{
    (void)h, (void)host_var, (void)device_address, (void)device_name, (void)ext, (void)size, (void)constant,
        (void)global;
}

static __thread dim3 cfg_grid, cfg_block;
static __thread size_t cfg_shared;
static __thread void *cfg_stream;

EXPORT unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, struct CUstream_st *stream)
{
    cfg_grid = grid;
    cfg_block = block;
    cfg_shared = shared;
    cfg_stream = stream;
    return 0;
}

EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared, void *stream)
{
    *grid = cfg_grid;
    *block = cfg_block;
    *shared = cfg_shared;
    *(void **)stream = cfg_stream;
    return cudaSuccess;
}

EXPORT cudaError_t __cudaGetKernel(cudaKernel_t *k, const void *fun)
{
    *k = (cudaKernel_t)fun;
    return cudaSuccess;
}

static cudaError_t launch(dim3 grid, dim3 block, cudaStream_t s)
{
    if (grid.x == 0 || block.x == 0 || block.x * block.y * block.z > 1024) return fail(cudaErrorInvalidValue);
    if (stream_ok(s) != cudaSuccess) return cudaErrorInvalidResourceHandle;
    pthread_mutex_lock(&lock);
    launches++;
    pthread_mutex_unlock(&lock);
    return fail(cudaErrorNoKernelImageForDevice);
}

EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t k, dim3 grid, dim3 block, void **args, size_t shared,
                                      cudaStream_t s)
{
    (void)k, (void)args, (void)shared;
    return launch(grid, block, s);
}

EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t k, dim3 grid, dim3 block, void **args, size_t shared,
                                           cudaStream_t s)
{
    return __cudaLaunchKernel(k, grid, block, args, shared, s);
}

EXPORT cudaError_t cudaLaunchKernel(const void *f, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t s)
{
    (void)f, (void)args, (void)shared;
    return launch(grid, block, s);
}

/* A kernel's attributes and occupancy (CUB's dispatch asks before launching): the device code
 * cannot run here, so the answer is the real runtime's for a missing kernel image. */
EXPORT cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *f)
{
    (void)attr, (void)f;
    return fail(cudaErrorNoKernelImageForDevice);
}

EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, const void *f, int block,
                                                                         size_t shared, unsigned flags)
{
    (void)n, (void)f, (void)block, (void)shared, (void)flags;
    return fail(cudaErrorNoKernelImageForDevice);
}
