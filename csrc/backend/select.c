/* select.c (backend) - the host runner of a backend's select entry (tl_backend_select_call):
 * the positions of the set flags in order and their count, on host memory, for the tests'
 * stand-in backend. The core's side is ops/mask.c's nonzero. */
#include "backend/backend.h"
#include "core/error.h"

int tl_backend_select_host(const tl_backend_select_call *c)
{
    if (c->size != sizeof *c || c->numel < 0) return tl_err(TL_ERR_RUNTIME, "tensorlib: malformed backend select call");
    int64_t n = 0;
    for (int64_t i = 0; i < c->numel; i++)
        if (c->flags[i]) c->out[n++] = i;
    *c->count = n;
    return 0;
}
