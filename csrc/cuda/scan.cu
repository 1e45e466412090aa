// scan.cu - the CUDA scan entry (tl_backend_scan_call, backend/backend.h): cumsum, cumprod,
// cummax, cummin along one dim, one row per thread running kernels/hd_scan.h's row function
// (the loop the CPU suite runs through the core's host runner, backend/scan.c), so the values
// are the CPU's bits (compiled with -fmad=false: no contraction of the complex product).
// Rows are independent; a long row with few rows runs on few threads (a block-wide scan with
// a running prefix would spread it, at the price of the CPU's order of additions). Never run
// on a GPU so far (docs/cuda.md).
#include "cuda/cuda_backend.h"
#include "kernels/hd_scan.h"

namespace {

constexpr int kScanThreads = 128;

__global__ void scan_rows(tl_backend_scan_call c)
{
    for (int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; r < c.nrows; r += (int64_t)gridDim.x * blockDim.x) {
        int64_t q = r, oi = 0, oo = 0, ox = 0;
        for (int d = 0; d < c.nkept; d++) {
            int64_t i = q % c.kept_sizes[d];
            q /= c.kept_sizes[d];
            oi += i * c.kin_strides[d];
            oo += i * c.kout_strides[d];
            ox += i * c.kidx_strides[d];
        }
        tl_hd_scan_row(c.op, c.in + oi, c.in_dtype, c.in_step, c.out + oo, c.out_dtype, c.out_step,
                       c.indices ? c.indices + ox : nullptr, c.idx_step, c.len);
    }
}

}  // namespace

int tlc_scan(const tl_backend_scan_call *c)
{
    if (c->size != sizeof *c || c->nkept < 0 || c->nkept > TL_BACKEND_EW_MAX_DIMS)
        return tlc_error(TL_ERR_RUNTIME, cudaSuccess, "malformed scan call (tensorlib and _C_cuda differ?)");
    if (c->nrows <= 0 || c->len <= 0) return 0;
    int dev = c->device_index;
    DeviceGuard guard(dev);
    int64_t blocks = (c->nrows + kScanThreads - 1) / kScanThreads;
    scan_rows<<<(unsigned)(blocks < 65535 ? blocks : 65535), kScanThreads, 0, tlc_current_stream(dev)>>>(*c);
    cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? 0 : tlc_error(TL_ERR_RUNTIME, e, "scan kernel launch failed on cuda:%d", dev);
}
