/* view.c - the view operations and their name rules. */
#include "ops/view.h"

#include <string.h>

#include "core/error.h"
#include "ops/copy.h"

static int named_unsupported(const tl_tensor *t, const char *op)
{
    if (t->names)
        return tl_err(TL_ERR_RUNTIME, "%s is not supported with named tensors. Please drop names with "
                                      "rename(None), call the op, and reapply names", op);
    return 0;
}

int tl_transpose(tl_tensor *out, const tl_tensor *t, int64_t d0, int64_t d1)
{
    int a, b;
    if (tl_wrap_dim(d0, t->ndim, &a) < 0 || tl_wrap_dim(d1, t->ndim, &b) < 0) return -1;
    if (tl_tensor_alias(out, t) < 0) return -1;
    if (t->ndim == 0) return 0;
    int64_t s = out->sizes[a]; out->sizes[a] = out->sizes[b]; out->sizes[b] = s;
    s = out->strides[a]; out->strides[a] = out->strides[b]; out->strides[b] = s;
    if (out->names) { int32_t n = out->names[a]; out->names[a] = out->names[b]; out->names[b] = n; }
    return 0;
}

int tl_permute(tl_tensor *out, const tl_tensor *t, const int64_t *dims, int n)
{
    int64_t sz[TL_MAX_DIMS], st[TL_MAX_DIMS];
    int32_t nm[TL_MAX_DIMS];
    char seen[TL_MAX_DIMS] = {0};
    if (n != t->ndim)
        return tl_err(TL_ERR_RUNTIME, "permute(sparse_coo): number of dimensions in the tensor input does not match "
                                      "the length of the desired ordering of dimensions i.e. input.dim() = %d is not equal "
                                      "to len(dims) = %d", t->ndim, n);
    for (int i = 0; i < n; i++) {
        int d;
        if (tl_wrap_dim(dims[i], t->ndim, &d) < 0) return -1;
        if (seen[d]) return tl_err(TL_ERR_RUNTIME, "permute(): duplicate dims are not allowed.");
        seen[d] = 1;
        sz[i] = t->sizes[d];
        st[i] = t->strides[d];
        nm[i] = t->names ? t->names[d] : 0;
    }
    if (tl_tensor_view_init(out, t, n, sz, st, t->offset) < 0) return -1;
    return tl_tensor_set_names(out, t->names ? nm : NULL);
}

int tl_expand(tl_tensor *out, const tl_tensor *t, const int64_t *sizes, int n)
{
    int64_t sz[TL_MAX_DIMS], st[TL_MAX_DIMS];
    int32_t nm[TL_MAX_DIMS] = {0};
    /* torch names the tensor type in this message: torch.LongTensor for the dtypes that
     * had legacy tensor types, CPUBoolType for the others */
    bool legacy = t->dtype == TL_UINT8 || t->dtype == TL_INT8 || t->dtype == TL_INT16 || t->dtype == TL_INT32 ||
                  t->dtype == TL_INT64 || t->dtype == TL_FLOAT16 || t->dtype == TL_FLOAT32 || t->dtype == TL_FLOAT64;
    if (n < t->ndim)
        return tl_err(TL_ERR_RUNTIME, "expand(%s%s%s{%s}, size=%s): the number of sizes provided (%d) must be "
                                      "greater or equal to the number of dimensions in the tensor (%d)",
                      legacy ? "torch." : "CPU", tl_dtype_infos[t->dtype].cname, legacy ? "Tensor" : "Type", tl_shape_str(t->sizes, t->ndim, (char[512]){0}, 512), tl_shape_str(sizes, n, (char[512]){0}, 512),
                      n, t->ndim);
    if (n > TL_MAX_DIMS) return tl_err(TL_ERR_RUNTIME, "tensorlib supports at most %d dimensions", TL_MAX_DIMS);
    for (int i = n - 1; i >= 0; i--) {
        int td = i - (n - t->ndim);
        int64_t want = sizes[i];
        if (td < 0) {
            if (want < 0)
                return tl_err(TL_ERR_RUNTIME, "The expanded size of the tensor (%lld) isn't allowed in a leading, "
                                              "non-existing dimension %d", (long long)want, i);
            sz[i] = want;
            st[i] = 0;
            continue;
        }
        if (want == -1) want = t->sizes[td];
        if (want < -1) return tl_err(TL_ERR_RUNTIME, "Trying to create tensor with negative dimension %lld", (long long)want);
        if (t->sizes[td] == want) {
            sz[i] = want;
            st[i] = t->strides[td];
        } else if (t->sizes[td] == 1) {
            sz[i] = want;
            st[i] = 0;
        } else {
            return tl_err(TL_ERR_RUNTIME, "The expanded size of the tensor (%lld) must match the existing size (%lld) at "
                                          "non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s",
                          (long long)want, (long long)t->sizes[td], i, tl_shape_str(sizes, n, (char[512]){0}, 512),
                          tl_shape_str(t->sizes, t->ndim, (char[512]){0}, 512));
        }
        if (t->names) nm[i] = t->names[td];
    }
    if (tl_check_shape(sz, n) < 0) return -1;
    if (tl_tensor_view_init(out, t, n, sz, st, t->offset) < 0) return -1;
    return tl_tensor_set_names(out, t->names ? nm : NULL);
}

