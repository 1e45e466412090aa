// scan_cub_host.cu - csrc/cuda/scan.cu's long-row iterators (LoadElem, StoreElem, RowOf, the
// rows' offsets of row_start, Combine) driven on the host by Thrust's sequential host scans
// (thrust::inclusive_scan / inclusive_scan_by_key with thrust::host), the same iterator
// contract CUB's DeviceScan uses on the device: every call's results must equal the row
// function's (tl_hd_scan_row, the CPU's loop) bit for bit (a sequential scan adds in the CPU's
// order), for every op and dtype pair over contiguous, transposed, stepped and 3-D geometries.
// No GPU runs the CUB kernels here; this checks the geometry and dtype plumbing around them.
// Built with nvcc by tests/test_cuda_scan.py; prints failures, then "checked N failures M".
#include <thrust/execution_policy.h>
#include <thrust/scan.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include "cuda/scan.cu"

// what scan.cu links against in the module, unused here
int tlc_error(int, cudaError_t, const char *, ...) { return -1; }
void *tlc_alloc(size_t, int) { return nullptr; }
void tlc_free(void *, size_t, int) {}
cudaStream_t tlc_current_stream(int) { return nullptr; }

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint64_t next_u(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static long checked, failures;

// A tensor of `sizes` (row-major storage, `perm` the storage order of the dims) scanned along
// `dim`, as backend/scan.c describes it: the call, plus the host buffers.
static void run(int op, int in_dt, int out_dt, std::vector<int64_t> sizes, std::vector<int> perm, int dim, int step)
{
    int nd = (int)sizes.size(), isz = tl_hd_dt_size(in_dt), osz = tl_hd_dt_size(out_dt);
    int ext = op == TL_SOP_CUMMAX || op == TL_SOP_CUMMIN, k = tl_hd_rkind(in_dt);
    // input strides (elements): storage dims in perm's order, the scanned dim stepped by `step`
    std::vector<int64_t> st(nd), ost(nd);
    int64_t n = 1, span = 1;
    for (int j = nd - 1; j >= 0; j--) {
        int d = perm[j];
        st[d] = span;
        span *= sizes[d] * (d == dim ? step : 1);
    }
    for (int d = nd - 1; d >= 0; d--) ost[d] = n, n *= sizes[d];  // outputs contiguous
    std::vector<char> in((size_t)span * isz), want((size_t)n * osz), got((size_t)n * osz, 0x5A);
    std::vector<char> wi((size_t)n * 8), gi((size_t)n * 8, 0x5A);
    for (int64_t i = 0; i < span; i++) {
        char *p = in.data() + i * isz;
        int64_t v = (int64_t)(next_u() % 7) - 3;
        double f = (double)v / 2;
        if (next_u() % 64 == 0) f = next_u() % 2 ? -0.0 : NAN;
        if (k == TL_HD_RK_INT) tl_hd_put(p, in_dt, TL_HD_NAT_I, in_dt == TL_BDT_BOOL ? v > 0 : v, 0, 0);
        else tl_hd_put(p, in_dt, k == TL_HD_RK_CPX ? TL_HD_NAT_C : TL_HD_NAT_F, 0, f, (double)((int)(next_u() % 5) - 2));
    }
    tl_backend_scan_call c;
    memset(&c, 0, sizeof c);
    c.size = sizeof c;
    c.op = op;
    c.in_dtype = in_dt;
    c.out_dtype = out_dt;
    c.nrows = 1;
    c.len = sizes[dim];
    c.in_step = st[dim] * isz;
    c.out_step = ost[dim] * osz;
    c.idx_step = ext ? ost[dim] * 8 : 0;
    for (int d = nd - 1; d >= 0; d--) {
        if (d == dim || sizes[d] == 1) continue;
        c.kept_sizes[c.nkept] = sizes[d];
        c.kin_strides[c.nkept] = st[d] * isz;
        c.kout_strides[c.nkept] = ost[d] * osz;
        c.kidx_strides[c.nkept] = ext ? ost[d] * 8 : 0;
        c.nrows *= sizes[d];
        c.nkept++;
    }
    // the reference: the host runner's loop over the rows
    c.in = in.data();
    c.out = want.data();
    c.indices = ext ? wi.data() : nullptr;
    for (int64_t r = 0; r < c.nrows; r++) {
        int64_t oi, oo, ox;
        row_start(c, r, &oi, &oo, &ox);
        tl_hd_scan_row(op, c.in + oi, in_dt, c.in_step, c.out + oo, out_dt, c.out_step, ext ? c.indices + ox : nullptr,
                       c.idx_step, c.len);
    }
    // scan.cu's iterators, as scan_long_rows sets them up, on the host
    c.out = got.data();
    c.indices = ext ? gi.data() : nullptr;
    std::vector<int64_t> roff((size_t)c.nrows * 3);
    for (int64_t r = 0; r < c.nrows; r++) row_start(c, r, &roff[3 * r], &roff[3 * r + 1], &roff[3 * r + 2]);
    LongRows g;
    g.in = c.in;
    g.out = c.out;
    g.idx = c.indices;
    g.roff = c.nrows > 1 ? roff.data() : nullptr;
    g.len = c.len;
    g.in_step = c.in_step;
    g.out_step = c.out_step;
    g.idx_step = c.idx_step;
    g.op = op;
    g.kind = k;
    g.in_dt = in_dt;
    g.out_dt = out_dt;
    LoadIt lin(Counting(0), LoadElem{g});
    StoreIt sout(StoreElem{g});
    Combine cop{op, k};
    if (c.nrows == 1) thrust::inclusive_scan(thrust::host, lin, lin + n, sout, cop);
    else {
        KeyIt keys(Counting(0), RowOf{g.len});
        thrust::inclusive_scan_by_key(thrust::host, keys, keys + n, lin, sout, ::cuda::std::equal_to<>(), cop);
    }
    checked++;
    // bit for bit, but a NaN of another sign/payload from a float sum or product (the
    // compiler picks which operand's NaN an addition passes on)
    bool same = !memcmp(want.data(), got.data(), want.size()) && (!ext || !memcmp(wi.data(), gi.data(), wi.size()));
    if (!same && !ext && k != TL_HD_RK_INT) {
        same = true;
        for (int64_t i = 0; i < n && same; i++) {
            tl_hd_rval a = tl_hd_rload(want.data() + i * osz, out_dt), b = tl_hd_rload(got.data() + i * osz, out_dt);
            same = ((a.re != a.re && b.re != b.re) || (a.re == b.re && signbit(a.re) == signbit(b.re))) &&
                   ((a.im != a.im && b.im != b.im) || (a.im == b.im && signbit(a.im) == signbit(b.im)));
        }
    }
    if (!same && failures++ < 40)
        printf("differ: op %d dt %d -> %d sizes %lld,%lld,%lld dim %d step %d perm %d%d%d\n", op, in_dt, out_dt,
               (long long)sizes[0], nd > 1 ? (long long)sizes[1] : 0LL, nd > 2 ? (long long)sizes[2] : 0LL, dim, step,
               perm[0], nd > 1 ? perm[1] : 0, nd > 2 ? perm[2] : 0);
}

int main()
{
    struct Geo {
        std::vector<int64_t> sizes;
        std::vector<int> perm;
        int dim, step;
    } geos[] = {
        {{3000}, {0}, 0, 1},          {{3000}, {0}, 0, 3},          {{3, 2100}, {0, 1}, 1, 1},
        {{3, 2100}, {1, 0}, 1, 1},    {{2100, 3}, {0, 1}, 0, 1},    {{3, 2100}, {0, 1}, 1, 2},
        {{2, 3, 2050}, {0, 1, 2}, 2, 1}, {{2, 2050, 3}, {2, 0, 1}, 1, 1}, {{2, 1, 2050}, {0, 1, 2}, 2, 1},
        {{5, 7}, {0, 1}, 1, 1},
    };
    for (int in_dt = TL_BDT_BOOL; in_dt <= TL_BDT_COMPLEX128; in_dt++) {
        int k = tl_hd_rkind(in_dt);
        for (int op = TL_SOP_CUMSUM; op <= TL_SOP_LOGCUMSUMEXP; op++) {
            int ext = op == TL_SOP_CUMMAX || op == TL_SOP_CUMMIN;
            if (ext && k == TL_HD_RK_CPX) continue;
            // logcumsumexp: floats only (integers are refused; scan.cu keeps complex row by row)
            if (op == TL_SOP_LOGCUMSUMEXP && k != TL_HD_RK_FLT) continue;
            int outs[3] = {ext || k != TL_HD_RK_INT ? in_dt : TL_BDT_INT64, -1, -1};
            if (op == TL_SOP_CUMSUM) outs[1] = TL_BDT_FLOAT64, outs[2] = TL_BDT_COMPLEX64;
            for (int o = 0; o < 3 && outs[o] >= 0; o++)
                for (auto &geo : geos) run(op, in_dt, outs[o], geo.sizes, geo.perm, geo.dim, geo.step);
        }
    }
    printf("checked %ld failures %ld\n", checked, failures);
    return failures != 0;
}
