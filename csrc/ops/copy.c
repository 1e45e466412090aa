/* copy.c - copy_, fill_, clone and contiguous, all through the iterator. */
#include "ops/copy.h"

#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/ew_core.h"
#include "core/error.h"
#include "core/iter.h"
#include "core/overlap.h"
#include "core/promote.h"
#include "core/parallel.h"
#include "kernels/cast.h"
#include "named/unify.h"
#include "ops/view.h"

static bool same_shape(const tl_tensor *a, const tl_tensor *b)
{
    return a->ndim == b->ndim && !memcmp(a->sizes, b->sizes, sizeof(int64_t) * a->ndim);
}

typedef struct { tl_loop_fn loop; char *dst; char *src; int64_t dsz, ssz; } flat_args;

static void flat_chunk(int64_t b, int64_t e, void *p)
{
    flat_args *a = p;
    char *data[2] = {a->dst + b * a->dsz, a->src + b * a->ssz};
    int64_t st[2] = {a->dsz, a->ssz};
    a->loop(data, st, e - b, NULL);
}

/* The conversion loop, or NULL with torch's error when there is none. */
static tl_loop_fn cast_loop_or_err(tl_dtype from, tl_dtype to)
{
    tl_loop_fn loop = tl_cast_loop(from, to);
    if (!loop)
        tl_err(TL_ERR_RUNTIME, "copy_: conversion from %s to %s is not supported", tl_dtype_infos[from].name,
               tl_dtype_infos[to].name);
    return loop;
}

/* A copy within a backend's device (CUDA) that only moves bytes: same dtype, dense, the same
 * geometry (clone, copy_ between like tensors): one device-to-device copy. */
static bool bytes_copy(const tl_tensor *dst, const tl_tensor *src)
{
    return dst->dtype == src->dtype && dst->ndim == src->ndim && tl_is_non_overlapping_and_dense(src) &&
           !memcmp(dst->sizes, src->sizes, sizeof(int64_t) * dst->ndim) &&
           !memcmp(dst->strides, src->strides, sizeof(int64_t) * dst->ndim);
}

int tl_copy_(tl_tensor *dst, const tl_tensor *src) { return tl_copy_nb_(dst, src, false); }

int tl_copy_nb_(tl_tensor *dst, const tl_tensor *src, bool non_blocking)
{
    if (tl_check_writable(dst) < 0) return -1;
    bool meta = dst->device.type == TL_DEV_META;
    if (src->device.type == TL_DEV_META && !meta) return tl_err(TL_ERR_NOTIMPL, "Cannot copy out of meta tensor; no data!");
    tl_loop_fn loop = cast_loop_or_err((tl_dtype)src->dtype, (tl_dtype)dst->dtype);
    if (!loop) return -1;
    if (dst == src || tl_numel(dst) == 0) return 0;
    if (src->ndim > dst->ndim) {
        int64_t shp[TL_MAX_DIMS];
        int n;
        if (tl_broadcast_shapes(dst->sizes, dst->ndim, src->sizes, src->ndim, shp, &n) < 0) return -1;
        return tl_err(TL_ERR_RUNTIME, "output with shape %s doesn't match the broadcast shape %s",
                      tl_shape_str(dst->sizes, dst->ndim, (char[512]){0}, 512), tl_shape_str(shp, n, (char[512]){0}, 512));
    }
    if (meta) { /* any source copies into a meta tensor: only the broadcast is checked */
        tl_tensor from = tl_tensor_geom(src, src->ndim, src->sizes, src->strides);
        from.device = dst->device;
        const tl_tensor *ops[2] = {dst, &from};
        tl_iter it;
        return tl_iter_init(&it, 2, ops, dst->sizes, dst->ndim, 0);
    }
    if (!tl_device_eq(dst->device, src->device)) { /* between the host and a device, or two devices */
        if (tl_check_internal_overlap(dst) < 0) return -1;
        return tl_backend_copy_across(dst, src, non_blocking);
    }
    if (tl_check_internal_overlap(dst) < 0) return -1;
    if (tl_may_overlap(dst, src)) {
        /* torch's rule: dense operands overlapping other than exactly are an error;
         * overlaps too hard to judge (non-dense operands) or broadcast sources are
         * read through a temporary, so the result never depends on the loop order. */
        tl_overlap ov = tl_overlap_status(dst, src);
        if (ov == TL_OVERLAP_PARTIAL) return tl_check_partial_overlap(dst, src);
        if (ov == TL_OVERLAP_TOO_HARD || !same_shape(dst, src)) {
            tl_tensor tmp = {0};
            if (tl_clone(&tmp, src, (tl_dtype)src->dtype, TL_MEMFMT_CONTIGUOUS) < 0) return -1;
            int rc = tl_copy_(dst, &tmp);
            tl_tensor_clear(&tmp);
            return rc;
        }
        if (dst->dtype == src->dtype) return 0;
    }
    if (dst->device.type != TL_DEV_CPU) {
        /* a backend's device: its strided element-wise entry with the identity op converts and
         * copies through both tensors' strides (src broadcast to dst) */
        const tl_device_backend *b = tl_backend_get(dst->device.type);
        if (bytes_copy(dst, src) && b && b->copy)
            return b->copy(tl_data(dst), dst->device, tl_data(src), src->device,
                           (size_t)tl_numel(src) * (size_t)tl_itemsize(src));
        tl_tensor d = *dst, s = *src;
        if (dst->dtype == src->dtype && tl_backend_dtype_code(dst->dtype) < 0) {
            /* a dtype the backend has no arithmetic for (float8, complex32) moves as the
             * integers (or complex128) of its size: the same bits */
            static const tl_dtype as_bits[17] = {[1] = TL_UINT8, [2] = TL_INT16, [4] = TL_INT32, [8] = TL_INT64,
                                                 [16] = TL_COMPLEX128};
            d.dtype = s.dtype = as_bits[tl_itemsize(dst)];
        }
        const tl_tensor *ops[2] = {&d, &s};
        bool scalar = false;
        return tl_backend_elementwise("copy", "copy_", 1, d.dtype, ops, &scalar, d.sizes, d.ndim, NULL);
    }
    if (same_shape(dst, src) && tl_is_contiguous(dst) && tl_is_contiguous(src)) {
        /* the common case needs no iterator: one flat loop, split across threads */
        flat_args a = {loop, tl_data(dst), tl_data(src), tl_itemsize(dst), tl_itemsize(src)};
        tl_parallel_for(tl_numel(dst), TL_GRAIN_SIZE * 4, flat_chunk, &a);
        return 0;
    }
    const tl_tensor *ops[2] = {dst, src};
    tl_iter it;
    if (tl_iter_init(&it, 2, ops, dst->sizes, dst->ndim, TL_ITER_TILE_INPUTS) < 0) return -1;
    tl_iter_run(&it, loop, NULL, TL_GRAIN_SIZE * 4);
    return 0;
}

