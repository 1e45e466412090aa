/* sort.c (backend) - the core's side of a backend's sort entry and its host runner. ops/sort.c
 * has checked the dtype, the dim and k as for the CPU; this lays the rows out contiguously on
 * the device (the sorted dim last), hands them over, and copies the first L of each sorted row
 * (or the one element selected: kthvalue, median, nanmedian) into contiguous results. tl_backend_sort_host sorts the same keys
 * (kernels/hd_sort.h) with the CPU's stable sort, for the tests' stand-in backend. */
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/sort_core.h"
#include "core/error.h"
#include "kernels/hd_sort.h"
#include "ops/copy.h"
#include "ops/sort.h"

int tl_backend_sort(tl_tensor *values, tl_tensor *indices, const tl_tensor *x, int d, bool descending, int64_t L,
                    int select, int64_t k, const char *name)
{
    const tl_device_backend *b = tl_backend_get(x->device.type);
    int bdt = tl_backend_dtype_code(x->dtype);
    bool empty = tl_numel(x) == 0 || L == 0; /* shapes only: any dtype, as the CPU's */
    if (!empty && (!b || !b->sort)) return tl_backend_refuse(name, x->device, -1);
    if (!empty && bdt < 0) return tl_backend_refuse(name, x->device, x->dtype);
    int nd = x->ndim;
    /* x with dim d moved last (a 0-d x is one row of one element) */
    int64_t ps[TL_MAX_DIMS], pst[TL_MAX_DIMS], os[TL_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < nd; i++)
        if (i != d) ps[n] = x->sizes[i], pst[n++] = x->strides[i];
    ps[n] = nd ? x->sizes[d] : 1;
    pst[n++] = nd ? x->strides[d] : 0;
    memcpy(os, x->sizes, sizeof(int64_t) * (size_t)nd);
    if (nd) os[d] = L;
    tl_tensor xc = {0}, sv = {0}, si = {0};
    int rc = tl_tensor_empty(values, nd, os, (tl_dtype)x->dtype, x->device, false);
    if (rc == 0) rc = tl_tensor_empty(indices, nd, os, TL_INT64, x->device, false);
    int64_t len = ps[n - 1], rows = len ? tl_numel(x) / len : 0;
    if (rc == 0 && rows > 0 && L > 0) {
        tl_tensor pv = tl_tensor_geom(x, n, ps, pst);
        rc = tl_clone(&xc, &pv, (tl_dtype)x->dtype, TL_MEMFMT_CONTIGUOUS);
        int64_t ss[TL_MAX_DIMS]; /* the sorted rows, or one selected element per row */
        memcpy(ss, ps, sizeof(int64_t) * (size_t)n);
        if (select != TL_BSS_ALL) ss[n - 1] = 1;
        if (rc == 0) rc = tl_tensor_empty(&sv, n, ss, (tl_dtype)x->dtype, x->device, false);
        if (rc == 0) rc = tl_tensor_empty(&si, n, ss, TL_INT64, x->device, false);
        if (rc == 0) {
            tl_backend_sort_call c;
            memset(&c, 0, sizeof c);
            c.size = sizeof c;
            c.device_index = x->device.index;
            c.dtype = bdt;
            c.descending = descending;
            c.select = select;
            c.k = k;
            c.nrows = rows;
            c.len = len;
            c.in = tl_data(&xc);
            c.values = tl_data(&sv);
            c.indices = (int64_t *)tl_data(&si);
            rc = b->sort(&c);
        }
        /* the first L of each sorted row, back into x's dim order */
        int64_t bs[TL_MAX_DIMS], vst[TL_MAX_DIMS], ist[TL_MAX_DIMS];
        for (int i = 0, j = 0; rc == 0 && i < nd; i++) {
            int src = i == d ? n - 1 : j++;
            bs[i] = i == d ? L : sv.sizes[src];
            vst[i] = sv.strides[src];
            ist[i] = si.strides[src];
        }
        if (rc == 0) {
            tl_tensor bv = tl_tensor_geom(&sv, nd, bs, vst), bi = tl_tensor_geom(&si, nd, bs, ist);
            rc = tl_copy_(values, &bv);
            if (rc == 0) rc = tl_copy_(indices, &bi);
        }
    }
    if (xc.storage) tl_tensor_clear(&xc);
    if (sv.storage) tl_tensor_clear(&sv);
    if (si.storage) tl_tensor_clear(&si);
    if (rc < 0) {
        if (values->storage) tl_tensor_clear(values);
        if (indices->storage) tl_tensor_clear(indices);
    }
    return rc;
}

int tl_backend_sort_host(const tl_backend_sort_call *c)
{
    if (c->size != sizeof *c || c->nrows < 0 || c->len < 0 || c->dtype < 0 || c->dtype >= TL_NUM_BDTS ||
        c->select < TL_BSS_ALL || c->select > TL_BSS_MODE || (c->select == TL_BSS_KTH && (c->k < 0 || c->k >= c->len)))
        return tl_err(TL_ERR_RUNTIME, "tensorlib: malformed backend sort call");
    tl_kv *kv = malloc(sizeof(tl_kv) * (size_t)(3 * c->len + 1));
    if (!kv) return tl_err(TL_ERR_MEMORY, "out of memory");
    int64_t isz = tl_hd_dt_size(c->dtype);
    for (int64_t r = 0; r < c->nrows; r++) {
        const char *row = c->in + r * c->len * isz;
        for (int64_t i = 0; i < c->len; i++) {
            uint64_t k = tl_hd_sort_key(row + i * isz, c->dtype);
            kv[i].key = c->descending && c->select == TL_BSS_ALL ? ~k : k;
            kv[i].idx = i;
        }
        tl_sort_kv(kv, c->len, kv + c->len);
        if (c->select != TL_BSS_ALL) {
            uint64_t *keys = (uint64_t *)(kv + c->len); /* the sorted keys alone, for the selection */
            for (int64_t i = 0; i < c->len; i++) keys[i] = kv[i].key;
            int64_t p = tl_hd_select_pos(c->select, c->k, keys, c->len, c->dtype);
            memcpy(c->values + r * isz, row + kv[p].idx * isz, (size_t)isz);
            c->indices[r] = kv[p].idx;
            continue;
        }
        for (int64_t i = 0; i < c->len; i++) {
            memcpy(c->values + (r * c->len + i) * isz, row + kv[i].idx * isz, (size_t)isz);
            c->indices[r * c->len + i] = kv[i].idx;
        }
    }
    free(kv);
    return 0;
}
