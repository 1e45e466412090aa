// sort.cu - the CUDA sort entry (tl_backend_sort_call, backend/backend.h): every row's keys
// (kernels/hd_sort.h, inverted for a descending sort) and positions, CUB's segmented radix sort
// of the (key, position) pairs (stable, so equal elements keep their order: the CPU's sort),
// then the values gathered by the sorted positions (or, for kthvalue/median/nanmedian, the one
// element each row selects). Temporaries come from the caching
// allocator, freed stream-ordered. Never run on a GPU so far (docs/cuda.md).
#include <cub/device/device_segmented_radix_sort.cuh>

#include "cuda/cuda_backend.h"
#include "kernels/hd_sort.h"

namespace {

constexpr int kSortThreads = 256;

unsigned sort_blocks(int64_t n)
{
    int64_t b = (n + kSortThreads - 1) / kSortThreads;
    return (unsigned)(b < 65535 * 8 ? b : 65535 * 8);
}

__global__ void make_keys(const char *in, int dt, int isz, int desc, int64_t len, int64_t n, uint64_t *keys,
                          int64_t *pos)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        uint64_t k = tl_hd_sort_key(in + i * isz, dt);
        keys[i] = desc ? ~k : k;
        pos[i] = i % len;
    }
}

__global__ void make_offsets(int64_t *off, int64_t rows, int64_t len)
{
    for (int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; r <= rows; r += (int64_t)gridDim.x * blockDim.x)
        off[r] = r * len;
}

__global__ void gather_sorted(const char *in, int isz, int64_t len, int64_t n, const int64_t *pos, char *values,
                              int64_t *indices)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        int64_t row = i / len, p = pos[i];
        memcpy(values + i * isz, in + (row * len + p) * isz, (size_t)isz);
        indices[i] = p;
    }
}

// kthvalue / median / nanmedian: one thread per row picks its position in the sorted keys.
__global__ void gather_selected(const char *in, int dt, int isz, int select, int64_t k, int64_t len, int64_t rows,
                                const uint64_t *keys, const int64_t *pos, char *values, int64_t *indices)
{
    for (int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += (int64_t)gridDim.x * blockDim.x) {
        int64_t at = r * len + tl_hd_select_pos(select, k, keys + r * len, len, dt), p = pos[at];
        memcpy(values + r * isz, in + (r * len + p) * isz, (size_t)isz);
        indices[r] = p;
    }
}

}  // namespace

int tlc_sort(const tl_backend_sort_call *c)
{
    if (c->size != sizeof *c || c->nrows < 0 || c->len < 0 || c->dtype < 0 || c->dtype >= TL_NUM_BDTS ||
        c->select < TL_BSS_ALL || c->select > TL_BSS_MODE || (c->select == TL_BSS_KTH && (c->k < 0 || c->k >= c->len)))
        return tlc_error(TL_ERR_RUNTIME, cudaSuccess, "malformed sort call (tensorlib and _C_cuda differ?)");
    int64_t n = c->nrows * c->len;
    if (n == 0) return 0;
    if (n > INT32_MAX || c->nrows > INT32_MAX)
        return tlc_error(TL_ERR_NOTIMPL, cudaSuccess, "sort of more than 2^31 - 1 elements on CUDA is not supported yet");
    int dev = c->device_index;
    DeviceGuard guard(dev);
    cudaStream_t s = tlc_current_stream(dev);
    int isz = tl_hd_dt_size(c->dtype);
    size_t pairs = (size_t)n * 8, offs = (size_t)(c->nrows + 1) * 8, temp = 0;
    cudaError_t e = cub::DeviceSegmentedRadixSort::SortPairs(
        nullptr, temp, (const uint64_t *)nullptr, (uint64_t *)nullptr, (const int64_t *)nullptr, (int64_t *)nullptr,
        (int)n, (int)c->nrows, (const int64_t *)nullptr, (const int64_t *)nullptr, 0, 64, s);
    if (e != cudaSuccess) return tlc_error(TL_ERR_RUNTIME, e, "sort: CUB's temporary size query failed on cuda:%d", dev);
    // one block: keys in, keys out, positions in, positions out, offsets, CUB's temporary
    size_t total = 4 * pairs + offs + temp;
    char *blk = (char *)tlc_alloc(total, dev);
    if (!blk) return -1;
    uint64_t *kin = (uint64_t *)blk, *kout = (uint64_t *)(blk + pairs);
    int64_t *pin = (int64_t *)(blk + 2 * pairs), *pout = (int64_t *)(blk + 3 * pairs), *off = (int64_t *)(blk + 4 * pairs);
    void *tmp = blk + 4 * pairs + offs;
    int desc = c->select == TL_BSS_ALL && c->descending;
    make_keys<<<sort_blocks(n), kSortThreads, 0, s>>>(c->in, c->dtype, isz, desc, c->len, n, kin, pin);
    make_offsets<<<sort_blocks(c->nrows + 1), kSortThreads, 0, s>>>(off, c->nrows, c->len);
    e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cub::DeviceSegmentedRadixSort::SortPairs(tmp, temp, kin, kout, pin, pout, (int)n, (int)c->nrows, off, off + 1,
                                                     0, 64, s);
    if (e == cudaSuccess) {
        if (c->select == TL_BSS_ALL)
            gather_sorted<<<sort_blocks(n), kSortThreads, 0, s>>>(c->in, isz, c->len, n, pout, c->values, c->indices);
        else
            gather_selected<<<sort_blocks(c->nrows), kSortThreads, 0, s>>>(c->in, c->dtype, isz, c->select, c->k, c->len,
                                                                           c->nrows, kout, pout, c->values, c->indices);
        e = cudaGetLastError();
    }
    tlc_free(blk, total, dev);  // stream-ordered: reused only by later work on this stream
    return e == cudaSuccess ? 0 : tlc_error(TL_ERR_RUNTIME, e, "sort kernels failed on cuda:%d", dev);
}
