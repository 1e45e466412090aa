/* promote.h - type promotion (seed 002): promote_types between two dtypes, the
 * three-tier result_type over operands (dimensioned tensors < zero-dim tensors <
 * Python scalars) and can_cast. The promotion table is generated from the dtype table. */
#ifndef TL_PROMOTE_H
#define TL_PROMOTE_H

#include <stdbool.h>

#include "core/dtype.h"

/* Tiers of seed 002, lowest priority first. */
typedef enum { TL_TIER_DIM = 0, TL_TIER_ZERO_DIM = 1, TL_TIER_SCALAR = 2 } tl_tier;

/* One operand as promotion sees it: its dtype and tier. A Python scalar's dtype is
 * its kind's representative (bool, int64, float64, complex128); result_type maps it
 * to the default dtype, as torch does for wrapped numbers. */
typedef struct { tl_dtype dtype; tl_tier tier; } tl_operand_desc;

/* *out = the smallest dtype both a and b cast to; -1 (RuntimeError, torch's text) for
 * shell dtypes other than a dtype with itself. */
int tl_promote_types(tl_dtype a, tl_dtype b, tl_dtype *out);
/* *out = result dtype of an op over n operands; `default_float` is the default dtype. */
int tl_result_type(const tl_operand_desc *ops, int n, tl_dtype default_float, tl_dtype *out);
/* The default float dtype (set_default_dtype): what Python floats and float results of integer
 * operands become. One process-wide value, read atomically because ops run without the GIL; a
 * thread that pins it (tl_default_float_pin(true) before releasing the GIL) reads the value of
 * that moment until it unpins, so a concurrent set_default_dtype cannot change one op midway. */
tl_dtype tl_default_float(void);
void tl_set_default_float(tl_dtype d);
void tl_default_float_pin(bool pin);
/* torch's canCast: no complex -> non-complex, float -> integral, non-bool -> bool. */
bool tl_can_cast(tl_dtype from, tl_dtype to);
/* RuntimeError "result type Float can't be cast to the desired output type Int" unless castable. */
int tl_check_can_cast(tl_dtype result, tl_dtype out);

#endif
