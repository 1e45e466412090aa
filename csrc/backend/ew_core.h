/* ew_core.h - the element-wise driver's (ops/elementwise.c) calls into a device backend's
 * strided element-wise entry (backend/ew.c). Kept apart from backend.h, whose op enums the
 * registry's (ops/ew_ops.h) would clash with. */
#ifndef TL_BACKEND_EW_CORE_H
#define TL_BACKEND_EW_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "backend/ew_params.h"
#include "core/tensor.h"

/* 0 when the backend of `dev` runs the registry op `kname` ("add", "div_floor", ...; `name`,
 * the op's user-facing name, names it in messages: clamp_s -> clamp, add_alpha -> "sub with
 * alpha") with nin inputs of in_dtypes, computed in `compute`, into out_dtype
 * (tl_dtype values); else -1 with a NotImplementedError naming the op, the device and the
 * dtype. */
int tl_backend_ew_supported(const char *kname, const char *name, int nin, int compute, int out_dtype,
                            const int *in_dtypes, tl_device dev);
/* Runs it on ops[0]'s device: ops[0] the allocated destination, ops[1..nin] the inputs
 * broadcast to `shape`; scalar[k] marks input k+1 as a host value (a Python scalar or a 0-d
 * CPU tensor) already converted to `compute`, in ops[k+1]'s (host) data; prm the parameters of
 * an op of the backend's xop list (NULL: none). */
int tl_backend_elementwise(const char *kname, const char *name, int nin, int compute, const tl_tensor *const *ops,
                           const bool *scalar, const int64_t *shape, int ndim, const tl_backend_ew_params *prm);

#endif
