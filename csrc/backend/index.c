/* index.c (backend) - the core's side of a backend's index entry and its host runner.
 * ops/index.c has checked shapes, dtypes and devices as for the CPU and built the same operand
 * geometry its CPU loops run over; this describes it (the CPU iterator's geometry: size-1 dims
 * dropped, mergeable dims merged), hands it to the backend and reads back the out-of-range
 * flag. tl_backend_index_host runs the same call on host memory with the element steps the
 * CUDA kernel runs (kernels/hd_index.h), for the tests' stand-in backend. */
#include <string.h>

#include "backend/backend.h"
#include "backend/index_core.h"
#include "core/error.h"
#include "core/iter.h"
#include "kernels/hd_index.h"

int tl_backend_index(int mode, int flags, const tl_tensor *data, const tl_tensor *src, const tl_tensor *index,
                     const int64_t *shape, int ndim, int iter_flags, int64_t step, int64_t bound, bool *bad,
                     const char *name)
{
    tl_device dev = data->device;
    const tl_device_backend *b = tl_backend_get(dev.type);
    if (bad) *bad = false;
    if (!b || !b->index) return tl_backend_refuse(name, dev, -1);
    int bdt = tl_backend_dtype_code(data->dtype), isz = tl_itemsize(data);
    bool combine = mode == TL_BIX_PUT_ADD || mode >= TL_BIX_PUT_MUL;
    if (combine && (bdt < 0 || (mode != TL_BIX_PUT_ADD && isz > 8))) /* no 16-byte compare-and-swap */
        return tl_backend_refuse(name, dev, data->dtype);
    const tl_tensor *ops[3] = {data, src, index};
    tl_iter it;
    if (tl_iter_init(&it, 3, ops, shape, ndim, TL_ITER_GEOMETRY | iter_flags) < 0) return -1;
    if (it.numel == 0) return 0;
    if (it.ndim > TL_BACKEND_EW_MAX_DIMS) return tl_backend_refuse(name, dev, TL_BACKEND_REFUSE_DIMS);
    tl_backend_index_call c;
    memset(&c, 0, sizeof c);
    c.size = sizeof c;
    c.mode = mode;
    c.flags = flags | (index->dtype == TL_INT32 ? TL_BIX_IDX32 : 0);
    c.device_index = dev.index;
    c.elsize = isz;
    c.dtype = bdt;
    c.ndim = it.ndim;
    c.numel = it.numel;
    c.step = step;
    c.bound = bound;
    c.data = it.data[0];
    c.src = it.data[1];
    c.index = it.data[2];
    for (int d = 0; d < it.ndim; d++) {
        c.shape[d] = it.shape[d];
        for (int k = 0; k < 3; k++) c.strides[k][d] = it.strides[d][k];
    }
    tl_tensor flag = {0};
    if (bad && !(flags & TL_BIX_RAW)) {
        if (tl_tensor_empty(&flag, 0, NULL, TL_INT32, dev, true) < 0) return -1;
        c.bad = (int32_t *)tl_data(&flag);
    }
    int rc = b->index(&c);
    int32_t seen = 0;
    if (rc == 0 && c.bad) rc = tl_backend_read_element(&flag, &seen);
    if (flag.storage) tl_tensor_clear(&flag);
    if (bad) *bad = seen != 0;
    return rc;
}

int tl_backend_index_host(const tl_backend_index_call *c)
{
    if (c->size != sizeof *c || c->ndim < 1 || c->ndim > TL_BACKEND_EW_MAX_DIMS || c->mode < TL_BIX_GATHER ||
        c->mode > TL_BIX_PUT_MIN)
        return tl_err(TL_ERR_RUNTIME, "tensorlib: malformed backend index call");
    for (int64_t i = 0; i < c->numel; i++) {
        int64_t r = i, o[3] = {0, 0, 0}, off = 0;
        for (int d = 0; d < c->ndim; d++) {
            int64_t q = r / c->shape[d], k = r - q * c->shape[d];
            r = q;
            for (int j = 0; j < 3; j++) o[j] += k * c->strides[j][d];
        }
        if (!tl_hd_index_offset(c->index + o[2], c->flags, c->step, c->bound, &off)) {
            if (c->bad) *c->bad = 1;
            continue;
        }
        char *d = c->data + o[0];
        const char *s = c->src + o[1];
        switch (c->mode) {
        case TL_BIX_GATHER: tl_hd_move(d, s + off, c->elsize); break;
        case TL_BIX_PUT: tl_hd_move(d + off, s, c->elsize); break;
        case TL_BIX_OFFSET: *(int64_t *)d = ((c->flags & TL_BIX_ACC) ? *(int64_t *)d : 0) + off; break;
        case TL_BIX_CHECK: break;
        default: tl_hd_combine_into(d + off, s, c->dtype, c->mode); break;
        }
    }
    return 0;
}
