/* hd_index.h - the element steps of the backend's index entry (tl_backend_index_call in
 * backend/backend.h), compiled for the host (C11) and the device (nvcc) like hd_math.h:
 * the checked offset of one index value, the move of one element and the combination of
 * PUT_ADD/_MUL/_MAX/_MIN (in the dtype, float16/bfloat16 through float32 with one rounding, as
 * the CPU's scatter loops). backend/index.c runs them per element on the host (the tests' stand-in
 * backend); csrc/cuda/index.cu per thread, with the addition made atomic. */
#ifndef TL_HD_INDEX_H
#define TL_HD_INDEX_H

#include "kernels/hd_math.h"

/* The byte offset of the index value at ix into *off: 1, or 0 when it is out of range. */
static inline TL_HD int tl_hd_index_offset(const char *ix, int flags, int64_t step, int64_t bound, int64_t *off)
{
    int64_t k = (flags & TL_BIX_IDX32) ? (int64_t) * (const int32_t *)ix : *(const int64_t *)ix;
    if (flags & TL_BIX_RAW) {
        *off = k;
        return 1;
    }
    if (k < 0 && (flags & TL_BIX_WRAP)) k += bound;
    if ((uint64_t)k >= (uint64_t)bound) return 0;
    *off = k * step;
    return 1;
}

/* One element of elsize bytes (1, 2, 4, 8 or 16; every operand is aligned to its dtype). */
static inline TL_HD void tl_hd_move(char *d, const char *s, int elsize)
{
    switch (elsize) {
    case 1: *(uint8_t *)d = *(const uint8_t *)s; break;
    case 2: *(uint16_t *)d = *(const uint16_t *)s; break;
    case 4: *(uint32_t *)d = *(const uint32_t *)s; break;
    case 8: *(uint64_t *)d = *(const uint64_t *)s; break;
    default: memcpy(d, s, 16); break;
    }
}

/* *d = *d op *s in dtype dt (TL_BDT_*) for op TL_BOP_ADD or TL_BOP_MUL, not atomic: the dtype's
 * own arithmetic (integers wrap, bool is or / and), float16/bfloat16 through float32 rounded
 * once. */
static inline TL_HD void tl_hd_arith_into(char *d, const char *s, int dt, int op)
{
    if (dt == TL_BDT_FLOAT16 || dt == TL_BDT_BFLOAT16) {
        tl_hd_ew_f32(op, 2, d, dt, d, dt, s, dt);
        return;
    }
    switch (dt) {
#define TL_X_ARITH(S, ID, ...) case TL_BDT_##ID: tl_hd_ew_##S(op, 2, d, dt, d, dt, s, dt); break;
        TL_HD_DTYPES(TL_X_ARITH)
#undef TL_X_ARITH
    default: break;
    }
}

static inline TL_HD void tl_hd_add_into(char *d, const char *s, int dt) { tl_hd_arith_into(d, s, dt, TL_BOP_ADD); }

/* *d = the larger (mx) or smaller of *d and *s, not atomic, as the CPU's scatter amax/amin: a NaN
 * in *d stays, else a NaN in *s wins, else *s unless *d is strictly larger (smaller); float16 and
 * bfloat16 compare as float32 and keep the chosen element's bits. */
#define TL_HD_PICK_S(A, B) (mx ? !((A) > (B)) : !((A) < (B)))
#define TL_HD_PICK_S_NAN(A, B) (((A) != (A)) ? false : ((B) != (B)) ? true : TL_HD_PICK_S(A, B))
static inline TL_HD void tl_hd_order_into(char *d, const char *s, int dt, bool mx)
{
    bool take;
    int size = 0;
    switch (dt) {
#define TL_X_ORD(ID, T, PICK) \
    case TL_BDT_##ID: { T a = *(const T *)d, b = *(const T *)s; take = PICK(a, b); size = sizeof(T); break; }
        TL_X_ORD(BOOL, uint8_t, TL_HD_PICK_S) TL_X_ORD(UINT8, uint8_t, TL_HD_PICK_S)
        TL_X_ORD(INT8, int8_t, TL_HD_PICK_S) TL_X_ORD(INT16, int16_t, TL_HD_PICK_S)
        TL_X_ORD(INT32, int32_t, TL_HD_PICK_S) TL_X_ORD(INT64, int64_t, TL_HD_PICK_S)
        TL_X_ORD(FLOAT32, float, TL_HD_PICK_S_NAN) TL_X_ORD(FLOAT64, double, TL_HD_PICK_S_NAN)
#undef TL_X_ORD
    case TL_BDT_FLOAT16:
    case TL_BDT_BFLOAT16: {
        float a, b;
        tl_hd_convert(&a, TL_BDT_FLOAT32, d, dt);
        tl_hd_convert(&b, TL_BDT_FLOAT32, s, dt);
        take = TL_HD_PICK_S_NAN(a, b);
        size = 2;
        break;
    }
    default: return;
    }
    if (take) tl_hd_move(d, s, size);
}
#undef TL_HD_PICK_S
#undef TL_HD_PICK_S_NAN

/* The combining puts' element step (TL_BIX_PUT_ADD, _MUL, _MAX, _MIN), not atomic. */
static inline TL_HD void tl_hd_combine_into(char *d, const char *s, int dt, int mode)
{
    switch (mode) {
    case TL_BIX_PUT_ADD: tl_hd_arith_into(d, s, dt, TL_BOP_ADD); break;
    case TL_BIX_PUT_MUL: tl_hd_arith_into(d, s, dt, TL_BOP_MUL); break;
    case TL_BIX_PUT_MAX: tl_hd_order_into(d, s, dt, true); break;
    case TL_BIX_PUT_MIN: tl_hd_order_into(d, s, dt, false); break;
    default: break;
    }
}

#endif
