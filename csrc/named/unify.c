/* unify.c - name unification from the right (torch's unify_from_right): positional
 * match (None matches anything) and the misalignment check for names matched with None. */
#include "named/unify.h"

#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/shape.h"

static void fmt_names(char *buf, size_t len, const int32_t *n, int k)
{
    size_t pos = (size_t)snprintf(buf, len, "[");
    for (int i = 0; i < k && pos < len; i++) {
        int32_t id = n ? n[i] : TL_NAME_NONE;
        if (id) pos += (size_t)snprintf(buf + pos, len - pos, "%s'%s'", i ? ", " : "", tl_name_str(id));
        else pos += (size_t)snprintf(buf + pos, len - pos, "%sNone", i ? ", " : "");
    }
    if (pos < len) snprintf(buf + pos, len - pos, "]");
}

/* `name` sits at distance `dist` from the right of `names`; if it also appears in
 * `other` it must sit at the same distance there. */
static int check_misaligned(int32_t name, int dist, const int32_t *names, int nn, const int32_t *other, int no)
{
    if (name == TL_NAME_NONE || !other) return 0;
    for (int j = 0; j < no; j++) {
        if (other[j] != name) continue;
        if (no - 1 - j == dist) return 0;
        char b1[512], b2[512];
        fmt_names(b1, sizeof b1, names, nn);
        fmt_names(b2, sizeof b2, other, no);
        return tl_err(TL_ERR_RUNTIME,
                      "Misaligned dims when attempting to broadcast dims %s and dims %s: dim '%s' appears in a different position from the right across both lists.",
                      b1, b2, tl_name_str(name));
    }
    return 0;
}

int tl_names_unify_lists(int32_t *out, const int32_t *a, int na, const int32_t *b, int nb, int out_ndim)
{
    if (!a && !b) return 0;
    int any = 0;
    for (int k = 0; k < out_ndim; k++) {
        int ia = na - 1 - k, ib = nb - 1 - k;
        int32_t x = (a && ia >= 0) ? a[ia] : TL_NAME_NONE;
        int32_t y = (b && ib >= 0) ? b[ib] : TL_NAME_NONE;
        int32_t r;
        if (x == y || y == TL_NAME_NONE) r = x;
        else if (x == TL_NAME_NONE) r = y;
        else {
            char b1[512], b2[512];
            fmt_names(b1, sizeof b1, a, na);
            fmt_names(b2, sizeof b2, b, nb);
            return tl_err(TL_ERR_RUNTIME,
                          "Error when attempting to broadcast dims %s and dims %s: dim '%s' and dim '%s' are at the same position from the right but do not match.",
                          b1, b2, tl_name_str(x), tl_name_str(y));
        }
        if ((ia >= 0 || ib >= 0) && (x == TL_NAME_NONE || y == TL_NAME_NONE)) {
            if (ia >= 0 && check_misaligned(x, k, a, na, b, nb) < 0) return -1;
            if (ib >= 0 && check_misaligned(y, k, b, nb, a, na) < 0) return -1;
        }
        out[out_ndim - 1 - k] = r;
        any |= r != TL_NAME_NONE;
    }
    return any;
}

int tl_names_unify(int32_t *out, const tl_tensor *a, const tl_tensor *b, int out_ndim)
{
    return tl_names_unify_lists(out, a ? a->names : NULL, a ? a->ndim : 0, b ? b->names : NULL, b ? b->ndim : 0, out_ndim);
}

int tl_names_unify_n(int32_t *out, int out_ndim, const tl_tensor *const *ts, int n)
{
    int32_t acc[TL_MAX_DIMS];
    int acc_n = 0, any = 0;
    for (int i = 0; i < n; i++) {
        const tl_tensor *t = ts[i];
        if (!t || !t->names || t->ndim > out_ndim) continue;
        int r = tl_names_unify_lists(out, any ? acc : NULL, acc_n, t->names, t->ndim, out_ndim);
        if (r < 0) return -1;
        memcpy(acc, out, sizeof(int32_t) * (size_t)out_ndim);
        acc_n = out_ndim;
        any = 1;
    }
    return any;
}

int tl_names_check_out(const tl_tensor *out, int ndim, const int64_t *sizes, const int32_t *names)
{
    if (!out->names) return 0;
    char a[512], b[512], c[512];
    if (ndim != out->ndim || memcmp(sizes, out->sizes, sizeof(int64_t) * (size_t)ndim)) {
        fmt_names(a, sizeof a, out->names, out->ndim);
        return tl_err(TL_ERR_RUNTIME, "Cannot resize named tensor with resize_ or resize_as_ (tried to resize Tensor%s "
                                      "with size %s to %s). This may be caused by passing a named tensor as an `out=` "
                                      "argument; please ensure that the sizes are the same. ",
                      a, tl_shape_str(out->sizes, out->ndim, b, sizeof b), tl_shape_str(sizes, ndim, c, sizeof c));
    }
    if (names && !memcmp(out->names, names, sizeof(int32_t) * (size_t)ndim)) return 0;
    fmt_names(a, sizeof a, out->names, ndim);
    fmt_names(b, sizeof b, names, ndim);
    return tl_err(TL_ERR_RUNTIME, "Name mismatch: specified out tensor with names %s are not the same as the computed "
                                  "output names %s. Please rename the out tensor's dims with `Tensor.rename`.", a, b);
}
