/* overlap.h - memory overlap between tensors, with torch's policy for written-to operands.
 *
 * torch refuses two kinds of writes: into a tensor where several elements share one
 * address (a stride-0 dim of size > 1), and into a tensor that partly overlaps an input
 * (both dense, same storage, ranges intersect, not the exact same layout). Overlaps it
 * cannot judge cheaply (non-dense operands) torch lets through; tensorlib reads such
 * inputs through a copy instead, so results never depend on the loop order. */
#ifndef TL_OVERLAP_H
#define TL_OVERLAP_H

#include <stdbool.h>

#include "core/tensor.h"

typedef enum { TL_OVERLAP_NO, TL_OVERLAP_FULL, TL_OVERLAP_PARTIAL, TL_OVERLAP_TOO_HARD } tl_overlap;

/* True when the byte ranges a and b span in one storage intersect (may share memory). */
bool tl_may_overlap(const tl_tensor *a, const tl_tensor *b);
/* torch's get_overlap_status: FULL for the same layout, PARTIAL for dense operands whose
 * ranges intersect otherwise, TOO_HARD when either is not dense, NO otherwise. */
tl_overlap tl_overlap_status(const tl_tensor *a, const tl_tensor *b);
/* RuntimeError (torch's text) when out has a stride-0 dim of size > 1. */
int tl_check_internal_overlap(const tl_tensor *out);
/* RuntimeError (torch's text) when out and in overlap partially. */
int tl_check_partial_overlap(const tl_tensor *out, const tl_tensor *in);

#endif
