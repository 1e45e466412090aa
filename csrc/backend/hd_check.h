/* hd_check.h - CPU runner of the host/device element math (kernels/hd_math.h), for tests. */
#ifndef TL_HD_CHECK_H
#define TL_HD_CHECK_H

#include <stdbool.h>

#include "core/tensor.h"

/* Op code of a backend op name ("ADD", "NEG", ...); -1 with ValueError when unknown. */
int tl_hd_op_code(const char *name, bool binary);
/* out = op(a[, b]) elementwise on the CPU with the hd_math.h formulas; contiguous operands
 * of one dtype and equal sizes; the result has the op's OUT dtype (backend/backend.h).
 * Device operands run on their backend's launcher instead. */
int tl_hd_apply(tl_tensor *out, int op, const tl_tensor *a, const tl_tensor *b);

#endif
