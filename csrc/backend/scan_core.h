/* scan_core.h - ops/scan.c's call into a device backend's scan entry (backend/scan.c). */
#ifndef TL_BACKEND_SCAN_CORE_H
#define TL_BACKEND_SCAN_CORE_H

#include "core/tensor.h"

/* Runs scan `op` (a tl_scan_op) of x along `dim` on x's device: out (x's shape, out_dtype) and,
 * for cummax/cummin, indices (int64; NULL otherwise) allocated there and written; x's names
 * kept. NotImplementedError naming `name` where the backend lacks the entry or a dtype. */
int tl_backend_scan(tl_tensor *out, tl_tensor *indices, const tl_tensor *x, int op, int dim, int out_dtype,
                    const char *name);

#endif
