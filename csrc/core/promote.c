/* promote.c - the promotion lattice, computed once from the dtype table's kind,
 * itemsize and signedness (no hand-typed table), plus torch's ResultTypeState. */
#include "core/promote.h"

#include <pthread.h>
#include <stdatomic.h>

#include "core/error.h"

static int16_t table[TL_NUM_DTYPES][TL_NUM_DTYPES]; /* -1: not defined (shell) */
static pthread_once_t table_once = PTHREAD_ONCE_INIT;  /* ops promote without the GIL */

static bool is_shell_unsigned(tl_dtype d) { return tl_dtype_is_shell(d) && tl_dtype_kind(d) == TL_KIND_INT; }

/* Smallest non-shell dtype of `kind` with `signed_` and at least `size` bytes. */
static int smallest(tl_kind kind, bool signed_, int size)
{
    int best = -1;
    for (int d = 0; d < TL_NUM_DTYPES; d++) {
        const tl_dtype_info *i = &tl_dtype_infos[d];
        if (i->is_shell || i->kind != kind || i->itemsize < size) continue;
        if (kind == TL_KIND_INT && i->is_signed != signed_) continue;
        if (kind == TL_KIND_FLOAT && i->buffer_format[0] == 0) continue; /* bfloat16 only by exact match */
        if (best < 0 || i->itemsize < tl_dtype_infos[best].itemsize) best = d;
    }
    return best;
}

static int promote_nonshell(tl_dtype a, tl_dtype b)
{
    if (a == b) return a;
    tl_kind ka = tl_dtype_kind(a), kb = tl_dtype_kind(b);
    if (ka < kb || (ka == kb && tl_dtype_itemsize(a) < tl_dtype_itemsize(b))) { tl_dtype t = a; a = b; b = t; tl_kind k = ka; ka = kb; kb = k; }
    /* now a is of the higher kind, or the same kind and at least as wide */
    if (ka != kb) {
        if (ka == TL_KIND_COMPLEX && kb == TL_KIND_FLOAT) {
            int comp = promote_nonshell(tl_dtype_to_real(a), b);
            return tl_dtype_to_complex((tl_dtype)comp);
        }
        return a;
    }
    int sa = tl_dtype_itemsize(a), sb = tl_dtype_itemsize(b);
    switch (ka) {
    case TL_KIND_INT: {
        bool ua = !tl_dtype_infos[a].is_signed, ub = !tl_dtype_infos[b].is_signed;
        if (ua == ub) return a;
        if (!ua) return sa > sb ? (int)a : smallest(TL_KIND_INT, true, 2 * sb); /* signed a is wider or equal */
        return sb > sa ? (int)b : smallest(TL_KIND_INT, true, 2 * sa);
    }
    case TL_KIND_FLOAT:
        if (sa == sb) return smallest(TL_KIND_FLOAT, true, 2 * sa); /* float16 vs bfloat16 */
        return a;
    default: return a;
    }
}

/* torch 2.13 defines a shell unsigned integer with a real float: the float (float4_e2m1fn_x2,
 * a shell, included, as torch's table has it); everything else involving a shell raises. */
static int promote_shell(tl_dtype a, tl_dtype b)
{
    if (is_shell_unsigned(b)) { tl_dtype t = a; a = b; b = t; }
    if (!is_shell_unsigned(a) || tl_dtype_kind(b) != TL_KIND_FLOAT) return -1;
    if (!tl_dtype_is_shell(b) || b == TL_FLOAT4_E2M1FN_X2) return b;
    return -1;
}

static void build_table(void)
{
    for (int a = 0; a < TL_NUM_DTYPES; a++)
        for (int b = 0; b < TL_NUM_DTYPES; b++)
            table[a][b] = a == b ? a : (tl_dtype_is_shell(a) || tl_dtype_is_shell(b)) ? promote_shell(a, b)
                                                                                         : promote_nonshell(a, b);
}

