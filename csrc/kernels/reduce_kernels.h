/* reduce_kernels.h - per-row reduction kernels over the planner's buffer dtypes
 * (float32, float64, int64, complex64, complex128). Each computes a partial result
 * (tl_racc) over a stretch of one row; partials of consecutive stretches combine, so
 * a long row can be split across threads. */
#ifndef TL_KERNELS_REDUCE_H
#define TL_KERNELS_REDUCE_H

#include <complex.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/dtype.h"

typedef enum {
    TL_K_SUM,     /* float: d, complex: c, int: i */
    TL_K_NANSUM,  /* d (+ cnt = non-NaN count) */
    TL_K_PROD,    /* d / c / i */
    TL_K_MAX,     /* d / i, NaN propagates; complex: d = max of the real parts */
    TL_K_MIN,
    TL_K_ARGMAX,  /* value in d / i, index in cnt; first NaN wins */
    TL_K_ARGMIN,
    TL_K_ANY,     /* i */
    TL_K_ALL,
    TL_K_CNZ,     /* i = count of non-zeros */
    TL_K_ABSPOW,  /* d = sum |x|^p */
    TL_K_ABSMAX,  /* d = max |x| */
    TL_K_ABSMIN,
    TL_K_SSD,     /* d = sum |x - center|^2 */
    TL_K_SUMEXP,  /* d = sum exp(x - center); complex: c (center real) */
} tl_kop;

typedef struct {
    double complex c;
    double d;
    int64_t i;
    int64_t cnt;
} tl_racc;

/* Partial result of op over n elements at p (buffer dtype bt); idx0 is the index of p[0]
 * within its row (for the arg ops); center is the per-row parameter of SSD/SUMEXP;
 * power the p of ABSPOW. */
void tl_racc_row(tl_kop op, tl_dtype bt, const char *p, int64_t n, int64_t idx0, double complex center,
                 double power, tl_racc *a);
/* Whether tl_colarg / tl_colext take a column pass of nrows rows of dtype bt. */
bool tl_col_supports(tl_dtype bt, int64_t nrows);
/* Arg-extreme of each of w columns (w <= TL_COLARG_W) over nrows rows with row stride ld
 * elements, row indices into out. false: this buffer dtype / size has no column kernel. */
#define TL_COLARG_W 512
bool tl_colarg(bool is_max, tl_dtype bt, const char *base, int64_t nrows, int64_t ld, int64_t w, int64_t *out);
/* The extreme values of the same columns, written as bt elements. */
bool tl_colext(bool is_max, tl_dtype bt, const char *base, int64_t nrows, int64_t ld, int64_t w, char *out);
/* Column sums in double: acc[j] += sum over nrows rows of base[r * ld + j], j < w, for
 * float32 or float64 rows (bt); rows added in order, so the result does not depend on
 * the clone or the thread count. */
void tl_colsum(tl_dtype bt, const char *base, int64_t nrows, int64_t ld, int64_t w, double *acc);
/* 1 (the default where the CPU has AVX-512F): float32/64 argmax/argmin rows take the
 * AVX-512 search; 0 pins the portable vector loop (tests compare both). Returns the
 * previous setting. */
int tl_argext_set_avx512(int on);
/* a <- a (earlier stretch) combined with b (the following stretch). */
void tl_racc_combine(tl_kop op, tl_dtype bt, tl_racc *a, const tl_racc *b);

#endif