int tl_squeeze(tl_tensor *out, const tl_tensor *t, const int64_t *dims, int n)
{
    int64_t sz[TL_MAX_DIMS], st[TL_MAX_DIMS];
    int32_t nm[TL_MAX_DIMS];
    char drop[TL_MAX_DIMS] = {0};
    if (dims) {
        for (int i = 0; i < n; i++) {
            int d;
            if (tl_wrap_dim(dims[i], t->ndim, &d) < 0) return -1;
            if (t->ndim > 0 && t->sizes[d] == 1) drop[d] = 1;
        }
    } else {
        for (int d = 0; d < t->ndim; d++) drop[d] = t->sizes[d] == 1;
    }
    int m = 0;
    for (int d = 0; d < t->ndim; d++) {
        if (drop[d]) continue;
        sz[m] = t->sizes[d];
        st[m] = t->strides[d];
        nm[m] = t->names ? t->names[d] : 0;
        m++;
    }
    if (tl_tensor_view_init(out, t, m, sz, st, t->offset) < 0) return -1;
    return tl_tensor_set_names(out, t->names ? nm : NULL);
}

void tl_geom_of(tl_geom *g, const tl_tensor *t)
{
    g->ndim = t->ndim;
    g->offset = t->offset;
    memcpy(g->sizes, t->sizes, sizeof(int64_t) * t->ndim);
    memcpy(g->strides, t->strides, sizeof(int64_t) * t->ndim);
    for (int i = 0; i < t->ndim; i++) g->names[i] = t->names ? t->names[i] : TL_NAME_NONE;
}

int tl_geom_view(tl_tensor *out, const tl_tensor *t, const tl_geom *g)
{
    /* every step keeps the geometry inside t's extent: no second check */
    if (tl_tensor_view_within(out, t, g->ndim, g->sizes, g->strides, g->offset) < 0) return -1;
    return t->names ? tl_tensor_set_names(out, g->names) : 0;
}

int tl_geom_unsqueeze(tl_geom *g, int d)
{
    if (g->ndim + 1 > TL_MAX_DIMS) return tl_err(TL_ERR_RUNTIME, "tensorlib supports at most %d dimensions", TL_MAX_DIMS);
    int64_t st = 1;
    if (d < g->ndim && __builtin_mul_overflow(g->sizes[d], g->strides[d], &st))
        return tl_err(TL_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%s and strides=%s",
                      tl_shape_str(g->sizes, g->ndim, (char[512]){0}, 512),
                      tl_shape_str(g->strides, g->ndim, (char[512]){0}, 512));
    for (int i = g->ndim; i > d; i--) {
        g->sizes[i] = g->sizes[i - 1];
        g->strides[i] = g->strides[i - 1];
        g->names[i] = g->names[i - 1];
    }
    g->sizes[d] = 1;
    g->strides[d] = st;
    g->names[d] = TL_NAME_NONE;
    g->ndim++;
    return 0;
}

