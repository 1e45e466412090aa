/* hd_scan.h - one row of the backend's scan entry (tl_backend_scan_call in backend/backend.h),
 * compiled for the host (C11) and the device (nvcc) like hd_math.h: the CPU's cumulative loops
 * (ops/scan.c) element after element, so a row gives the CPU's bits on either side.
 * backend/scan.c runs it per row on the host (the tests' stand-in backend), csrc/cuda/scan.cu
 * one row per thread. */
#ifndef TL_HD_SCAN_H
#define TL_HD_SCAN_H

#include "kernels/hd_reduce.h"

static inline TL_HD void tl_hd_scan_row(int op, const char *in, int in_dt, int64_t in_step, char *out, int out_dt,
                                        int64_t out_step, char *idx, int64_t idx_step, int64_t len)
{
    int k = tl_hd_rkind(in_dt), mx = op == TL_SOP_CUMMAX;
    int prod = op == TL_SOP_CUMPROD, ext = op == TL_SOP_CUMMAX || op == TL_SOP_CUMMIN;
    double re = prod ? 1 : 0, im = 0;
    uint64_t ai = prod ? 1 : 0;  /* integer sums and products wrap, as the CPU's */
    int64_t pos = 0;
    for (int64_t i = 0; i < len; i++) {
        tl_hd_rval v = tl_hd_rload(in + i * in_step, in_dt);
        if (ext) {
            if (k == TL_HD_RK_INT) {
                if (i == 0 || (mx ? v.i >= (int64_t)ai : v.i <= (int64_t)ai)) ai = (uint64_t)v.i, pos = i;
            } else if (i == 0 || v.re != v.re || (re == re && (mx ? v.re >= re : v.re <= re))) {
                re = v.re, pos = i;
            }
            *(int64_t *)(idx + i * idx_step) = pos;
        } else if (k == TL_HD_RK_INT) {
            ai = prod ? ai * (uint64_t)v.i : ai + (uint64_t)v.i;
        } else if (!prod) {
            re += v.re, im += v.im;
        } else if (k == TL_HD_RK_CPX) {
            double r = re * v.re - im * v.im;
            im = re * v.im + im * v.re;
            re = r;
        } else {
            re *= v.re;
        }
        char *o = out + i * out_step;
        if (k == TL_HD_RK_INT) tl_hd_put(o, out_dt, TL_HD_NAT_I, (int64_t)ai, 0, 0);
        else tl_hd_put(o, out_dt, k == TL_HD_RK_CPX ? TL_HD_NAT_C : TL_HD_NAT_F, 0, re, im);
    }
}

#endif
