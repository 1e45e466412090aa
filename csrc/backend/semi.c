/* semi.c (backend) - the core's side of a backend's 2:4 semi-structured entry (the products of
 * a SparseSemiStructuredTensor on a device: tensorlib/_semi_structured.py keeps the compressed
 * buffer next to values and metadata and sends S @ B and A @ S here) and its host runner.
 * The operands go row-major contiguous (a copy on the device when they are not); an int8
 * product comes back as int32 and is cast to int8 on the device, as the CPU casts it.
 * tl_backend_semi_host runs a call on host memory, for the tests' stand-in backend: its
 * "compressed buffer" is the pruned dense matrix itself. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "core/error.h"
#include "kernels/hd_math.h"
#include "ops/copy.h"

/* A call of mode `mode` for an S of rows x cols on dev (the rest zero). */
static tl_backend_semi_call semi_call(tl_device dev, int mode, int code, bool left, int64_t rows, int64_t cols)
{
    tl_backend_semi_call call;
    memset(&call, 0, sizeof call);
    call.size = sizeof call;
    call.device_index = dev.index;
    call.mode = mode;
    call.dtype = code;
    call.left = left;
    call.rows = rows;
    call.cols = cols;
    return call;
}

/* The backend entry of t's device and the call's dtype code, or -1 with NotImplementedError
 * (no backend entry, or a dtype the call lacks: float32 and the others). */
static const tl_device_backend *entry(const tl_tensor *t, int dtype, const char *op, int *code)
{
    const tl_device_backend *be = tl_backend_get(t->device.type);
    if (!be || !be->semi) return tl_backend_refuse(op, t->device, -1), NULL;
    *code = tl_backend_dtype_code(dtype);
    if (*code != TL_BDT_FLOAT16 && *code != TL_BDT_BFLOAT16 && *code != TL_BDT_INT8)
        return tl_backend_refuse(op, t->device, dtype), NULL;
    return be;
}

int tl_backend_semi_compress(tl_tensor *compressed, int64_t *size, const tl_tensor *dense, bool left)
{
    if (dense->layout != TL_LAYOUT_STRIDED || dense->ndim != 2 || dense->device.type == TL_DEV_CPU)
        return tl_err(TL_ERR_RUNTIME, "tensorlib: malformed 2:4 compression (a 2-D strided device matrix)");
    int code;
    const tl_device_backend *be = entry(dense, dense->dtype, "to_sparse_semi_structured", &code);
    if (!be) return -1;
    int64_t g = code == TL_BDT_INT8 ? 32 : 16;
    if (dense->sizes[0] < 1 || dense->sizes[1] < 1 || dense->sizes[1] % g)
        return tl_err(TL_ERR_RUNTIME, "tensorlib: malformed 2:4 compression (columns a multiple of %lld)", (long long)g);
    tl_backend_semi_call call = semi_call(dense->device, TL_BSEMI_SIZE, code, left, dense->sizes[0], dense->sizes[1]);
    if (be->semi(&call) < 0) return -1;
    *size = call.compressed_size;
    if (!compressed) return 0;
    if (compressed->layout != TL_LAYOUT_STRIDED || compressed->dtype != TL_UINT8 || compressed->ndim != 1 ||
        compressed->sizes[0] != call.compressed_size || compressed->strides[0] != 1 ||
        !tl_device_eq(compressed->device, dense->device))
        return tl_err(TL_ERR_RUNTIME, "tensorlib: the compressed buffer is not a contiguous uint8 tensor of %lld "
                      "bytes on the matrix's device", (long long)call.compressed_size);
    tl_tensor c = {0};
    if (tl_contiguous(&c, dense, TL_MEMFMT_CONTIGUOUS) < 0) return -1;
    call.mode = TL_BSEMI_COMPRESS;
    call.dense = tl_data(&c);
    call.compressed = tl_data(compressed);
    int rc = be->semi(&call);
    tl_tensor_clear(&c);
    return rc;
}

/* c (cleared) = the call's product (call->dtype's result dtype: int32 for int8), b copied
 * row-major contiguous first when it is not. */
static int semi_product(tl_tensor *c, const tl_device_backend *be, tl_backend_semi_call *call,
                        const tl_tensor *compressed, const tl_tensor *b)
{
    int64_t osize[2] = {call->left ? call->rows : call->n, call->left ? call->n : call->cols};
    tl_dtype odt = call->dtype == TL_BDT_INT8 ? TL_INT32 : (tl_dtype)b->dtype;
    if (tl_tensor_empty(c, 2, osize, odt, b->device, false) < 0) return -1;
    if (call->n == 0) return 0; /* an empty result */
    tl_tensor bc = {0};
    int rc = tl_contiguous(&bc, b, TL_MEMFMT_CONTIGUOUS);
    if (rc == 0) {
        call->compressed = tl_data(compressed);
        call->b = tl_data(&bc);
        call->c = tl_data(c);
        rc = be->semi(call);
    }
    tl_tensor_clear(&bc);
    if (rc < 0) tl_tensor_clear(c);
    return rc;
}

