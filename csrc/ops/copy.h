/* copy.h - copy_, casts, fill_, contiguous and clone: the data-moving primitives. */
#ifndef TL_OPS_COPY_H
#define TL_OPS_COPY_H

#include <stdbool.h>

#include "core/scalar.h"
#include "core/overlap.h"
#include "core/tensor.h"

/* dst <- src, broadcasting src to dst's shape and casting to dst's dtype; the two may lie
 * on different devices (the host and a backend's device, or two devices). */
int tl_copy_(tl_tensor *dst, const tl_tensor *src);
/* As tl_copy_; across the host and a device, with non_blocking a copy from or to pinned
 * memory is queued on the device's current stream (torch's copy_(src, non_blocking)). */
int tl_copy_nb_(tl_tensor *dst, const tl_tensor *src, bool non_blocking);
/* Tensor.copy_: tl_copy_nb_ plus seed 003's out semantics (dst takes src's names when it has
 * none; names that do not unify are an error, checked before anything is written). */
int tl_copy_named_(tl_tensor *dst, const tl_tensor *src, bool non_blocking);
/* Assignment through indexing (t[key] = src): leading size-1 dims of src are dropped
 * and src is expanded to dst's shape before copy_, as torch does (so a broadcast src
 * sharing memory with dst is read through a copy, while a partial overlap of dense
 * operands is an error). */
int tl_copy_setitem(tl_tensor *dst, const tl_tensor *src);
/* out= of ops computed into a fresh result: out gets result's values (cast where
 * torch's can_cast allows, or the same dtype when exact_dtype), resized first when its
 * shape differs (*resized = 1 when it had elements: torch warns), names per seed 003. */
int tl_write_out(tl_tensor *out, const tl_tensor *result, bool exact_dtype, int *resized);
/* Every element of t <- s (cast to t's dtype). */
int tl_fill_(tl_tensor *t, tl_scalar s);
/* out <- a new tensor with src's values, dtype `dtype`, laid out in `fmt`; names kept. */
int tl_clone(tl_tensor *out, const tl_tensor *src, tl_dtype dtype, tl_memory_format fmt);
/* out <- src itself (aliased) when already laid out in `fmt`, else a clone. */
int tl_contiguous(tl_tensor *out, const tl_tensor *src, tl_memory_format fmt);

#endif
