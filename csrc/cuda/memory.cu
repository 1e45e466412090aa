// memory.cu - the CUDA backend's device memory: a per-device caching allocator (freed
// blocks are kept in a free list keyed by the stream they were allocated on and their
// rounded size, and reused only by allocations on that stream, so work still queued on one
// stream never sees its memory handed to another; empty_cache hands them back; a block
// used on other streams too (record_stream) waits for their work before it is reused), its
// statistics, pinned host memory (cached too), and the byte copies between host and device.
#include "cuda/cuda_backend.h"

#include <string.h>

#include <algorithm>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

struct Pending {  // a freed block waiting for the work of the streams recorded on it
    void *block;
    size_t size;
    cudaStream_t stream;                // the stream it was allocated on
    std::vector<cudaEvent_t> events;    // one per recorded stream, recorded at the free
};

struct DeviceCache {
    std::multimap<std::pair<cudaStream_t, size_t>, void *> free_blocks;  // (stream, rounded size) -> block
    std::unordered_map<void *, cudaStream_t> live;                       // block in use -> its stream
    std::unordered_map<void *, std::vector<cudaStream_t>> recorded;      // block in use -> other streams using it
    std::vector<Pending> pending;
    size_t allocated = 0, max_allocated = 0, reserved = 0, max_reserved = 0;
};

std::vector<DeviceCache> caches;

size_t round_size(size_t n) { return n < 512 ? 512 : (n + 511) / 512 * 512; }

DeviceCache *cache_of(int dev)
{
    if (dev < 0) dev = tlc_current_device();
    if (dev < 0) return nullptr;
    if ((size_t)dev >= caches.size()) caches.resize((size_t)dev + 1);
    return &caches[(size_t)dev];
}

// Records an event on each stream (the work queued there so far), for a block freed while
// those streams may still use it; waits for a stream instead when no event can be made.
void record_events(const std::vector<cudaStream_t> &streams, std::vector<cudaEvent_t> *events)
{
    for (cudaStream_t s : streams) {
        cudaEvent_t e;
        if (cudaEventCreateWithFlags(&e, cudaEventDisableTiming) != cudaSuccess) {
            cudaGetLastError();
            cudaStreamSynchronize(s);
            continue;
        }
        cudaEventRecord(e, s);
        events->push_back(e);
    }
}

// True when every event has completed (waiting for them when `wait`); they are destroyed then.
bool events_done(std::vector<cudaEvent_t> *events, bool wait)
{
    for (cudaEvent_t e : *events) {
        cudaError_t r = wait ? cudaEventSynchronize(e) : cudaEventQuery(e);
        if (r == cudaErrorNotReady) return false;
        if (r != cudaSuccess) cudaGetLastError();  // a failed stream leaves nothing to wait for
    }
    for (cudaEvent_t e : *events) cudaEventDestroy(e);
    events->clear();
    return true;
}

// Moves the pending blocks whose streams are done (all when `wait`) to the free list.
void collect_pending(DeviceCache *c, bool wait)
{
    size_t kept = 0;
    for (Pending &p : c->pending) {
        if (!events_done(&p.events, wait)) {
            c->pending[kept++] = std::move(p);
            continue;
        }
        c->free_blocks.emplace(std::make_pair(p.stream, p.size), p.block);
    }
    c->pending.resize(kept);
}

}  // namespace

void *tlc_alloc(size_t nbytes, int dev)
{
    DeviceCache *c = cache_of(dev);
    if (!c) return nullptr;
    if (!c->pending.empty()) collect_pending(c, false);
    size_t n = round_size(nbytes);
    void *p = nullptr;
    cudaStream_t s = tlc_current_stream(dev);
    auto it = c->free_blocks.find({s, n});
    if (it != c->free_blocks.end()) {
        p = it->second;
        c->free_blocks.erase(it);
    } else {
        DeviceGuard g(dev);
        cudaError_t e = cudaMalloc(&p, n);
        if (e == cudaErrorMemoryAllocation) {  // give the cache back and try once more
            cudaGetLastError();
            tlc_empty_cache();
            e = cudaMalloc(&p, n);
        }
        if (e != cudaSuccess) {
            tlc_error(e == cudaErrorMemoryAllocation ? TL_ERR_MEMORY : TL_ERR_RUNTIME, e,
                      "CUDA out of memory. Tried to allocate %zu bytes", nbytes);
            return nullptr;
        }
        c->reserved += n;
        if (c->reserved > c->max_reserved) c->max_reserved = c->reserved;
    }
    c->allocated += n;
    if (c->allocated > c->max_allocated) c->max_allocated = c->allocated;
    c->live[p] = s;
    return p;
}

