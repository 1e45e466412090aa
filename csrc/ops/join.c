/* join.c - cat, flip, repeat, tril/triu, resize_ and the index
 * repeat_interleave gathers with. Data moves through tl_copy_ over strided views of the
 * output wherever possible, so every dtype and layout is covered by the cast loops. */
#include "ops/join.h"

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "kernels/cast.h"
#include "ops/copy.h"
#include "ops/index_util.h"
#include "named/unify.h"

static tl_tensor geom(const tl_tensor *base, int ndim, int64_t *sizes, int64_t *strides, int64_t offset)
{
    tl_tensor v = *base;
    v.ndim = ndim;
    v.sizes = sizes;
    v.strides = strides;
    v.offset = offset;
    v.names = NULL;
    return v;
}

/* ---- names ------------------------------------------------------------------------------- */

static const char *names_str(const int32_t *ids, int n, char *buf, int len)
{
    return tl_names_list_str(ids, n, 0, buf, len); /* torch's cat messages print names unquoted */
}

int tl_unify_names_same_rank(const int32_t *a, const int32_t *b, int n, int32_t *out)
{
    char b1[1024], b2[1024];
    for (int i = n - 1; i >= 0; i--) {
        int32_t x = a ? a[i] : 0, y = b ? b[i] : 0;
        if (x && y && x != y)
            return tl_err(TL_ERR_RUNTIME, "Error when attempting to cat dims %s and dims %s: dim '%s' and dim '%s' are at the same position from the right but do not match.",
                          names_str(a, n, b1, sizeof b1), names_str(b, n, b2, sizeof b2), tl_name_str(x), tl_name_str(y));
        out[i] = x ? x : y;
    }
    for (int i = 0; i < n; i++) {
        int32_t x = a ? a[i] : 0;
        for (int j = 0; x && b && j < n; j++)
            if (j != i && b[j] == x)
                return tl_err(TL_ERR_RUNTIME, "Misaligned dims when attempting to cat dims %s and dims %s: dim '%s' appears in a different position from the right across both lists.",
                              names_str(a, n, b1, sizeof b1), names_str(b, n, b2, sizeof b2), tl_name_str(x));
    }
    return 0;
}

/* ---- cat ---------------------------------------------------------------------------------- */

static bool skip_legacy(const tl_tensor *t) { return t->ndim == 1 && t->sizes[0] == 0; }

int tl_cat(tl_tensor *out, const tl_tensor *const *ts, int n, int64_t dim)
{
    if (n == 0) return tl_err(TL_ERR_VALUE, "torch.cat(): expected a non-empty list of Tensors");
    int ref = -1;
    bool named = false;
    tl_dtype dt = (tl_dtype)ts[0]->dtype;
    for (int i = 0; i < n; i++) {
        if (ts[i]->ndim == 0)
            return tl_err(TL_ERR_RUNTIME, "zero-dimensional tensor (at position %d) cannot be concatenated", i);
        if (tl_device_expect_same(ts[0]->device, ts[i]->device) < 0) return -1;
        if (i && tl_promote_types(dt, (tl_dtype)ts[i]->dtype, &dt) < 0) return -1;
        named |= ts[i]->names != NULL;
        if (ref < 0 && !skip_legacy(ts[i])) ref = i;
    }
    if (ref < 0) ref = 0;
    const tl_tensor *r = ts[ref];
    int d;
    if (tl_wrap_dim(dim, r->ndim, &d) < 0) return -1;
    int64_t shape[TL_MAX_DIMS];
    memcpy(shape, r->sizes, 8 * r->ndim);
    shape[d] = 0;
    int32_t names[TL_MAX_DIMS] = {0};
    for (int i = 0; i < n; i++) {
        const tl_tensor *t = ts[i];
        if (skip_legacy(t) && i != ref) continue;
        if (t->ndim != r->ndim)
            return tl_err(TL_ERR_RUNTIME, "Tensors must have same number of dimensions: got %d and %d", r->ndim, t->ndim);
        for (int k = 0; k < r->ndim; k++)
            if (k != d && t->sizes[k] != r->sizes[k])
                return tl_err(TL_ERR_RUNTIME, "Sizes of tensors must match except in dimension %d. Expected size %lld but got size %lld for tensor number %d in the list.",
                              d, (long long)r->sizes[k], (long long)t->sizes[k], i);
        shape[d] += t->sizes[d];
        if (named && tl_unify_names_same_rank(names, t->names, r->ndim, names) < 0) return -1;
    }
    /* torch's cat_compute_output_memory_format: the format every input suggests, else
     * contiguous (channels_last inputs give a channels_last result) */
    tl_memory_format fmt = tl_suggest_memory_format(ts[0]);
    for (int i = 1; i < n && fmt != TL_MEMFMT_CONTIGUOUS; i++)
        if (tl_suggest_memory_format(ts[i]) != fmt) fmt = TL_MEMFMT_CONTIGUOUS;
    tl_tensor like = *r;
    like.sizes = shape;
    like.names = NULL;
    if (tl_tensor_empty_like(out, &like, dt, fmt) < 0) return -1;
    int64_t pos = 0;
    for (int i = 0; i < n; i++) {
        const tl_tensor *t = ts[i];
        if (skip_legacy(t) && i != ref) continue;
        if (t->sizes[d] == 0) continue;
        tl_tensor slot = geom(out, t->ndim, t->sizes, out->strides, pos * out->strides[d]);
        tl_tensor src = *t;
        src.names = NULL;
        if (tl_copy_(&slot, &src) < 0) { tl_tensor_clear(out); return -1; }
        pos += t->sizes[d];
    }
    if (named && tl_tensor_set_names(out, names) < 0) { tl_tensor_clear(out); return -1; }
    return 0;
}