int tl_unsqueeze(tl_tensor *out, const tl_tensor *t, int64_t dim)
{
    int d;
    tl_geom g;
    if (tl_wrap_dim(dim, t->ndim + 1, &d) < 0) return -1;
    tl_geom_of(&g, t);
    return tl_geom_unsqueeze(&g, d) < 0 ? -1 : tl_geom_view(out, t, &g);
}

int tl_narrow(tl_tensor *out, const tl_tensor *t, int64_t dim, int64_t start, int64_t length)
{
    int d;
    if (t->ndim == 0) return tl_err(TL_ERR_RUNTIME, "narrow() cannot be applied to a 0-dim tensor.");
    if (length < 0) return tl_err(TL_ERR_RUNTIME, "narrow(): length must be non-negative."); /* torch's order */
    if (tl_wrap_dim(dim, t->ndim, &d) < 0) return -1;
    int64_t size = t->sizes[d];
    if (start < -size || start > size)
        return tl_err(TL_ERR_INDEX, "start out of range (expected to be in range of [%lld, %lld], but got %lld)",
                      (long long)-size, (long long)size, (long long)start);
    if (start < 0) start += size;
    if (start > size - length)
        return tl_err(TL_ERR_RUNTIME, "start (%lld) + length (%lld) exceeds dimension size (%lld).", (long long)start,
                      (long long)length, (long long)size);
    return tl_slice(out, t, d, start, start + length, 1);
}

