/* hd_index.h - the element steps of the backend's index entry (tl_backend_index_call in
 * backend/backend.h), compiled for the host (C11) and the device (nvcc) like hd_math.h:
 * the checked offset of one index value, the move of one element and the addition of
 * PUT_ADD (in the dtype, float16/bfloat16 through float32 with one rounding, as the CPU's
 * scatter loops). backend/index.c runs them per element on the host (the tests' stand-in
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

/* *d += *s in dtype dt (TL_BDT_*), not atomic: the dtype's own addition (integers wrap, bool
 * is or), float16/bfloat16 through float32 rounded once. */
static inline TL_HD void tl_hd_add_into(char *d, const char *s, int dt)
{
    if (dt == TL_BDT_FLOAT16 || dt == TL_BDT_BFLOAT16) {
        tl_hd_ew_f32(TL_BOP_ADD, 2, d, dt, d, dt, s, dt);
        return;
    }
    switch (dt) {
#define TL_X_ADD(S, ID, ...) case TL_BDT_##ID: tl_hd_ew_##S(TL_BOP_ADD, 2, d, dt, d, dt, s, dt); break;
        TL_HD_DTYPES(TL_X_ADD)
#undef TL_X_ADD
    default: break;
    }
}

#endif
