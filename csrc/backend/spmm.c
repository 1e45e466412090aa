/* spmm.c (backend) - the core's side of a backend's sparse-product entry (mm, mv, matmul, addmm
 * and tl.sparse.mm of device sparse tensors with a dense operand: tensorlib/_sparse_device.py
 * routes them here after torch's checks) and its host runner. A 2-D CSR, CSC or coalesced COO
 * matrix goes as it is stored (a transposed product flips the op, never the data); the dense
 * operand as it is laid out when its order matches the result's, else copied into that order.
 * tl_backend_spmm_host runs a call on host memory, for the tests' stand-in backend. */
#include <complex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/host_product.h"
#include "core/error.h"
#include "kernels/hd_math.h"
#include "ops/copy.h"
#include "sparse/sparse.h"

/* The contiguous 1-D view (or copy) of row `row` of a 2-D COO indices tensor, or of a whole
 * 1-D component (row < 0), in `tmp` (cleared by the caller); its data pointer. */
static const void *component_data(tl_tensor *tmp, const tl_tensor *t, int row)
{
    tl_tensor v = {0};
    int rc;
    if (row >= 0) {
        int64_t size = t->sizes[1], stride = t->strides[1];
        rc = tl_tensor_view_init(&v, t, 1, &size, &stride, t->offset + row * t->strides[0]);
    } else {
        rc = tl_tensor_alias(&v, t);
    }
    if (rc < 0) return NULL;
    rc = tl_contiguous(tmp, &v, TL_MEMFMT_CONTIGUOUS);
    tl_tensor_clear(&v);
    return rc < 0 ? NULL : tl_data(tmp);
}

/* Layout of a 2-D dense operand for the call: TL_BSP_ROW_MAJOR or _COL_MAJOR with its leading
 * dim, or -1 when neither fits (a copy is needed). */
static int dense_order(const tl_tensor *t, int64_t *ld)
{
    int64_t r = t->sizes[0], c = t->sizes[1];
    if ((t->strides[1] == 1 || c == 1) && t->strides[0] >= (c > 1 ? c : 1)) return *ld = t->strides[0], TL_BSP_ROW_MAJOR;
    if ((t->strides[0] == 1 || r == 1) && t->strides[1] >= (r > 1 ? r : 1)) return *ld = t->strides[1], TL_BSP_COL_MAJOR;
    return -1;
}

int tl_backend_spmm(tl_tensor *out, const tl_tensor *a, const tl_tensor *b, bool trans)
{
    const tl_sparse *sp = a->sparse;
    int fmt = a->layout == TL_LAYOUT_SPARSE_CSR ? TL_BSP_CSR : a->layout == TL_LAYOUT_SPARSE_CSC ? TL_BSP_CSC
              : a->layout == TL_LAYOUT_SPARSE_COO ? TL_BSP_COO : -1;
    if (fmt < 0 || a->ndim != 2 || sp->dense_dim != 0 || (fmt != TL_BSP_COO && sp->batch_dim != 0) ||
        (fmt == TL_BSP_COO && !sp->coalesced) || b->layout != TL_LAYOUT_STRIDED || (b->ndim != 1 && b->ndim != 2) ||
        b->dtype != a->dtype || !tl_device_eq(a->device, b->device) || b->sizes[0] != a->sizes[trans ? 0 : 1])
        return tl_err(TL_ERR_RUNTIME, "tensorlib: malformed sparse product (a 2-D CSR/CSC or coalesced COO matrix "
                      "without dense dims and a matching 1-D or 2-D dense operand on its device)");
    const tl_device_backend *be = tl_backend_get(a->device.type);
    if (!be || !be->spmm) return tl_backend_refuse("addmm", a->device, -1);
    int code = tl_backend_dtype_code(a->dtype);
    if (!(code == TL_BDT_FLOAT16 || code == TL_BDT_BFLOAT16 || code == TL_BDT_FLOAT32 || code == TL_BDT_FLOAT64 ||
          code == TL_BDT_COMPLEX64 || code == TL_BDT_COMPLEX128))
        return tl_backend_refuse("addmm", a->device, a->dtype);
    tl_backend_spmm_call call;
    memset(&call, 0, sizeof call);
    call.size = sizeof call;
    call.device_index = a->device.index;
    call.format = fmt;
    call.index_dtype = tl_backend_dtype_code(sp->indices.dtype);
    call.dtype = code;
    call.op_a = trans ? TL_BGEMM_OP_T : TL_BGEMM_OP_N;
    call.rows = a->sizes[0];
    call.cols = a->sizes[1];
    call.nnz = fmt == TL_BSP_COO ? sp->indices.sizes[1] : sp->plain.sizes[0];
    call.n = b->ndim == 2 ? b->sizes[1] : 0;
    call.alpha[0] = 1;
    /* the result (zeroed: beta is 0) in B's order when B has one, so that B is passed as it is */
    int64_t m = trans ? call.cols : call.rows, osize[2] = {m, call.n}, ost[2] = {call.n, 1};
    int order = b->ndim == 2 ? dense_order(b, &call.ldb) : TL_BSP_ROW_MAJOR;
    if (order == TL_BSP_COL_MAJOR) ost[0] = 1, ost[1] = m;
    if (tl_tensor_empty_strided(out, b->ndim, osize, b->ndim == 2 ? ost : (int64_t[]){1}, (tl_dtype)a->dtype,
                                a->device) < 0 || tl_fill_(out, tl_scalar_int(0)) < 0)
        return -1;
    if (call.nnz == 0 || tl_numel(out) == 0) return 0;
    int64_t limit = call.index_dtype == TL_BDT_INT32 ? INT32_MAX : INT64_MAX;
    tl_tensor off = {0}, ind = {0}, val = {0}, bc = {0};
    int rc = -1;
    if (order < 0 || (b->ndim == 1 && b->strides[0] != 1 && b->sizes[0] > 1)) { /* B copied row-major */
        if (tl_contiguous(&bc, b, TL_MEMFMT_CONTIGUOUS) < 0) goto done;
        order = b->ndim == 2 ? dense_order(&bc, &call.ldb) : TL_BSP_ROW_MAJOR;
    }
    call.order = order;
    if (b->ndim == 2) call.ldc = order == TL_BSP_COL_MAJOR ? m : call.n;
    call.b = tl_data(bc.storage ? &bc : b);
    call.c = tl_data(out);
    if (call.rows > limit || call.cols > limit || call.nnz > limit || call.n > limit || call.ldb > limit ||
        call.ldc > limit) {
        rc = tl_err(TL_ERR_RUNTIME, "sparse product: sizes exceed the int32 indices' range");
        goto done;
    }
    call.offsets = component_data(&off, &sp->indices, fmt == TL_BSP_COO ? 0 : -1);
    call.indices = call.offsets ? component_data(&ind, fmt == TL_BSP_COO ? &sp->indices : &sp->plain,
                                                 fmt == TL_BSP_COO ? 1 : -1) : NULL;
    call.values = call.indices ? component_data(&val, &sp->values, -1) : NULL;
    if (call.values) rc = be->spmm(&call);
done:
    tl_tensor_clear(&off);
    tl_tensor_clear(&ind);
    tl_tensor_clear(&val);
    tl_tensor_clear(&bc);
    if (rc < 0) tl_tensor_clear(out);
    return rc;
}

