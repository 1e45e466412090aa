// scan.cu - the CUDA scan entry (tl_backend_scan_call, backend/backend.h): cumsum, cumprod,
// cummax, cummin along one dim, by one of two paths:
//
// - Long rows, few of them (len >= kLongRow = 2048 and nrows < the device's multiprocessors x
//   kScanThreads, i.e. one thread per row would fill less than one 128-thread block per SM):
//   a device-wide scan by CUB over all nrows * len elements, cub::DeviceScan::InclusiveScan
//   for one row, InclusiveScanByKey with the row number (a transform of a counting iterator) as
//   the key for several. The elements are read and written through iterators over
//   kernels/hd_scan.h's tl_hd_scan_load / tl_hd_scan_store with the call's byte strides, so
//   non-contiguous rows (a step, a transposed tensor) take this path too (uncoalesced then, but
//   spread over the device); the rows' start offsets come from a small kernel. The
//   accumulator (tl_hd_sacc) is the CPU's: integer sums and products in wrapping uint64,
//   float16/bfloat16/float32/float64 in double, complex in double complex, cummax/cummin the
//   value and its position; tl_hd_scan_combine is the associative operator. Integer
//   cumsum/cumprod (wrapping arithmetic is associative) and cummax/cummin (the combine keeps the
//   row function's rule: the last NaN, else the last of equal extremes) give the CPU's bits;
//   float and complex cumsum/cumprod add and multiply in CUB's order (tiles, look-back), so they
//   equal the CPU's within rounding, not bit for bit, and may differ between runs (CUB's
//   look-back order depends on timing), like torch's CUDA scans. tests/hd_scan_tree.c checks
//   load/combine/store in such orders on the host, tests/scan_cub_host.cu these iterators
//   under Thrust's host scans.
// - Otherwise one row per thread running kernels/hd_scan.h's row function (the loop the CPU
//   suite runs through the core's host runner, backend/scan.c), so the values are the CPU's
//   bits (compiled with -fmad=false: no contraction of the complex product), but for a NaN
//   produced by float arithmetic, whose sign/payload may differ (x86 passes an operand's NaN on,
//   the GPU may give its canonical NaN).
//
// CUB's API as in the toolkit's cccl/cub/device/device_scan.cuh (CUB 3.0, CUDA 13): the item
// count is a template parameter (int64_t here: 64-bit unsigned offsets, choose_offset.cuh); a
// first call with d_temp_storage == nullptr sizes the temporary, which comes from the caching
// allocator and is freed stream-ordered; everything runs on tlc_current_stream. Never run on a
// GPU so far (docs/cuda.md).
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/tabulate_output_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "cuda/cuda_backend.h"
#include "kernels/hd_scan.h"

