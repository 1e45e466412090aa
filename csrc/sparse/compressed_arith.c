/* compressed_arith.c - the pattern of the element-wise product of two compressed tensors of
 * one layout (CSR, CSC, or the block grid of BSR/BSC): per compressed slice, the plain
 * indices both hold, found by one merge of the two sorted lists. The caller multiplies the
 * values the positions name (tensorlib/_sparse_compressed_ops.py), so no per-dtype code
 * lives here. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "ops/copy.h"
#include "sparse/compressed.h"
#include "sparse/sparse.h"

static inline int64_t idx_at(const char *p, bool i32, int64_t i)
{
    if (i32) {
        int32_t v;
        memcpy(&v, p + 4 * i, 4);
        return v;
    }
    int64_t v;
    memcpy(&v, p + 8 * i, 8);
    return v;
}

typedef struct {
    const char *ci, *pi;
    bool i32;
    int64_t nse;
} side;

static int side_init(side *s, tl_tensor *ci, tl_tensor *pi, const tl_tensor *t)
{
    if (tl_contiguous(ci, &t->sparse->indices, TL_MEMFMT_CONTIGUOUS) < 0 ||
        tl_contiguous(pi, &t->sparse->plain, TL_MEMFMT_CONTIGUOUS) < 0)
        return -1;
    s->ci = tl_data(ci);
    s->pi = tl_data(pi);
    s->i32 = ci->dtype == TL_INT32;
    s->nse = pi->sizes[pi->ndim - 1];
    if ((pi->dtype == TL_INT32) != s->i32) return tl_err(TL_ERR_RUNTIME, "mul: index dtypes of one tensor differ");
    return 0;
}

/* Slice r of s: [*lo, *hi) checked against nse (the components may come unchecked). */
static int bounds(const side *s, int64_t r, int64_t *lo, int64_t *hi)
{
    *lo = idx_at(s->ci, s->i32, r);
    *hi = idx_at(s->ci, s->i32, r + 1);
    if (*lo < 0 || *hi < *lo || *hi > s->nse)
        return tl_err(TL_ERR_RUNTIME, "mul: compressed indices are not valid (slice %lld holds [%lld, %lld) of %lld)",
                      (long long)r, (long long)*lo, (long long)*hi, (long long)s->nse);
    return 0;
}

int tl_compressed_intersect(tl_tensor *ci_out, tl_tensor *pi_out, tl_tensor *pa_out, tl_tensor *pb_out,
                            const tl_tensor *a, const tl_tensor *b)
{
    if (!tl_layout_is_compressed(a->layout) || a->layout != b->layout || a->sparse->batch_dim || b->sparse->batch_dim ||
        a->sparse->indices.sizes[0] != b->sparse->indices.sizes[0])
        return tl_err(TL_ERR_RUNTIME, "mul: two unbatched compressed tensors of one layout and shape expected");
    tl_tensor aci = {0}, api = {0}, bci = {0}, bpi = {0};
    side A, B;
    int rc = -1;
    int64_t R = a->sparse->indices.sizes[0] - 1, n = 0, lo, hi, lo2, hi2;
    if (side_init(&A, &aci, &api, a) < 0 || side_init(&B, &bci, &bpi, b) < 0) goto done;
    int64_t csz = R + 1;
    if (tl_tensor_empty(ci_out, 1, &csz, TL_INT64, a->device, false) < 0) goto done;
    int64_t *co = (int64_t *)tl_data(ci_out);
    co[0] = 0;
    for (int pass = 0; pass < 2; pass++) { /* count, then fill */
        int64_t *po = NULL, *xa = NULL, *xb = NULL;
        if (pass) {
            if (tl_tensor_empty(pi_out, 1, &n, TL_INT64, a->device, false) < 0 ||
                tl_tensor_empty(pa_out, 1, &n, TL_INT64, a->device, false) < 0 ||
                tl_tensor_empty(pb_out, 1, &n, TL_INT64, a->device, false) < 0)
                goto done;
            po = (int64_t *)tl_data(pi_out);
            xa = (int64_t *)tl_data(pa_out);
            xb = (int64_t *)tl_data(pb_out);
        }
        int64_t k = 0;
        for (int64_t r = 0; r < R; r++) {
            if (bounds(&A, r, &lo, &hi) < 0 || bounds(&B, r, &lo2, &hi2) < 0) goto done;
            int64_t i = lo, j = lo2;
            if (i < hi && j < hi2) {
                int64_t u = idx_at(A.pi, A.i32, i), v = idx_at(B.pi, B.i32, j);
                for (;;) {
                    if (u < v) {
                        if (++i == hi) break;
                        u = idx_at(A.pi, A.i32, i);
                    } else if (v < u) {
                        if (++j == hi2) break;
                        v = idx_at(B.pi, B.i32, j);
                    } else {
                        if (pass) po[k] = u, xa[k] = i, xb[k] = j;
                        k++;
                        if (++i == hi || ++j == hi2) break;
                        u = idx_at(A.pi, A.i32, i);
                        v = idx_at(B.pi, B.i32, j);
                    }
                }
            }
            if (!pass) co[r + 1] = k;
        }
        n = k;
    }
    rc = 0;
done:
    tl_tensor_clear(&aci);
    tl_tensor_clear(&api);
    tl_tensor_clear(&bci);
    tl_tensor_clear(&bpi);
    return rc;
}