void tlc_free(void *p, size_t nbytes, int dev)
{
    DeviceCache *c = cache_of(dev);
    if (!p || !c) return;
    size_t n = round_size(nbytes);
    c->allocated -= n;
    auto it = c->live.find(p);
    cudaStream_t s = it != c->live.end() ? it->second : nullptr;
    if (it != c->live.end()) c->live.erase(it);
    auto rec = c->recorded.find(p);
    if (rec != c->recorded.end()) {  // reused once the work queued on those streams by now is done
        Pending pend{p, n, s, {}};
        DeviceGuard g(dev);
        record_events(rec->second, &pend.events);
        c->recorded.erase(rec);
        c->pending.push_back(std::move(pend));
        return;
    }
    c->free_blocks.emplace(std::make_pair(s, n), p);
}

int tlc_record_stream(void *p, int dev, uintptr_t stream)
{
    DeviceCache *c = cache_of(dev);
    if (!c) return -1;
    auto it = c->live.find(p);
    cudaStream_t s = reinterpret_cast<cudaStream_t>(stream);
    if (it == c->live.end() || it->second == s) return 0;  // not this allocator's, or its own stream
    std::vector<cudaStream_t> &v = c->recorded[p];
    for (cudaStream_t o : v)
        if (o == s) return 0;
    v.push_back(s);
    return 0;
}

// Pinned host memory, cached as torch's host allocator does: cudaHostAlloc and cudaFreeHost
// are slow (page locking; cudaFreeHost also waits for the whole device), so freed blocks are
// kept by size (powers of two from 512 bytes) and handed out again. A block an asynchronous
// copy used may still be read or written by the device after it is freed: the copy notes its
// stream on the block, the free records an event on each such stream, and the block is
// reused only after those events completed.
namespace {

struct HostBlock {
    size_t size;                        // rounded size
    bool in_use = false;
    std::vector<cudaStream_t> streams;  // streams of the asynchronous copies since allocation
    std::vector<cudaEvent_t> events;    // recorded at the free, on those streams
};

std::map<char *, HostBlock> host_blocks;            // every cached or live pinned block, by address
std::multimap<size_t, char *> host_free;            // rounded size -> block ready for reuse
std::vector<char *> host_pending;                   // freed blocks waiting for their events

size_t host_round(size_t n)
{
    size_t r = 512;
    while (r < n) r <<= 1;
    return r;
}

void host_collect(bool wait)
{
    size_t kept = 0;
    for (char *p : host_pending) {
        HostBlock &b = host_blocks[p];
        if (!events_done(&b.events, wait)) {
            host_pending[kept++] = p;
            continue;
        }
        host_free.emplace(b.size, p);
    }
    host_pending.resize(kept);
}

// The live pinned block holding [p, p + n), or nullptr.
HostBlock *host_block_of(const void *p, size_t n)
{
    auto it = host_blocks.upper_bound((char *)p);
    if (it == host_blocks.begin()) return nullptr;
    --it;
    if (!it->second.in_use || (const char *)p + n > it->first + it->second.size) return nullptr;
    return &it->second;
}

}  // namespace

void *tlc_host_alloc(size_t nbytes)
{
    if (!host_pending.empty()) host_collect(false);
    size_t n = host_round(nbytes);
    auto it = host_free.find(n);
    char *p = nullptr;
    if (it != host_free.end()) {
        p = it->second;
        host_free.erase(it);
    } else {
        cudaError_t e = cudaHostAlloc((void **)&p, n, cudaHostAllocDefault);
        if (e == cudaErrorMemoryAllocation) {  // give the cached blocks back and try once more
            cudaGetLastError();
            tlc_host_empty_cache();
            e = cudaHostAlloc((void **)&p, n, cudaHostAllocDefault);
        }
        if (e != cudaSuccess) {
            tlc_error(e == cudaErrorMemoryAllocation ? TL_ERR_MEMORY : TL_ERR_RUNTIME, e,
                      "cudaHostAlloc of %zu bytes (pinned memory) failed", nbytes);
            return nullptr;
        }
        host_blocks[p].size = n;
    }
    host_blocks[p].in_use = true;
    return p;
}