namespace {

constexpr int kScanThreads = 128;
constexpr int64_t kLongRow = 2048;

unsigned grid_for(int64_t n)
{
    int64_t blocks = (n + kScanThreads - 1) / kScanThreads;
    return (unsigned)(blocks < 65535 ? blocks : 65535);
}

// The byte offsets of row r's first element (in, out, indices) from the call's kept dims.
__host__ __device__ void row_start(const tl_backend_scan_call &c, int64_t r, int64_t *oi, int64_t *oo, int64_t *ox)
{
    int64_t q = r;
    *oi = *oo = *ox = 0;
    for (int d = 0; d < c.nkept; d++) {
        int64_t i = q % c.kept_sizes[d];
        q /= c.kept_sizes[d];
        *oi += i * c.kin_strides[d];
        *oo += i * c.kout_strides[d];
        *ox += i * c.kidx_strides[d];
    }
}

__global__ void scan_rows(tl_backend_scan_call c)
{
    for (int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; r < c.nrows; r += (int64_t)gridDim.x * blockDim.x) {
        int64_t oi, oo, ox;
        row_start(c, r, &oi, &oo, &ox);
        tl_hd_scan_row(c.op, c.in + oi, c.in_dtype, c.in_step, c.out + oo, c.out_dtype, c.out_step,
                       c.indices ? c.indices + ox : nullptr, c.idx_step, c.len);
    }
}

__global__ void row_offsets(tl_backend_scan_call c, int64_t *roff)
{
    for (int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; r < c.nrows; r += (int64_t)gridDim.x * blockDim.x)
        row_start(c, r, roff + 3 * r, roff + 3 * r + 1, roff + 3 * r + 2);
}

// e / len: 32-bit division (a few instructions, not 64-bit division's many) where both fit.
__host__ __device__ inline int64_t row_of(int64_t e, int64_t len)
{
    return (((uint64_t)e | (uint64_t)len) >> 32) == 0 ? (int64_t)((uint32_t)e / (uint32_t)len) : e / len;
}

// The long rows of a call, small enough to travel in the iterators: element e (0 <= e <
// nrows * len) is element e % len of row e / len, which starts at roff[3 * row] (in),
// roff[3 * row + 1] (out), roff[3 * row + 2] (indices); roff is null for a single row.
struct LongRows {
    const char *in;
    char *out, *idx;
    const int64_t *roff;
    int64_t len, in_step, out_step, idx_step;
    int op, kind, in_dt, out_dt;
};

struct LoadElem {
    LongRows g;
    __host__ __device__ tl_hd_sacc operator()(int64_t e) const
    {
        int64_t r = g.roff ? row_of(e, g.len) : 0, i = e - r * g.len;
        const char *p = g.in + (g.roff ? g.roff[3 * r] : 0) + i * g.in_step;
        return tl_hd_scan_load(g.op, g.kind, p, g.in_dt, i);
    }
};

struct StoreElem {
    LongRows g;
    __host__ __device__ void operator()(ptrdiff_t e, const tl_hd_sacc &a) const
    {
        int64_t r = g.roff ? row_of((int64_t)e, g.len) : 0, i = (int64_t)e - r * g.len;
        char *o = g.out + (g.roff ? g.roff[3 * r + 1] : 0) + i * g.out_step;
        char *x = g.idx ? g.idx + (g.roff ? g.roff[3 * r + 2] : 0) + i * g.idx_step : nullptr;
        tl_hd_scan_store(g.op, g.kind, a, o, g.out_dt, x);
    }
};

struct RowOf {
    int64_t len;
    __host__ __device__ int64_t operator()(int64_t e) const { return row_of(e, len); }
};

struct Combine {
    int op, kind;
    __host__ __device__ tl_hd_sacc operator()(const tl_hd_sacc &a, const tl_hd_sacc &b) const
    {
        return tl_hd_scan_combine(op, kind, a, b);
    }
};

using Counting = thrust::counting_iterator<int64_t>;
using LoadIt = thrust::transform_iterator<LoadElem, Counting, tl_hd_sacc, tl_hd_sacc>;
using KeyIt = thrust::transform_iterator<RowOf, Counting, int64_t, int64_t>;
using StoreIt = thrust::tabulate_output_iterator<StoreElem>;

// One CUB call: sizes the temporary when temp is null, else scans.
cudaError_t cub_scan(void *temp, size_t &bytes, const LongRows &g, int64_t nrows, cudaStream_t s)
{
    LoadIt in(Counting(0), LoadElem{g});
    StoreIt out(StoreElem{g});
    Combine op{g.op, g.kind};
    int64_t n = nrows * g.len;
    if (nrows == 1) return cub::DeviceScan::InclusiveScan(temp, bytes, in, out, op, n, s);
    KeyIt keys(Counting(0), RowOf{g.len});
    return cub::DeviceScan::InclusiveScanByKey(temp, bytes, keys, in, out, op, n, ::cuda::std::equal_to<>(), s);
}

int scan_long_rows(const tl_backend_scan_call *c, int dev, cudaStream_t s)
{
    LongRows g;
    g.in = c->in;
    g.out = c->out;
    g.idx = c->indices;
    g.roff = nullptr;
    g.len = c->len;
    g.in_step = c->in_step;
    g.out_step = c->out_step;
    g.idx_step = c->idx_step;
    g.op = c->op;
    g.kind = tl_hd_rkind(c->in_dtype);
    g.in_dt = c->in_dtype;
    g.out_dt = c->out_dtype;
    size_t temp = 0;
    cudaError_t e = cub_scan(nullptr, temp, g, c->nrows, s);
    if (e != cudaSuccess) return tlc_error(TL_ERR_RUNTIME, e, "scan: CUB's temporary size query failed on cuda:%d", dev);
    // one block: CUB's temporary, then (several rows) the rows' offsets at a 256-byte boundary
    size_t at = (temp + 255) & ~(size_t)255, total = c->nrows > 1 ? at + (size_t)c->nrows * 3 * 8 : temp;
    if (total == 0) total = 1;
    char *blk = (char *)tlc_alloc(total, dev);
    if (!blk) return -1;
    if (c->nrows > 1) {
        g.roff = (const int64_t *)(blk + at);
        row_offsets<<<grid_for(c->nrows), kScanThreads, 0, s>>>(*c, (int64_t *)(blk + at));
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) e = cub_scan(blk, temp, g, c->nrows, s);
    tlc_free(blk, total, dev);  // stream-ordered: reused only by later work on this stream
    return e == cudaSuccess ? 0 : tlc_error(TL_ERR_RUNTIME, e, "scan kernels (CUB) failed on cuda:%d", dev);
}

}  // namespace

int tlc_scan(const tl_backend_scan_call *c)
{
    if (c->size != sizeof *c || c->nkept < 0 || c->nkept > TL_BACKEND_EW_MAX_DIMS || c->op < TL_SOP_CUMSUM ||
        c->op > TL_SOP_LOGCUMSUMEXP)
        return tlc_error(TL_ERR_RUNTIME, cudaSuccess, "malformed scan call (tensorlib and _C_cuda differ?)");
    if (c->nrows <= 0 || c->len <= 0) return 0;
    int dev = c->device_index;
    DeviceGuard guard(dev);
    cudaStream_t s = tlc_current_stream(dev);
    // complex logcumsumexp stays one row per thread: its step's special cases (equal infinite real
    // parts, whose angles combine) are not associative, so another order could change the specials
    if (c->len >= kLongRow && !(c->op == TL_SOP_LOGCUMSUMEXP && tl_hd_rkind(c->in_dtype) == TL_HD_RK_CPX)) {
        int sms = 0;
        cudaError_t e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if (e != cudaSuccess) return tlc_error(TL_ERR_RUNTIME, e, "scan: cannot query cuda:%d", dev);
        if (c->nrows < (int64_t)sms * kScanThreads) return scan_long_rows(c, dev, s);
    }
    scan_rows<<<grid_for(c->nrows), kScanThreads, 0, s>>>(*c);
    cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? 0 : tlc_error(TL_ERR_RUNTIME, e, "scan kernel launch failed on cuda:%d", dev);
}