/* ---- the host runner ---- */

static int64_t index_at(const void *p, int idt, int64_t i)
{
    return idt == TL_BDT_INT32 ? ((const int32_t *)p)[i] : ((const int64_t *)p)[i];
}

int tl_backend_spmm_host(const tl_backend_spmm_call *c)
{
    bool trans = c->op_a == TL_BGEMM_OP_T;
    int64_t m = trans ? c->cols : c->rows, k = trans ? c->rows : c->cols, n = c->n > 0 ? c->n : 1;
    if (c->size != sizeof *c || c->rows < 1 || c->cols < 1 || c->nnz < 1 || c->n < 0 ||
        (c->op_a != TL_BGEMM_OP_N && !trans) || c->format < TL_BSP_CSR || c->format > TL_BSP_COO ||
        (c->index_dtype != TL_BDT_INT32 && c->index_dtype != TL_BDT_INT64) || c->dtype < TL_BDT_FLOAT16 ||
        c->dtype > TL_BDT_COMPLEX128 ||
        (c->n > 0 && (c->order == TL_BSP_ROW_MAJOR ? c->ldb < n || c->ldc < n : c->ldb < k || c->ldc < m)))
        return tl_err(TL_ERR_RUNTIME, "tensorlib: malformed backend spmm call");
    int dt = c->dtype, idt = c->index_dtype;
    int64_t isz = tl_hd_dt_size(dt);
    bool beta0 = c->beta[0] == 0 && c->beta[1] == 0;
    double complex alpha = c->alpha[0] + c->alpha[1] * I, beta = c->beta[0] + c->beta[1] * I;
    /* element (r, s) of B (k x n) and C (m x n); vectors are one contiguous column */
    int64_t brs = c->n == 0 ? 1 : c->order == TL_BSP_ROW_MAJOR ? c->ldb : 1;
    int64_t bcs = c->n == 0 ? 0 : c->order == TL_BSP_ROW_MAJOR ? 1 : c->ldb;
    int64_t crs = c->n == 0 ? 1 : c->order == TL_BSP_ROW_MAJOR ? c->ldc : 1;
    int64_t ccs = c->n == 0 ? 0 : c->order == TL_BSP_ROW_MAJOR ? 1 : c->ldc;
    double complex *acc = calloc((size_t)(m * n), sizeof *acc);
    if (!acc) return tl_err(TL_ERR_MEMORY, "out of memory");
    int64_t seg = c->format == TL_BSP_CSR ? c->rows : c->format == TL_BSP_CSC ? c->cols : 0;
    for (int64_t i = 0, o = 0; i < c->nnz; i++) {
        int64_t r, s; /* A's stored (row, column) of element i */
        if (c->format == TL_BSP_COO) {
            r = index_at(c->offsets, idt, i);
            s = index_at(c->indices, idt, i);
        } else {
            while (o < seg && index_at(c->offsets, idt, o + 1) <= i) o++;
            r = c->format == TL_BSP_CSR ? o : index_at(c->indices, idt, i);
            s = c->format == TL_BSP_CSR ? index_at(c->indices, idt, i) : o;
        }
        double complex v = tl_host_load(c->values + i * isz, dt);
        int64_t dr = trans ? s : r, br = trans ? r : s; /* C's row gets v * B's row */
        for (int64_t j = 0; j < n; j++) acc[dr * n + j] += v * tl_host_load(c->b + (br * brs + j * bcs) * isz, dt);
    }
    for (int64_t r = 0; r < m; r++)
        for (int64_t j = 0; j < n; j++)
            tl_host_store(c->c + (r * crs + j * ccs) * isz, dt, acc[r * n + j], alpha, beta, beta0);
    free(acc);
    return 0;
}
