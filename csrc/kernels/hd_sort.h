/* hd_sort.h - the sort key of the backend's sort entry (tl_backend_sort_call in
 * backend/backend.h), compiled for the host (C11) and the device (nvcc) like hd_math.h: an
 * unsigned 64-bit key whose order is the CPU sort's (ops/sort.c's tl_sort_keys): NaN above
 * every number (all NaNs equal), -0 equal to 0, integers by value. A stable sort of the keys
 * is the CPU's sort; the host runner (backend/sort.c) and csrc/cuda/sort.cu (CUB's radix sort)
 * both sort these keys. */
#ifndef TL_HD_SORT_H
#define TL_HD_SORT_H

#include "kernels/hd_math.h"

static inline TL_HD uint64_t tl_hd_sort_key(const char *p, int dt)
{
    const uint64_t top = (uint64_t)1 << 63;
    int64_t i;
    switch (dt) {
    case TL_BDT_FLOAT16: case TL_BDT_BFLOAT16: case TL_BDT_FLOAT32: case TL_BDT_FLOAT64: {
        double v;
        tl_hd_convert(&v, TL_BDT_FLOAT64, p, dt);
        if (v != v) return ~(uint64_t)0;
        if (v == 0) v = 0;
        uint64_t u;
        memcpy(&u, &v, 8);
        return (u >> 63) ? ~u : u | top;
    }
    case TL_BDT_BOOL: case TL_BDT_UINT8: i = *(const uint8_t *)p; break;
    case TL_BDT_INT8: i = *(const int8_t *)p; break;
    case TL_BDT_INT16: i = *(const int16_t *)p; break;
    case TL_BDT_INT32: i = *(const int32_t *)p; break;
    default: i = *(const int64_t *)p; break;
    }
    return (uint64_t)i ^ top;
}

/* The position selected in a row's ascending keys (TL_BSS_* of backend.h): KTH k; MEDIAN
 * (len - 1) / 2, or the first NaN of a float row holding one; NANMEDIAN the lower median of the
 * keys before the NaNs (0 when all are NaN); MODE the end of the first longest run of equal keys
 * (a NaN ends its run). The CPU's rules (ops/sort.c). */
static inline TL_HD int64_t tl_hd_select_pos(int select, int64_t k, const uint64_t *keys, int64_t len, int dt)
{
    if (select == TL_BSS_KTH) return k;
    int fl = dt == TL_BDT_FLOAT16 || dt == TL_BDT_BFLOAT16 || dt == TL_BDT_FLOAT32 || dt == TL_BDT_FLOAT64;
    if (select == TL_BSS_MODE) { /* the first longest run, by the index at its end */
        int64_t best = 0, bestlen = 0, run = 0;
        for (int64_t i = 0; i < len; i++) {
            run++;
            if (i == len - 1 || keys[i] != keys[i + 1] || (fl && keys[i] == ~(uint64_t)0)) {
                if (run > bestlen) bestlen = run, best = i;
                run = 0;
            }
        }
        return best;
    }
    int64_t nn = len;
    while (nn > 0 && fl && keys[nn - 1] == ~(uint64_t)0) nn--;
    if (select == TL_BSS_MEDIAN) return nn < len ? nn : (len - 1) / 2;
    return nn == 0 ? 0 : (nn - 1) / 2;
}

#endif