int tl_promote_types(tl_dtype a, tl_dtype b, tl_dtype *out)
{
    pthread_once(&table_once, build_table);
    int r = table[a][b];
    if (r < 0) {
        if ((is_shell_unsigned(a) || is_shell_unsigned(b)) && !tl_dtype_is_float8(a) && !tl_dtype_is_float8(b))
            return tl_err(TL_ERR_RUNTIME, "Promotion for uint16, uint32, uint64 types is not supported, attempted to promote %s and %s",
                          tl_dtype_infos[a].cname, tl_dtype_infos[b].cname);
        return tl_err(TL_ERR_RUNTIME, "Promotion for Float8 Types is not supported, attempted to promote %s and %s",
                      tl_dtype_infos[a].cname, tl_dtype_infos[b].cname);
    }
    *out = (tl_dtype)r;
    return 0;
}

/* torch's combine_categories(higher, lower); -1 stands for Undefined. */
static int combine(int higher, int lower)
{
    if (higher < 0) return lower;
    if (lower < 0) return higher;
    tl_kind kh = tl_dtype_kind(higher), kl = tl_dtype_kind(lower);
    if (kh == TL_KIND_COMPLEX) return higher;
    if (kl == TL_KIND_COMPLEX) return kh == TL_KIND_FLOAT ? (int)tl_dtype_to_complex(higher) : lower;
    if (kh == TL_KIND_FLOAT) return higher;
    if (higher == TL_BOOL || kl == TL_KIND_FLOAT) {
        tl_dtype r;
        if (tl_promote_types(higher, lower, &r) < 0) return -2;
        return r;
    }
    return higher;
}

static _Atomic int default_float = TL_FLOAT32;
static _Thread_local int pinned_float = -1;

tl_dtype tl_default_float(void)
{
    return (tl_dtype)(pinned_float >= 0 ? pinned_float : atomic_load_explicit(&default_float, memory_order_relaxed));
}

void tl_set_default_float(tl_dtype d) { atomic_store_explicit(&default_float, (int)d, memory_order_relaxed); }

void tl_default_float_pin(bool pin)
{
    pinned_float = pin ? atomic_load_explicit(&default_float, memory_order_relaxed) : -1;
}

int tl_result_type(const tl_operand_desc *ops, int n, tl_dtype default_float, tl_dtype *out)
{
    int res[3] = {-1, -1, -1};
    for (int i = 0; i < n; i++) {
        tl_dtype d = ops[i].dtype;
        if (ops[i].tier == TL_TIER_SCALAR) {
            if (tl_dtype_is_complex(d)) d = tl_dtype_to_complex(default_float);
            else if (tl_dtype_is_float(d)) d = default_float;
        }
        int *r = &res[ops[i].tier];
        if (*r < 0 || *r == (int)d) *r = d; /* a dtype promotes with itself to itself */
        else {
            tl_dtype p;
            if (tl_promote_types(*r, d, &p) < 0) return -1;
            *r = p;
        }
    }
    int lower = combine(res[TL_TIER_ZERO_DIM], res[TL_TIER_SCALAR]);
    if (lower == -2) return -1;
    int r = combine(res[TL_TIER_DIM], lower);
    if (r == -2) return -1;
    if (r < 0) r = default_float;
    *out = (tl_dtype)r;
    return 0;
}

bool tl_can_cast(tl_dtype from, tl_dtype to)
{
    tl_kind kf = tl_dtype_kind(from), kt = tl_dtype_kind(to);
    if (kf == TL_KIND_COMPLEX && kt != TL_KIND_COMPLEX) return false;
    if (kf == TL_KIND_FLOAT && (kt == TL_KIND_INT || kt == TL_KIND_BOOL)) return false;
    if (kf != TL_KIND_BOOL && kt == TL_KIND_BOOL) return false;
    return true;
}

int tl_check_can_cast(tl_dtype result, tl_dtype out)
{
    if (tl_can_cast(result, out)) return 0;
    return tl_err(TL_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                  tl_dtype_infos[result].cname, tl_dtype_infos[out].cname);
}