void tlc_host_free(void *ptr)
{
    auto it = host_blocks.find((char *)ptr);
    if (it == host_blocks.end() || !it->second.in_use) return;
    HostBlock &b = it->second;
    b.in_use = false;
    if (b.streams.empty()) {
        host_free.emplace(b.size, it->first);
        return;
    }
    record_events(b.streams, &b.events);
    b.streams.clear();
    host_pending.push_back(it->first);
}

void tlc_host_empty_cache(void)
{
    host_collect(true);
    for (auto &kv : host_free) {
        cudaFreeHost(kv.second);
        host_blocks.erase(kv.second);
    }
    host_free.clear();
}

void tlc_empty_cache(void)
{
    tlc_host_empty_cache();
    for (size_t d = 0; d < caches.size(); d++) {
        DeviceGuard g((int)d);
        collect_pending(&caches[d], true);
        for (auto &kv : caches[d].free_blocks) {
            cudaFree(kv.second);
            caches[d].reserved -= kv.first.second;
        }
        caches[d].free_blocks.clear();
    }
}

int tlc_memory_stat(const char *name, int dev, size_t *out)
{
    DeviceCache *c = cache_of(dev);
    if (!c) return -1;
    if (!strcmp(name, "allocated")) *out = c->allocated;
    else if (!strcmp(name, "max_allocated")) *out = c->max_allocated;
    else if (!strcmp(name, "reserved")) *out = c->reserved;
    else if (!strcmp(name, "max_reserved")) *out = c->max_reserved;
    else return -1;
    return 0;
}

void tlc_reset_peak(int dev)
{
    if (DeviceCache *c = cache_of(dev)) {
        c->max_allocated = c->allocated;
        c->max_reserved = c->reserved;
    }
}

int tlc_copy(void *dst, tl_device dd, const void *src, tl_device sd, size_t nbytes)
{
    if (nbytes == 0) return 0;
    bool dcuda = dd.type == TL_DEV_CUDA, scuda = sd.type == TL_DEV_CUDA;
    cudaMemcpyKind kind = dcuda ? (scuda ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                                : (scuda ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
    DeviceGuard g(scuda ? sd.index : dd.index);
    cudaError_t e = cudaMemcpy(dst, src, nbytes, kind);  // synchronous: host buffers may be pageable
    return e == cudaSuccess ? 0 : tlc_error(TL_ERR_RUNTIME, e, "copy of %zu bytes failed", nbytes);
}

int tlc_copy_async(void *dst, tl_device dd, const void *src, tl_device sd, size_t nbytes)
{
    if (nbytes == 0) return 0;
    bool dcuda = dd.type == TL_DEV_CUDA, scuda = sd.type == TL_DEV_CUDA;
    cudaMemcpyKind kind = dcuda ? (scuda ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                                : (scuda ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
    int dev = scuda ? sd.index : dd.index;
    DeviceGuard g(dev);
    cudaStream_t stream = tlc_current_stream(dev);
    // the pinned side may be freed before the copy runs: its block waits for this stream
    HostBlock *hb = !dcuda ? host_block_of(dst, nbytes) : !scuda ? host_block_of(src, nbytes) : nullptr;
    if (hb && std::find(hb->streams.begin(), hb->streams.end(), stream) == hb->streams.end())
        hb->streams.push_back(stream);
    cudaError_t e = cudaMemcpyAsync(dst, src, nbytes, kind, stream);
    return e == cudaSuccess ? 0 : tlc_error(TL_ERR_RUNTIME, e, "asynchronous copy of %zu bytes failed", nbytes);
}

int tlc_memset_zero(void *dst, size_t nbytes, int dev)
{
    DeviceGuard g(dev);
    cudaError_t e = cudaMemset(dst, 0, nbytes);
    return e == cudaSuccess ? 0 : tlc_error(TL_ERR_RUNTIME, e, "cudaMemset of %zu bytes failed", nbytes);
}