int tl_fill_(tl_tensor *t, tl_scalar s)
{
    char buf[16];
    if (tl_check_writable(t) < 0) return -1;
    if (t->device.type == TL_DEV_META) return 0; /* no elements to fill */
    if (t->dtype == TL_FLOAT4_E2M1FN_X2) {
        if (s.kind != TL_KIND_BOOL && !(s.kind == TL_KIND_INT && s.v.i == 0) && !(s.kind == TL_KIND_FLOAT && s.v.d == 0))
            return tl_err_dispatch(TL_ERR_NOTIMPL, TL_FLOAT4_E2M1FN_X2, "fill_cpu"); /* torch: only its zero fast path works */
        memset(buf, 0, sizeof buf);
    } else if (tl_scalar_to_bytes(s, (tl_dtype)t->dtype, buf) < 0) {
        return -1;
    }
    if (t->device.type != TL_DEV_CPU) /* the host makes the bytes, the backend stores them */
        return tl_backend_fill(t, buf);
    const tl_tensor *ops[1] = {t};
    tl_iter it;
    if (tl_iter_init(&it, 1, ops, t->sizes, t->ndim, 0) < 0) return -1;
    tl_iter_run(&it, tl_fill_loop(tl_itemsize(t)), buf, TL_GRAIN_SIZE * 4);
    return 0;
}

int tl_clone(tl_tensor *out, const tl_tensor *src, tl_dtype dtype, tl_memory_format fmt)
{
    if (tl_tensor_empty_like(out, src, dtype, fmt) < 0) return -1;
    if (tl_copy_(out, src) < 0) {
        tl_tensor_clear(out);
        return -1;
    }
    return tl_tensor_copy_names(out, src);
}

int tl_contiguous(tl_tensor *out, const tl_tensor *src, tl_memory_format fmt)
{
    if (tl_is_contiguous_format(src, fmt)) return tl_tensor_alias(out, src);
    return tl_clone(out, src, (tl_dtype)src->dtype, fmt);
}

int tl_copy_setitem(tl_tensor *dst, const tl_tensor *src)
{
    int lead = 0;
    while (lead < src->ndim && src->sizes[lead] == 1) lead++;
    tl_tensor v = {0}, e = {0};
    int rc = tl_tensor_view_init(&v, src, src->ndim - lead, src->sizes + lead, src->strides + lead, src->offset);
    if (rc == 0) rc = tl_expand(&e, &v, dst->sizes, dst->ndim);
    if (rc == 0) rc = tl_copy_(dst, &e);
    tl_tensor_clear(&e);
    tl_tensor_clear(&v);
    return rc;
}

int tl_copy_named_(tl_tensor *dst, const tl_tensor *src, bool non_blocking)
{
    int32_t names[TL_MAX_DIMS];
    int r = 0;
    if ((dst->names || src->names) && src->ndim <= dst->ndim && (r = tl_names_unify(names, dst, src, dst->ndim)) < 0)
        return -1;
    if (tl_copy_nb_(dst, src, non_blocking) < 0) return -1;
    return r > 0 ? tl_tensor_set_names(dst, names) : 0;
}

int tl_write_out(tl_tensor *out, const tl_tensor *result, bool exact_dtype, int *resized)
{
    *resized = 0;
    if (tl_check_writable(out) < 0) return -1;
    if (exact_dtype && out->dtype != result->dtype)
        return tl_err(TL_ERR_RUNTIME, "Expected out tensor to have dtype %s, but got %s instead",
                      tl_dtype_typemeta((tl_dtype)result->dtype), tl_dtype_typemeta((tl_dtype)out->dtype));
    if (!exact_dtype && tl_check_can_cast((tl_dtype)result->dtype, (tl_dtype)out->dtype) < 0) return -1;
    if (!cast_loop_or_err((tl_dtype)result->dtype, (tl_dtype)out->dtype)) return -1;  /* before out is resized */
    bool same = out->ndim == result->ndim;
    for (int i = 0; same && i < out->ndim; i++) same = out->sizes[i] == result->sizes[i];
    if (tl_names_check_out(out, result->ndim, result->sizes, result->names) < 0) return -1;
    if (!same) {
        *resized = tl_numel(out) != 0;
        if (tl_tensor_empty(out, result->ndim, result->sizes, (tl_dtype)out->dtype, out->device, false) < 0) return -1;
    }
    if (tl_copy_(out, result) < 0) return -1;
    return result->names && !out->names ? tl_tensor_set_names(out, result->names) : 0;
}
