/* join.h - joining and reshaping ops that move data: cat, flip, repeat, tril/triu,
 * trace, cross, renorm (join_math.c), resize_/resize_as_, and repeat_interleave's index. */
#ifndef TL_OPS_JOIN_H
#define TL_OPS_JOIN_H

#include <stdbool.h>

#include "core/scalar.h"
#include "core/tensor.h"

/* out <- the n tensors concatenated along dim (dtypes promoted, names unified; 1-D
 * empty tensors are skipped as torch's legacy rule allows). */
int tl_cat(tl_tensor *out, const tl_tensor *const *ts, int n, int64_t dim);
/* out <- t reversed along dims (a copy laid out like t). */
int tl_flip(tl_tensor *out, const tl_tensor *t, const int64_t *dims, int n);
int tl_repeat(tl_tensor *out, const tl_tensor *t, const int64_t *reps, int n);
/* Zeroes, in place, the elements above (upper=false: tril) or below (upper: triu) diagonal k
 * of every matrix formed by t's last two dims. */
int tl_tril_(tl_tensor *t, int64_t k, bool upper);
int tl_trace(tl_tensor *out, const tl_tensor *t);
int tl_cross(tl_tensor *out, const tl_tensor *a, const tl_tensor *b, int64_t dim);
int tl_renorm(tl_tensor *out, const tl_tensor *t, double p, int64_t dim, double maxnorm);
/* resize_ to sizes (contiguous strides), growing the storage when needed. */
int tl_resize_(tl_tensor *t, const int64_t *sizes, int n);
/* resize_ to tmpl's shape, then tmpl's names by the out= rule of seed 003 (an unnamed t takes
 * them, a named t must already have tmpl's shape and names). */
int tl_resize_as_(tl_tensor *t, const tl_tensor *tmpl);
/* out <- [0]*r0 + [1]*r1 + ... for the int64 1-D repeats; output_size < 0: computed. */
int tl_repeat_interleave_index(tl_tensor *out, const tl_tensor *repeats, int64_t output_size);
/* Unifies two name lists of equal rank position by position, torch's text on mismatch. */
int tl_unify_names_same_rank(const int32_t *a, const int32_t *b, int n, int32_t *out);

#endif
