/* unify.h - the "unifies names from inputs" rule of seed 003, shared by every op family
 * that combines names of two inputs positionally from the right. */
#ifndef TL_NAMED_UNIFY_H
#define TL_NAMED_UNIFY_H

#include <stdint.h>

#include "core/tensor.h"

/* Unifies names of a and b from the right into out[out_ndim] (out_ndim >= both ranks;
 * leading dims beyond both are unnamed). Returns 1 when the result has a name, 0 when
 * neither input is named (out untouched), -1 with RuntimeError (the seed's two messages)
 * when names differ at the same position or a name is misaligned. */
int tl_names_unify(int32_t *out, const tl_tensor *a, const tl_tensor *b, int out_ndim);
/* Same over raw name lists (NULL = all unnamed). */
int tl_names_unify_lists(int32_t *out, const int32_t *a, int na, const int32_t *b, int nb, int out_ndim);
/* Unifies the names of ts[0..n) (NULL entries, unnamed tensors and tensors of rank above
 * out_ndim skipped) from the right into out[out_ndim]: 1 when the result has a name (out
 * written), 0 when none (out untouched), -1 with the unify errors. */
int tl_names_unify_n(int32_t *out, int out_ndim, const tl_tensor *const *ts, int n);
/* out= rule of seed 003 for an out about to receive a result of shape sizes[ndim] with
 * `names` (NULL = unnamed result). An unnamed out passes (the caller gives it the names);
 * a named out must already have that shape (torch refuses to resize named tensors) and
 * exactly those names (an unnamed result does not match a named out). -1 with torch's
 * RuntimeError otherwise. */
int tl_names_check_out(const tl_tensor *out, int ndim, const int64_t *sizes, const int32_t *names);

#endif