/* ---- flip / repeat --------------------------------------------------------------------------- */

int tl_flip(tl_tensor *out, const tl_tensor *t, const int64_t *dims, int n)
{
    int64_t st[TL_MAX_DIMS];
    bool seen[TL_MAX_DIMS] = {0};
    memcpy(st, t->strides, 8 * t->ndim);
    int64_t off = t->offset;
    for (int i = 0; i < n; i++) {
        int d;
        if (tl_wrap_dim(dims[i], t->ndim, &d) < 0) return -1;
        if (seen[d]) return tl_err(TL_ERR_RUNTIME, "dim %d appears multiple times in the list of dims", d);
        seen[d] = true;
        if (t->sizes[d] > 0) off += (t->sizes[d] - 1) * st[d];
        st[d] = -st[d];
    }
    if (tl_tensor_empty_like(out, t, (tl_dtype)t->dtype, TL_MEMFMT_PRESERVE) < 0) return -1;
    tl_tensor src = geom(t, t->ndim, t->sizes, st, off);
    if (tl_copy_(out, &src) < 0 || tl_tensor_copy_names(out, t) < 0) { tl_tensor_clear(out); return -1; }
    return 0;
}

int tl_repeat(tl_tensor *out, const tl_tensor *t, const int64_t *reps, int n)
{
    if (n < t->ndim)
        return tl_err(TL_ERR_RUNTIME, "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
    if (2 * n > TL_MAX_DIMS) return tl_err(TL_ERR_RUNTIME, "repeat: too many dimensions");
    int64_t shape[TL_MAX_DIMS], vsz[TL_MAX_DIMS], vst[TL_MAX_DIMS], ssz[TL_MAX_DIMS], sst[TL_MAX_DIMS];
    int lead = n - t->ndim;
    for (int i = 0; i < n; i++) {
        if (reps[i] < 0)
            return tl_err(TL_ERR_RUNTIME, "Trying to create tensor with negative dimension %lld: [%lld]", (long long)reps[i], (long long)reps[i]);
        int64_t s = i < lead ? 1 : t->sizes[i - lead];
        if (tl_mul_checked(s, reps[i], &shape[i]) < 0) return -1;
    }
    if (tl_tensor_empty(out, n, shape, (tl_dtype)t->dtype, t->device, false) < 0) return -1;
    if (t->names) { /* dims keep their names; leading dims the repeat adds are unnamed (as expand) */
        int32_t names[TL_MAX_DIMS] = {0};
        memcpy(names + lead, t->names, sizeof(int32_t) * (size_t)t->ndim);
        if (tl_tensor_set_names(out, names) < 0) { tl_tensor_clear(out); return -1; }
    }
    if (tl_numel(out) == 0) return 0;
    for (int i = 0; i < n; i++) {
        int64_t s = i < lead ? 1 : t->sizes[i - lead];
        vsz[2 * i] = reps[i];
        vsz[2 * i + 1] = s;
        vst[2 * i] = s * out->strides[i];
        vst[2 * i + 1] = out->strides[i];
        ssz[2 * i] = 1;
        sst[2 * i] = 0;
        ssz[2 * i + 1] = s;
        sst[2 * i + 1] = i < lead ? 0 : t->strides[i - lead];
    }
    tl_tensor dst = geom(out, 2 * n, vsz, vst, out->offset);
    tl_tensor src = geom(t, 2 * n, ssz, sst, t->offset);
    if (tl_copy_(&dst, &src) < 0) { tl_tensor_clear(out); return -1; }
    return 0;
}

/* ---- tril / triu ----------------------------------------------------------------------- */

int tl_tril_(tl_tensor *t, int64_t k, bool upper)
{
    if (t->ndim < 2)
        return tl_err(TL_ERR_RUNTIME, "%s: input tensor must have at least 2 dimensions", upper ? "triu" : "tril");
    if (tl_check_writable(t) < 0) return -1;
    int nd = t->ndim, isz = tl_itemsize(t);
    int64_t R = t->sizes[nd - 2], C = t->sizes[nd - 1], rs = t->strides[nd - 2] * isz, cs = t->strides[nd - 1] * isz;
    int64_t batch = 1;
    for (int i = 0; i < nd - 2; i++) batch *= t->sizes[i];
    if (batch == 0 || R == 0 || C == 0 || t->device.type == TL_DEV_META) return 0;
    int64_t idx[TL_MAX_DIMS] = {0};
    char *base = tl_data(t);
    for (int64_t b = 0; b < batch; b++) {
        char *m = base;
        for (int i = 0; i < nd - 2; i++) m += idx[i] * t->strides[i] * isz;
        for (int64_t i = 0; i < R; i++) {
            /* zero columns [lo, hi) of row i */
            int64_t lo, hi;
            if (upper) { lo = 0; hi = i + k; }
            else { lo = i + k + 1; hi = C; }
            if (lo < 0) lo = 0;
            if (hi > C) hi = C;
            char *row = m + i * rs;
            if (hi <= lo) continue;
            if (cs == isz) memset(row + lo * cs, 0, (size_t)(hi - lo) * isz);
            else
                for (int64_t j = lo; j < hi; j++) memset(row + j * cs, 0, isz);
        }
        for (int i = nd - 3; i >= 0; i--) {
            if (++idx[i] < t->sizes[i]) break;
            idx[i] = 0;
        }
    }
    return 0;
}

/* ---- resize_ ------------------------------------------------------------------------------------- */

int tl_resize_(tl_tensor *t, const int64_t *sizes, int n)
{
    if (tl_check_shape(sizes, n) < 0) return -1;
    if (t->names) return tl_names_check_out(t, n, sizes, t->names); /* only a resize to the same shape */
    int64_t st[TL_MAX_DIMS], need;
    tl_contiguous_strides(sizes, n, st);
    if (tl_check_geometry(n, sizes, st, t->offset, tl_itemsize(t), SIZE_MAX, &need) < 0) return -1;
    tl_storage *s = t->storage;
    if ((size_t)need > s->nbytes) {
        if (!s->resizable) return tl_err(TL_ERR_RUNTIME, "Trying to resize storage that is not resizable");
        if (s->exports > 0)
            return tl_err(TL_ERR_RUNTIME, "cannot resize a tensor's storage while it has live buffer exports (NumPy arrays or memoryviews)");
        if (tl_storage_resize(s, (size_t)need) < 0) return -1;
    }
    if (tl_tensor_set_ndim(t, n) < 0) return -1;
    memcpy(t->sizes, sizes, 8 * n);
    memcpy(t->strides, st, 8 * n);
    return 0;
}

int tl_resize_as_(tl_tensor *t, const tl_tensor *tmpl)
{
    if (t->names) return tl_names_check_out(t, tmpl->ndim, tmpl->sizes, tmpl->names);
    if (tl_resize_(t, tmpl->sizes, tmpl->ndim) < 0) return -1;
    return tmpl->names ? tl_tensor_set_names(t, tmpl->names) : 0;
}

int tl_repeat_interleave_index(tl_tensor *out, const tl_tensor *repeats, int64_t output_size)
{
    if (repeats->ndim != 1) return tl_err(TL_ERR_RUNTIME, "repeat_interleave only accept 1D vector as repeat");
    if (repeats->dtype != TL_INT64 && repeats->dtype != TL_INT32)
        return tl_err(TL_ERR_RUNTIME, "repeats has to be Long or Int tensor");
    if (repeats->device.type == TL_DEV_META) { /* the total is in the data: only output_size gives it */
        if (output_size < 0) return tl_err(TL_ERR_RUNTIME, "cannot repeat_interleave a meta tensor without output_size");
        return tl_tensor_empty(out, 1, &output_size, TL_INT64, repeats->device, false);
    }
    tl_tensor r = {0};
    if (tl_index_as_i64(&r, repeats) < 0) return -1;
    const int64_t *rp = (const int64_t *)tl_data(&r);
    int64_t n = tl_numel(&r), total = 0;
    for (int64_t i = 0; i < n; i++) {
        if (rp[i] < 0) { tl_tensor_clear(&r); return tl_err(TL_ERR_RUNTIME, "repeats can not be negative"); }
        total += rp[i];
    }
    if (output_size >= 0 && output_size != total) {
        tl_tensor_clear(&r);
        return tl_err(TL_ERR_RUNTIME, "allocated size does not match required size");
    }
    int rc = tl_tensor_empty(out, 1, &total, TL_INT64, repeats->device, false);
    if (rc == 0) {
        int64_t *o = (int64_t *)tl_data(out);
        for (int64_t i = 0; i < n; i++)
            for (int64_t k = 0; k < rp[i]; k++) *o++ = i;
    }
    tl_tensor_clear(&r);
    return rc;
}
