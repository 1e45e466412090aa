/* index_core.h - ops/index.c's call into a device backend's index entry (backend/index.c). */
#ifndef TL_BACKEND_INDEX_CORE_H
#define TL_BACKEND_INDEX_CORE_H

#include <stdbool.h>

#include "core/tensor.h"

/* One pass of the backend's index entry (mode TL_BIX_*, flags TL_BIX_* of backend.h) over
 * `shape` (ndim dims, outermost first; the operands broadcast to it as for the CPU iterator,
 * tl_iter_init's iter_flags apply): data, src and index on one backend device. With `bad`
 * non-NULL the pass reports an out-of-range index there (the element skipped); otherwise such
 * elements are skipped silently (the indices were checked before). NotImplementedError
 * naming `name` where the backend has no index entry or (PUT_ADD) lacks the dtype. */
int tl_backend_index(int mode, int flags, const tl_tensor *data, const tl_tensor *src, const tl_tensor *index,
                     const int64_t *shape, int ndim, int iter_flags, int64_t step, int64_t bound, bool *bad,
                     const char *name);

#endif