int tl_backend_semi_mm(tl_tensor *out, const tl_tensor *compressed, int64_t rows, int64_t cols, int dtype,
                       const tl_tensor *b, bool left)
{
    if (b->layout != TL_LAYOUT_STRIDED || b->ndim != 2 || !tl_device_eq(b->device, compressed->device) ||
        b->dtype != dtype || b->sizes[left ? 0 : 1] != (left ? cols : rows) || rows < 1 || cols < 1 ||
        compressed->dtype != TL_UINT8 || compressed->ndim != 1 || compressed->strides[0] != 1)
        return tl_err(TL_ERR_RUNTIME, "tensorlib: malformed 2:4 product (a compressed buffer and a matching 2-D "
                      "dense operand of its dtype on its device)");
    int code;
    const tl_device_backend *be = entry(b, dtype, "mm", &code);
    if (!be) return -1;
    tl_backend_semi_call call = semi_call(b->device, TL_BSEMI_MM, code, left, rows, cols);
    call.n = b->sizes[left ? 1 : 0];
    call.compressed_size = compressed->sizes[0];
    tl_dtype odt = code == TL_BDT_INT8 ? TL_INT32 : (tl_dtype)dtype;
    if (odt == (tl_dtype)dtype) /* written in place: the result itself */
        return semi_product(out, be, &call, compressed, b);
    tl_tensor c = {0}; /* an int32 product, cast as the CPU casts it */
    int rc = semi_product(&c, be, &call, compressed, b);
    if (rc == 0) rc = tl_clone(out, &c, (tl_dtype)dtype, TL_MEMFMT_CONTIGUOUS);
    tl_tensor_clear(&c);
    return rc;
}

/* ---- the host runner ---- */

int tl_backend_semi_host(tl_backend_semi_call *c)
{
    int dt = c->dtype;
    int64_t g = dt == TL_BDT_INT8 ? 32 : 16;
    if (c->size != sizeof *c || (dt != TL_BDT_FLOAT16 && dt != TL_BDT_BFLOAT16 && dt != TL_BDT_INT8) ||
        c->rows < 1 || c->cols < 1 || c->cols % g || c->mode < TL_BSEMI_SIZE || c->mode > TL_BSEMI_MM ||
        (c->left != 0 && c->left != 1) || (c->mode == TL_BSEMI_MM && c->n < 1))
        return tl_err(TL_ERR_RUNTIME, "tensorlib: malformed backend semi call");
    int64_t isz = tl_hd_dt_size(dt), bytes = c->rows * c->cols * isz;
    if (c->mode == TL_BSEMI_SIZE) {
        c->compressed_size = bytes;
        return 0;
    }
    if (c->compressed_size != bytes) return tl_err(TL_ERR_RUNTIME, "tensorlib: backend semi call: wrong buffer size");
    if (c->mode == TL_BSEMI_COMPRESS) {
        memcpy(c->compressed, c->dense, (size_t)bytes);
        return 0;
    }
    /* left: C (rows x n) = S @ B (cols x n); else C (n x cols) = B (n x rows) @ S */
    int64_t m = c->left ? c->rows : c->n, k = c->left ? c->cols : c->rows, n = c->left ? c->n : c->cols;
    const char *a = c->left ? c->compressed : c->b, *b = c->left ? c->b : c->compressed;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            if (dt == TL_BDT_INT8) { /* int32 arithmetic wrapping, as the CPU's int32 kernel */
                uint32_t acc = 0;
                for (int64_t p = 0; p < k; p++)
                    acc += (uint32_t)((int32_t)((const int8_t *)a)[i * k + p] * (int32_t)((const int8_t *)b)[p * n + j]);
                int32_t v = (int32_t)acc;
                memcpy(c->c + (i * n + j) * 4, &v, 4);
            } else { /* float32 accumulation, rounded once */
                float acc = 0, x, y;
                for (int64_t p = 0; p < k; p++) {
                    tl_hd_convert(&x, TL_BDT_FLOAT32, a + (i * k + p) * isz, dt);
                    tl_hd_convert(&y, TL_BDT_FLOAT32, b + (p * n + j) * isz, dt);
                    acc += x * y;
                }
                tl_hd_convert(c->c + (i * n + j) * isz, dt, &acc, TL_BDT_FLOAT32);
            }
        }
    return 0;
}