int tl_geom_slice(tl_geom *g, int d, int64_t start, int64_t stop, int64_t step)
{
    int64_t st, off;
    if (__builtin_mul_overflow(g->strides[d], step, &st) || __builtin_mul_overflow(start, g->strides[d], &off) ||
        __builtin_add_overflow(off, g->offset, &off))
        return tl_err(TL_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%s and strides=%s (slicing dimension %d "
                      "with step %lld)", tl_shape_str(g->sizes, g->ndim, (char[512]){0}, 512),
                      tl_shape_str(g->strides, g->ndim, (char[512]){0}, 512), d, (long long)step);
    g->sizes[d] = stop > start ? (stop - start - 1) / step + 1 : 0;
    g->strides[d] = st;
    g->offset = off;
    return 0;
}

int tl_slice(tl_tensor *out, const tl_tensor *t, int d, int64_t start, int64_t stop, int64_t step)
{
    tl_geom g;
    tl_geom_of(&g, t);
    return tl_geom_slice(&g, d, start, stop, step) < 0 ? -1 : tl_geom_view(out, t, &g);
}

void tl_geom_select(tl_geom *g, int d, int64_t index)
{
    g->offset += index * g->strides[d]; /* within the validated extent: no overflow */
    for (int i = d; i + 1 < g->ndim; i++) {
        g->sizes[i] = g->sizes[i + 1];
        g->strides[i] = g->strides[i + 1];
        g->names[i] = g->names[i + 1];
    }
    g->ndim--;
}

int tl_select(tl_tensor *out, const tl_tensor *t, int64_t dim, int64_t index)
{
    int d;
    if (t->ndim == 0) return tl_err(TL_ERR_INDEX, "select() cannot be applied to a 0-dim tensor.");
    if (tl_wrap_dim(dim, t->ndim, &d) < 0) return -1;
    int64_t size = t->sizes[d];
    if (index < -size || index >= size)
        return tl_err(TL_ERR_INDEX, "select(): index %lld out of range for tensor of size %s at dimension %d",
                      (long long)index, tl_shape_str(t->sizes, t->ndim, (char[512]){0}, 512), d);
    tl_geom g;
    tl_geom_of(&g, t);
    tl_geom_select(&g, d, index < 0 ? index + size : index);
    return tl_geom_view(out, t, &g);
}

int tl_diagonal(tl_tensor *out, const tl_tensor *t, int64_t offset, int64_t d1, int64_t d2, int32_t outname)
{
    int a, b;
    if (tl_wrap_dim(d1, t->ndim, &a) < 0 || tl_wrap_dim(d2, t->ndim, &b) < 0) return -1;
    if (a == b)
        return tl_err(TL_ERR_RUNTIME, "diagonal dimensions cannot be identical %lld, %lld", (long long)d1, (long long)d2);
    int64_t diag_size = 0, off = t->offset;
    /* offset is compared before it is added, so any int64 offset is safe */
    if (offset >= 0 && offset < t->sizes[b]) {
        diag_size = t->sizes[a] < t->sizes[b] - offset ? t->sizes[a] : t->sizes[b] - offset;
        off += offset * t->strides[b];
    } else if (offset < 0 && offset > -t->sizes[a]) {
        diag_size = t->sizes[a] + offset < t->sizes[b] ? t->sizes[a] + offset : t->sizes[b];
        off -= offset * t->strides[a];
    }
    int64_t sz[TL_MAX_DIMS], st[TL_MAX_DIMS];
    int32_t nm[TL_MAX_DIMS];
    int m = 0;
    for (int i = 0; i < t->ndim; i++) {
        if (i == a || i == b) continue;
        sz[m] = t->sizes[i];
        st[m] = t->strides[i];
        nm[m] = t->names ? t->names[i] : TL_NAME_NONE;
        m++;
    }
    sz[m] = diag_size;
    if (__builtin_add_overflow(t->strides[a], t->strides[b], &st[m]))
        return tl_err(TL_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%s and strides=%s",
                      tl_shape_str(t->sizes, t->ndim, (char[512]){0}, 512), tl_shape_str(t->strides, t->ndim, (char[512]){0}, 512));
    nm[m] = outname;
    m++;
    for (int i = 0; outname != TL_NAME_NONE && i < m - 1; i++)
        if (nm[i] == outname) {
            char buf[512];
            return tl_err(TL_ERR_RUNTIME, "Cannot construct a tensor with duplicate names. Got names: %s.",
                          tl_names_list_str(nm, m, 1, buf, sizeof buf));
        }
    if (tl_tensor_view_init(out, t, m, sz, st, diag_size ? off : t->offset) < 0) return -1;
    return t->names || outname != TL_NAME_NONE ? tl_tensor_set_names(out, nm) : 0;
}

int tl_as_strided(tl_tensor *out, const tl_tensor *t, const int64_t *sizes, const int64_t *strides, int n,
                  int64_t offset)
{
    if (n > TL_MAX_DIMS) return tl_err(TL_ERR_RUNTIME, "tensorlib supports at most %d dimensions", TL_MAX_DIMS);
    for (int i = 0; i < n; i++)
        if (strides[i] < 0)
            return tl_err(TL_ERR_RUNTIME, "as_strided: Negative strides are not supported at the moment, got strides: %s",
                          tl_shape_str(strides, n, (char[512]){0}, 512));
    return tl_tensor_view_init(out, t, n, sizes, strides, offset);
}

int tl_infer_size(const int64_t *req, int n, int64_t numel, int64_t *out)
{
    int infer = -1;
    int64_t prod = 1;
    for (int i = 0; i < n; i++) {
        if (req[i] == -1) {
            if (infer >= 0) return tl_err(TL_ERR_RUNTIME, "only one dimension can be inferred");
            infer = i;
        } else if (req[i] < 0) {
            return tl_err(TL_ERR_RUNTIME, "invalid shape dimension %lld", (long long)req[i]);
        } else if (__builtin_mul_overflow(prod, req[i], &prod)) {
            return tl_err(TL_ERR_RUNTIME, "shape '%s' is invalid for input of size %lld",
                          tl_shape_str(req, n, (char[512]){0}, 512), (long long)numel);
        }
        out[i] = req[i];
    }
    if (infer >= 0) {
        if (prod == 0)
            return tl_err(TL_ERR_RUNTIME, "cannot reshape tensor of 0 elements into shape %s because the unspecified "
                                          "dimension size -1 can be any value and is ambiguous",
                          tl_shape_str(req, n, (char[512]){0}, 512));
        if (numel % prod == 0) {
            out[infer] = numel / prod;
            return 0;
        }
    } else if (prod == numel) {
        return 0;
    }
    return tl_err(TL_ERR_RUNTIME, "shape '%s' is invalid for input of size %lld", tl_shape_str(req, n, (char[512]){0}, 512),
                  (long long)numel);
}

/* torch's computeStride: strides for viewing (sizes, strides) as new_sizes, or -1. */
static int compute_view_strides(const tl_tensor *t0, const int64_t *nsz, int n, int64_t *nst)
{
    /* a 0-d tensor views like a 1-element 1-d one */
    tl_tensor as1d = *t0;
    int64_t one[2] = {1, 1};
    if (t0->ndim == 0) {
        as1d.ndim = 1;
        as1d.sizes = one;
        as1d.strides = one + 1;
    }
    const tl_tensor *t = &as1d;
    int64_t numel = tl_numel(t);
    if (numel == 0) {
        tl_contiguous_strides(nsz, n, nst);
        return 0;
    }
    int view_d = n - 1;
    int64_t chunk_base_stride = t->ndim ? t->strides[t->ndim - 1] : 1;
    int64_t tensor_numel = 1, view_numel = 1;
    for (int td = t->ndim - 1; td >= 0; td--) {
        tensor_numel *= t->sizes[td];
        if (td == 0 || (t->sizes[td - 1] != 1 && t->strides[td - 1] != tensor_numel * chunk_base_stride)) {
            while (view_d >= 0 && (view_numel < tensor_numel || nsz[view_d] == 1)) {
                nst[view_d] = view_numel * chunk_base_stride;
                view_numel *= nsz[view_d];
                view_d--;
            }
            if (view_numel != tensor_numel) return -1;
            if (td > 0) {
                chunk_base_stride = t->strides[td - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    if (view_d != -1) return -1;
    return 0;
}

int tl_view(tl_tensor *out, const tl_tensor *t, const int64_t *sizes, int n)
{
    int64_t sz[TL_MAX_DIMS], st[TL_MAX_DIMS];
    if (named_unsupported(t, "view") < 0) return -1;
    if (n > TL_MAX_DIMS) return tl_err(TL_ERR_RUNTIME, "tensorlib supports at most %d dimensions", TL_MAX_DIMS);
    if (tl_infer_size(sizes, n, tl_numel(t), sz) < 0) return -1;
    if (compute_view_strides(t, sz, n, st) < 0)
        return tl_err(TL_ERR_RUNTIME, "view size is not compatible with input tensor's size and stride (at least one "
                                      "dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
    return tl_tensor_view_init(out, t, n, sz, st, t->offset);
}

int tl_reshape(tl_tensor *out, const tl_tensor *t, const int64_t *sizes, int n)
{
    int64_t sz[TL_MAX_DIMS], st[TL_MAX_DIMS];
    if (named_unsupported(t, "reshape") < 0) return -1;
    if (n > TL_MAX_DIMS) return tl_err(TL_ERR_RUNTIME, "tensorlib supports at most %d dimensions", TL_MAX_DIMS);
    if (tl_infer_size(sizes, n, tl_numel(t), sz) < 0) return -1;
    if (compute_view_strides(t, sz, n, st) == 0) return tl_tensor_view_init(out, t, n, sz, st, t->offset);
    tl_tensor tmp = {0};
    if (tl_clone(&tmp, t, (tl_dtype)t->dtype, TL_MEMFMT_CONTIGUOUS) < 0) return -1;
    int rc = tl_tensor_view_init(out, &tmp, n, sz, NULL, 0);
    tl_tensor_clear(&tmp);
    return rc;
}

int tl_view_dtype(tl_tensor *out, const tl_tensor *t, tl_dtype dtype)
{
    int old = tl_itemsize(t), new = tl_dtype_itemsize(dtype);
    if (old == new) {
        if (tl_tensor_alias(out, t) < 0) return -1;
        out->dtype = (uint8_t)dtype;
        return 0;
    }
    if (t->ndim == 0)
        return tl_err(TL_ERR_RUNTIME, "self.dim() cannot be 0 to view %s as %s (different element sizes)",
                      tl_dtype_infos[t->dtype].cname, tl_dtype_infos[dtype].cname);
    int last = t->ndim - 1;
    if (t->strides[last] != 1)
        return tl_err(TL_ERR_RUNTIME, "self.stride(-1) must be 1 to view %s as %s (different element sizes), but got %lld",
                      tl_dtype_infos[t->dtype].cname, tl_dtype_infos[dtype].cname, (long long)t->strides[last]);
    int64_t sz[TL_MAX_DIMS], st[TL_MAX_DIMS], off;
    if (new < old) {
        int r = old / new;
        /* strides and offset times r are the same bytes; only the last size can overflow */
        for (int i = 0; i < last; i++) { sz[i] = t->sizes[i]; st[i] = t->strides[i] * r; }
        if (__builtin_mul_overflow(t->sizes[last], (int64_t)r, &sz[last]))
            return tl_err(TL_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%s",
                          tl_shape_str(t->sizes, t->ndim, (char[512]){0}, 512));
        st[last] = 1;
        off = t->offset * r;
    } else {
        int r = new / old;
        if (t->sizes[last] % r)
            return tl_err(TL_ERR_RUNTIME, "self.size(-1) must be divisible by %d to view %s as %s (different element sizes), "
                                          "but got %lld", r, tl_dtype_infos[t->dtype].cname, tl_dtype_infos[dtype].cname,
                          (long long)t->sizes[last]);
        if (t->offset % r)
            return tl_err(TL_ERR_RUNTIME, "self.storage_offset() must be divisible by %d to view %s as %s (different element "
                                          "sizes), but got %lld", r, tl_dtype_infos[t->dtype].cname,
                          tl_dtype_infos[dtype].cname, (long long)t->offset);
        for (int i = 0; i < last; i++) {
            if (t->strides[i] % r)
                return tl_err(TL_ERR_RUNTIME, "self.stride(%d) must be divisible by %d to view %s as %s (different element "
                                              "sizes), but got %lld", i, r, tl_dtype_infos[t->dtype].cname,
                              tl_dtype_infos[dtype].cname, (long long)t->strides[i]);
            sz[i] = t->sizes[i];
            st[i] = t->strides[i] / r;
        }
        sz[last] = t->sizes[last] / r;
        st[last] = 1;
        off = t->offset / r;
    }
    if (tl_tensor_init(out, t->storage, off, t->ndim, sz, st, dtype) < 0) return -1;
    return tl_tensor_copy_names(out, t);
}

/* view_as_real: the complex elements' (re, im) pairs as a new last dim of size 2 with stride 1;
 * the other strides and the offset double. Any geometry works (a complex element's two halves
 * are always adjacent). The other dims keep their names; the new one is unnamed. */
int tl_view_as_real(tl_tensor *out, const tl_tensor *t)
{
    if (!tl_dtype_is_complex((tl_dtype)t->dtype))
        return tl_err(TL_ERR_RUNTIME, "view_as_real is only supported for complex tensors");
    if (t->ndim + 1 > TL_MAX_DIMS) return tl_err(TL_ERR_RUNTIME, "tensorlib supports at most %d dimensions", TL_MAX_DIMS);
    int64_t sz[TL_MAX_DIMS], st[TL_MAX_DIMS];
    int32_t nm[TL_MAX_DIMS];
    for (int i = 0; i < t->ndim; i++) {
        sz[i] = t->sizes[i];
        st[i] = t->strides[i] * 2;
        nm[i] = t->names ? t->names[i] : TL_NAME_NONE;
    }
    sz[t->ndim] = 2;
    st[t->ndim] = 1;
    nm[t->ndim] = TL_NAME_NONE;
    if (tl_tensor_init(out, t->storage, t->offset * 2, t->ndim + 1, sz, st, tl_dtype_to_real((tl_dtype)t->dtype)) < 0)
        return -1;
    return tl_tensor_set_names(out, t->names ? nm : NULL);
}

/* view_as_complex: a last dim of size 2 and stride 1 becomes one complex element; the other
 * strides and the offset halve (they must be even), with torch's checks in torch's order.
 * The last dim's name goes with it; the others keep theirs. */
int tl_view_as_complex(tl_tensor *out, const tl_tensor *t)
{
    tl_dtype d = (tl_dtype)t->dtype;
    if (d != TL_FLOAT16 && d != TL_FLOAT32 && d != TL_FLOAT64)
        return tl_err(TL_ERR_RUNTIME, "view_as_complex is only supported for half, float and double tensors, but got a "
                                      "tensor of scalar type: %s", tl_dtype_infos[d].cname);
    if (t->ndim == 0) return tl_err(TL_ERR_RUNTIME, "Input tensor must have one or more dimensions");
    int last = t->ndim - 1;
    if (t->sizes[last] != 2) return tl_err(TL_ERR_RUNTIME, "Tensor must have a last dimension of size 2");
    if (t->strides[last] != 1) return tl_err(TL_ERR_RUNTIME, "Tensor must have a last dimension with stride 1");
    int64_t sz[TL_MAX_DIMS], st[TL_MAX_DIMS];
    for (int i = 0; i < last; i++) {
        if (t->strides[i] % 2)
            return tl_err(TL_ERR_RUNTIME, "Tensor must have a stride divisible by 2 for all but last dimension");
        sz[i] = t->sizes[i];
        st[i] = t->strides[i] / 2;
    }
    if (t->offset % 2) return tl_err(TL_ERR_RUNTIME, "Tensor must have a storage_offset divisible by 2");
    if (tl_tensor_init(out, t->storage, t->offset / 2, last, sz, st, tl_dtype_to_complex(d)) < 0) return -1;
    return tl_tensor_set_names(out, t->names);
}

int tl_unfold(tl_tensor *out, const tl_tensor *t, int64_t dim, int64_t size, int64_t step)
{
    int d;
    if (tl_wrap_dim(dim, t->ndim, &d) < 0) return -1;
    if (named_unsupported(t, "unfold") < 0) return -1;
    int64_t dsize = t->ndim ? t->sizes[d] : 1, dstride = t->ndim ? t->strides[d] : 1;
    if (size > dsize)
        return tl_err(TL_ERR_RUNTIME, "maximum size for tensor at dimension %d is %lld but size is %lld", d,
                      (long long)dsize, (long long)size);
    if (size < 0) return tl_err(TL_ERR_RUNTIME, "size is %lld but must be >= 0", (long long)size);
    if (step <= 0) return tl_err(TL_ERR_RUNTIME, "step is %lld but must be > 0", (long long)step);
    if (t->ndim + 1 > TL_MAX_DIMS) return tl_err(TL_ERR_RUNTIME, "tensorlib supports at most %d dimensions", TL_MAX_DIMS);
    int64_t sz[TL_MAX_DIMS], st[TL_MAX_DIMS];
    int n = t->ndim;
    for (int i = 0; i < n; i++) { sz[i] = t->sizes[i]; st[i] = t->strides[i]; }
    if (n > 0) {
        sz[d] = (dsize - size) / step + 1;
        if (__builtin_mul_overflow(step, dstride, &st[d]))
            return tl_err(TL_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%s and strides=%s (unfold step %lld)",
                          tl_shape_str(t->sizes, n, (char[512]){0}, 512), tl_shape_str(t->strides, n, (char[512]){0}, 512),
                          (long long)step);
    }
    sz[n] = size;
    st[n] = dstride;
    return tl_tensor_view_init(out, t, n + 1, sz, st, t->offset);
}
