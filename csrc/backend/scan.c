/* scan.c (backend) - the core's side of a backend's scan entry (cumsum, cumprod, cummax,
 * cummin of device tensors) and its host runner. ops/scan.c has checked the op, the dtypes and
 * the dim as for the CPU; this allocates the results on the device, describes the rows and
 * hands them over. tl_backend_scan_host runs the same call on host memory with the row
 * function the CUDA kernel runs (kernels/hd_scan.h), for the tests' stand-in backend. */
#include <string.h>

#include "backend/backend.h"
#include "backend/scan_core.h"
#include "core/error.h"
#include "kernels/hd_scan.h"
#include "ops/copy.h"

int tl_backend_scan(tl_tensor *out, tl_tensor *indices, const tl_tensor *x, int op, int dim, int out_dtype,
                    const char *name)
{
    const tl_device_backend *b = tl_backend_get(x->device.type);
    int idt = tl_backend_dtype_code(x->dtype), odt = tl_backend_dtype_code(out_dtype);
    if (!b || !b->scan) return tl_backend_refuse(name, x->device, -1);
    if (idt < 0 || odt < 0) return tl_backend_refuse(name, x->device, idt < 0 ? x->dtype : out_dtype);
    bool ext = indices != NULL;
    if (tl_tensor_empty(out, x->ndim, x->sizes, (tl_dtype)out_dtype, x->device, false) < 0) return -1;
    if (ext && tl_tensor_empty(indices, x->ndim, x->sizes, TL_INT64, x->device, false) < 0) goto fail;
    if (tl_tensor_copy_names(out, x) < 0 || (ext && tl_tensor_copy_names(indices, x) < 0)) goto fail;
    if (tl_numel(x) == 0) return 0;
    tl_backend_scan_call c;
    memset(&c, 0, sizeof c);
    c.size = sizeof c;
    c.op = op;
    c.device_index = x->device.index;
    c.in_dtype = idt;
    c.out_dtype = odt;
    c.in = tl_data(x);
    c.out = tl_data(out);
    c.indices = ext ? tl_data(indices) : NULL;
    c.nrows = 1;
    c.len = x->ndim ? x->sizes[dim] : 1;
    int64_t isz = tl_itemsize(x), osz = tl_itemsize(out);
    if (x->ndim) {
        c.in_step = x->strides[dim] * isz;
        c.out_step = out->strides[dim] * osz;
        c.idx_step = ext ? indices->strides[dim] * 8 : 0;
    }
    for (int d = x->ndim - 1; d >= 0; d--) { /* the other dims, innermost first; size 1 dropped */
        if (d == dim || x->sizes[d] == 1) continue;
        c.kept_sizes[c.nkept] = x->sizes[d];
        c.kin_strides[c.nkept] = x->strides[d] * isz;
        c.kout_strides[c.nkept] = out->strides[d] * osz;
        c.kidx_strides[c.nkept] = ext ? indices->strides[d] * 8 : 0;
        c.nrows *= x->sizes[d];
        c.nkept++;
    }
    if (b->scan(&c) == 0) return 0;
fail:
    tl_tensor_clear(out);
    if (ext && indices->storage) tl_tensor_clear(indices);
    return -1;
}

int tl_backend_scan_host(const tl_backend_scan_call *c)
{
    if (c->size != sizeof *c || c->nkept < 0 || c->nkept > TL_BACKEND_EW_MAX_DIMS || c->op < TL_SOP_CUMSUM ||
        c->op > TL_SOP_LOGCUMSUMEXP)
        return tl_err(TL_ERR_RUNTIME, "tensorlib: malformed backend scan call");
    for (int64_t r = 0; r < c->nrows; r++) {
        int64_t q = r, oi = 0, oo = 0, ox = 0;
        for (int d = 0; d < c->nkept; d++) {
            int64_t i = q % c->kept_sizes[d];
            q /= c->kept_sizes[d];
            oi += i * c->kin_strides[d];
            oo += i * c->kout_strides[d];
            ox += i * c->kidx_strides[d];
        }
        tl_hd_scan_row(c->op, c->in + oi, c->in_dtype, c->in_step, c->out + oo, c->out_dtype, c->out_step,
                       c->indices ? c->indices + ox : NULL, c->idx_step, c->len);
    }
    return 0;
}
