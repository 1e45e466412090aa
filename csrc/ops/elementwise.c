/* elementwise.c - one generic driver for every elementwise op.
 *
 * Operands of the compute dtype go straight to the kernel; 0-d tensors and Python
 * scalars are converted once to the compute dtype (as torch reads CPU scalars in its
 * op math type); other operands of another dtype are converted inside the loop in
 * chunks of EW_CHUNK elements through the cast loops, never through a full-size
 * temporary. float16/bfloat16 compute in float32 and complex32 in complex64, rounding
 * once on store. */
#include "ops/elementwise.h"

#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/iter.h"
#include "core/overlap.h"
#include "core/parallel.h"
#include "core/promote.h"
#include "kernels/cast.h"
#include "named/unify.h"
#include "backend/ew_core.h"
#include "ops/copy.h"
#include "ops/view.h"

#define EW_CHUNK 256


typedef struct { const char *name; int out; int flags; } op_info;
#define OUT_SAME TL_EW_OUT_SAME
#define OUT_BOOL TL_EW_OUT_BOOL
#define OUT_REAL TL_EW_OUT_REAL
#define INFO(op, out, flags, ...) {#op, OUT_##out, flags},
static const op_info uinfo[] = {TL_UNARY_OPS(INFO)};
static const op_info binfo[] = {TL_BINARY_OPS(INFO)};
static const op_info tinfo[] = {TL_TERNARY_OPS(INFO)};

void tl_ew_param(tl_ew_params *prm, int k, tl_scalar s)
{
    switch (s.kind) {
    case TL_KIND_BOOL:
    case TL_KIND_INT: prm->i[k] = s.v.i; prm->d[k] = (double)s.v.i; prm->c[k] = (double)s.v.i; break;
    case TL_KIND_FLOAT: prm->d[k] = s.v.d; prm->i[k] = (s.v.d != s.v.d || s.v.d > 9.2e18 || s.v.d < -9.2e18) ? 0 : (int64_t)s.v.d;
        prm->c[k] = s.v.d; break;
    default: prm->c[k] = s.v.c; prm->d[k] = creal(s.v.c); prm->i[k] = (int64_t)creal(s.v.c); break;
    }
}

static tl_dtype scalar_dtype(tl_scalar s)
{
    switch (s.kind) {
    case TL_KIND_BOOL: return TL_BOOL;
    case TL_KIND_INT: return TL_INT64;
    case TL_KIND_FLOAT: return TL_FLOAT64;
    default: return TL_COMPLEX128;
    }
}

static tl_dtype arg_dtype(tl_ew_arg a) { return a.t ? (tl_dtype)a.t->dtype : scalar_dtype(a.s); }

static tl_operand_desc arg_desc(tl_ew_arg a)
{
    tl_operand_desc d;
    d.dtype = arg_dtype(a);
    d.tier = !a.t ? TL_TIER_SCALAR : a.t->ndim == 0 ? TL_TIER_ZERO_DIM : TL_TIER_DIM;
    return d;
}

int tl_ew_result_type2(tl_ew_arg a, tl_ew_arg b, tl_dtype *out)
{
    tl_operand_desc d[2] = {arg_desc(a), arg_desc(b)};
    return tl_result_type(d, 2, tl_default_float(), out);
}

static tl_dtype compute_of(tl_dtype d)
{
    if (d == TL_FLOAT16 || d == TL_BFLOAT16 || tl_dtype_is_float8(d)) return TL_FLOAT32;
    if (d == TL_COMPLEX32) return TL_COMPLEX64;
    return d;
}

/* The description of one call the driver runs. */
typedef struct {
    const char *name;
    const char *kname;       /* the registry entry (name may be the user-facing one: "sub" for add_alpha) */
    int out_kind, flags;
    tl_loop_fn kernel;
    int nin;
    tl_ew_arg in[3];
    int promote_mask;        /* inputs that take part in promotion */
    const tl_scalar *extra;  /* scalars promoting too (clamp bounds) */
    int nextra;
    int force_dtype;         /* result dtype fixed (masked_fill), -1 otherwise */
    int contiguous_out;      /* a new result is contiguous whatever the inputs' layout (masked_fill, as torch) */
    int in_compute[3];       /* compute dtype override per input (-1: the op's) */
    int names_from;          /* -1: unify all tensor inputs (-2: last input first, for error order); k: keep input k's names */
    const tl_ew_params *prm;
    tl_tensor tmp[3];        /* inputs read through a copy (unjudgeable overlap with out) */
    int has_tmp[3];
} ew_call;

typedef struct {
    tl_loop_fn kernel;
    void *kctx;
    int nops;
    tl_loop_fn cast[4];
    int csize[4];
    tl_loop_fn round0; /* the result through the op's dtype first (a float16 op into a float32 out=) */
    int rsize;
} mixed_ctx;

static void mixed_loop(char **d, const int64_t *s, int64_t n, void *c)
{
    const mixed_ctx *m = c;
    _Alignas(64) char buf[4][EW_CHUNK * 16];
    char *kd[4], *cd[2];
    int64_t ks[4], cs[2];
    for (int64_t off = 0; off < n; off += EW_CHUNK) {
        int64_t k = n - off < EW_CHUNK ? n - off : EW_CHUNK;
        for (int j = 0; j < m->nops; j++) {
            char *p = d[j] + off * s[j];
            if (m->cast[j]) {
                kd[j] = buf[j];
                ks[j] = m->csize[j];
                if (j > 0) {
                    cd[0] = buf[j]; cd[1] = p;
                    cs[0] = m->csize[j]; cs[1] = s[j];
                    m->cast[j](cd, cs, k, NULL);
                }
            } else {
                kd[j] = p;
                ks[j] = s[j];
            }
        }
        m->kernel(kd, ks, k, m->kctx);
        if (m->cast[0]) {
            _Alignas(64) char rbuf[EW_CHUNK * 16];
            cd[1] = buf[0];
            cs[1] = m->csize[0];
            if (m->round0) {
                cd[0] = rbuf; cs[0] = m->rsize;
                m->round0(cd, cs, k, NULL);
                cd[1] = rbuf; cs[1] = m->rsize;
            }
            cd[0] = d[0] + off * s[0];
            cs[0] = s[0];
            m->cast[0](cd, cs, k, NULL);
        }
    }
}

/* Resizes an out= tensor to `shape` (contiguous, fresh storage), as torch's resize_. */
static int resize_out(tl_tensor *out, const int64_t *shape, int ndim)
{
    tl_tensor tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.sizes = tmp.small;
    tmp.strides = tmp.small + TL_SMALL_DIMS;
    if (tl_tensor_empty(&tmp, ndim, shape, (tl_dtype)out->dtype, out->device, false) < 0) return -1;
    int rc = tl_tensor_view_init(out, &tmp, tmp.ndim, tmp.sizes, tmp.strides, 0);
    tl_tensor_clear(&tmp);
    return rc;
}

/* Ops torch refuses for complex operands with a message of its own instead of the
 * generic dispatch error. */
static const struct { const char *op; tl_errkind kind; const char *msg; } complex_refusals[] = {
    {"floor", TL_ERR_NOTIMPL, "floor is not supported for complex inputs"},
    {"ceil", TL_ERR_NOTIMPL, "ceil is not supported for complex inputs"},
    {"trunc", TL_ERR_NOTIMPL, "trunc is not supported for complex inputs"},
    {"maximum", TL_ERR_RUNTIME, "maximum not implemented for complex tensors."},
    {"minimum", TL_ERR_RUNTIME, "minimum not implemented for complex tensors."},
    {"fmax", TL_ERR_RUNTIME, "fmax not implemented for complex tensors."},
    {"fmin", TL_ERR_RUNTIME, "fmin not implemented for complex tensors."},
    {"clamp_s", TL_ERR_NOTIMPL, "clamp is not supported for complex types"},
    {"clamp_min_s", TL_ERR_NOTIMPL, "clamp is not supported for complex types"},
    {"clamp_max_s", TL_ERR_NOTIMPL, "clamp is not supported for complex types"},
    {"relu", TL_ERR_NOTIMPL, "clamp is not supported for complex types"},
    {"signbit", TL_ERR_NOTIMPL, "signbit is not implemented for complex tensors."},
    {"deg2rad", TL_ERR_RUNTIME, "deg2rad is not supported for complex tensors."},
    {"rad2deg", TL_ERR_RUNTIME, "rad2deg is not supported for complex tensors."},
    {"isposinf", TL_ERR_RUNTIME, "isposinf does not support complex inputs."},
    {"isneginf", TL_ERR_RUNTIME, "isneginf does not support complex inputs."},
};

/* The kernel torch names in its dispatch refusal: "<op>_cpu", but for these ops (for the
 * dtypes `only` says: 'i' integers, '8' float8, 0 any). */
static const struct { const char *op, *kernel; char only; } torch_kernels[] = {
    {"round", "round_vml_cpu", 0},           {"round_dec", "round_cpu", 0},
    {"clamp_s", "clamp_scalar_cpu", 0},      {"clamp_min_s", "clamp_min_scalar_cpu", 0},
    {"clamp_max_s", "clamp_max_scalar_cpu", 0}, {"lerp", "lerp_kernel_tensor", 0},
    {"lerp_s", "lerp_kernel_scalar", 0},     {"ndtr", "erf_vml_cpu", 0},
    {"add", "add_stub", 0},                  {"sub", "add_stub", 0},
    {"fmax", "maximum_cpu", 'i'},            {"fmin", "minimum_cpu", 'i'},
    {"sgn", "sign_cpu", 0},                  {"relu", "clamp_min_scalar_cpu", 0},
    {"pow", "pow", 0},                       {"square", "pow", 0},
    {"digamma", "digamma", 0},               {"exp2", "exp2", 0},
    {"nan_to_num", "nan_to_num", 0},         {"isinf", "isinf", 0},
    {"isfinite", "isfinite", 0},             {"sigmoid", "sigmoid_cpu_reduced_float", '8'},
    {"deg2rad", "mul_cpu_reduced_float", '8'}, {"rad2deg", "mul_cpu_reduced_float", '8'},
    {"isclose", "mul_cpu_reduced_float", '8'}, {"conj_physical", "conj_cpu", 0},
};

/* ...and these, "<op>_vml_cpu" (torch's vectorized-library kernels) */
static const char *const torch_vml_kernels[] = {
    "acos", "asin", "atan", "ceil", "cos", "erf", "erfc", "erfinv", "exp", "expm1", "floor",
    "lgamma", "log", "log10", "log1p", "log2", "sin", "sqrt", "tan", "tanh", "trunc", "i0",
};

static int refuse_kernel(tl_dtype d, const char *op)
{
    for (size_t i = 0; i < sizeof torch_kernels / sizeof *torch_kernels; i++)
        if (!strcmp(op, torch_kernels[i].op) &&
            (!torch_kernels[i].only || (torch_kernels[i].only == 'i' ? tl_dtype_is_integral(d) : tl_dtype_is_float8(d))))
            return tl_err_dispatch(TL_ERR_NOTIMPL, d, "%s", torch_kernels[i].kernel);
    for (size_t i = 0; i < sizeof torch_vml_kernels / sizeof *torch_vml_kernels; i++)
        if (!strcmp(op, torch_vml_kernels[i])) return tl_err_dispatch(TL_ERR_NOTIMPL, d, "%s_vml_cpu", op);
    return tl_err_dispatch(TL_ERR_NOTIMPL, d, "%s_cpu", op);
}

/* Shell dtypes torch computes on: uint16/32/64 where the registry has their kernels
 * (TL_*_WIDE_UINT), float8 for the EWF_F8 ops but where torch's kernels lack the format. */
static bool shell_runs(const ew_call *c, tl_dtype d)
{
    if (!tl_dtype_is_float8(d)) return d == TL_UINT16 || d == TL_UINT32 || d == TL_UINT64;
    if (!(c->flags & EWF_F8)) return false;
    if (!strcmp(c->kname, "isinf")) return d == TL_FLOAT8_E5M2;
    if (!strcmp(c->kname, "isfinite")) return d == TL_FLOAT8_E5M2 || d == TL_FLOAT8_E8M0FNU;
    if (!strcmp(c->kname, "abs")) return d != TL_FLOAT8_E8M0FNU;
    return true;
}

/* torch's own refusal of complex input to `op`, checked before anything else; 0 when it has none. */
static int refuse_complex(const char *op, tl_dtype rdt)
{
    if (tl_dtype_kind(rdt) == TL_KIND_COMPLEX)
        for (size_t i = 0; i < sizeof complex_refusals / sizeof *complex_refusals; i++)
            if (!strcmp(op, complex_refusals[i].op)) return tl_err(complex_refusals[i].kind, "%s", complex_refusals[i].msg);
    return 0;
}

/* torch's overlap policy for the written-to tensor (core/overlap.h); inputs whose
 * overlap with it cannot be judged are replaced by copies in c->tmp. */
static int check_out_overlap(ew_call *c, const tl_tensor *out)
{
    if (tl_check_internal_overlap(out) < 0) return -1;
    for (int k = 0; k < c->nin; k++) {
        const tl_tensor *t = c->in[k].t;
        if (!t || tl_check_partial_overlap(out, t) < 0) {
            if (t) return -1;
            continue;
        }
        if (tl_overlap_status(out, t) == TL_OVERLAP_TOO_HARD && tl_may_overlap(out, t)) {
            if (tl_clone(&c->tmp[k], t, (tl_dtype)t->dtype, TL_MEMFMT_CONTIGUOUS) < 0) return -1;
            c->has_tmp[k] = 1;
            c->in[k].t = &c->tmp[k];
        }
    }
    return 0;
}

static int run_body(ew_call *c, tl_ew_dest *dst);

typedef struct { int isz; int found; } zero_scan;

static void zero_loop(char **d, const int64_t *s, int64_t n, void *ctx)
{
    zero_scan *z = ctx;
    const char *p = d[0];
    int found = 0;
    switch (z->isz) {
#define SCAN(T) for (int64_t i = 0; i < n; i++) found |= *(const T *)(p + i * s[0]) == 0; break;
    case 1: SCAN(uint8_t)
    case 2: SCAN(uint16_t)
    case 4: SCAN(uint32_t)
    default: SCAN(uint64_t)
#undef SCAN
    }
    if (found) __atomic_store_n(&z->found, 1, __ATOMIC_RELAXED);
}

/* Whether an integer tensor has a zero element (every dtype this is asked about is an
 * integer type of 1, 2, 4 or 8 bytes). */
static int has_zero(const tl_tensor *t)
{
    tl_iter it;
    zero_scan z = {tl_itemsize(t), 0};
    if (tl_iter_init(&it, 1, &t, t->sizes, t->ndim, 0) < 0) return 0;
    tl_iter_run(&it, zero_loop, &z, TL_GRAIN_SIZE);
    return z.found;
}

/* torch's common device: the first operand that is not a 0-d CPU tensor (those go with any device). */
static tl_device common_device(const ew_call *c, const tl_tensor *const *tin)
{
    tl_device dev = tin[0] ? tin[0]->device : (tl_device){TL_DEV_CPU, -1};
    for (int k = 0; dev.type == TL_DEV_CPU && (!tin[0] || tin[0]->ndim == 0) && k < c->nin; k++) {
        const tl_tensor *t = c->in[k].t;
        if (t && (t->device.type != TL_DEV_CPU || t->ndim > 0)) {
            dev = t->device;
            break;
        }
    }
    return dev;
}

/* Operands on a backend's device (CUDA) run on its kernels: every tensor input on the common
 * device or a 0-d CPU tensor (a scalar), as torch's TensorIterator, whose message this is.
 * Mixes of only the CPU and meta are left to the iterator's check, as before. Sets *on_backend
 * when the common device has a backend. */
static int check_devices(const ew_call *c, const tl_tensor *const *tin, tl_device dev, int *on_backend)
{
    *on_backend = tl_device_on_backend(dev);
    for (int k = 0; k < c->nin; k++) {
        const tl_tensor *t = tin[k];
        if (!t || tl_device_eq(t->device, dev) || (t->device.type == TL_DEV_CPU && t->ndim == 0)) continue;
        if (*on_backend || tl_device_on_backend(t->device))
            return tl_device_mix_error(dev, t->device);
    }
    return 0;
}

/* The call on a backend's device, with the op's parameters as the backend takes them (kept
 * out of run(): the CPU path pays nothing for them). */
static __attribute__((noinline)) int run_on_backend(const ew_call *c, tl_dtype cdt, const tl_tensor *const *ops,
                                                    const bool *scalar, const int64_t *shape, int ndim)
{
    tl_backend_ew_params bp;
    memset(&bp, 0, sizeof bp);
    for (int k = 0; c->prm && k < 3; k++) {
        bp.d[k] = c->prm->d[k];
        bp.i[k] = c->prm->i[k];
        bp.c[k][0] = creal(c->prm->c[k]);
        bp.c[k][1] = cimag(c->prm->c[k]);
    }
    /* the op's option (isclose's equal_nan, logit's eps given, round's negative decimals):
     * those ops take at most two parameters (backend.h, TL_BACKEND_XOP_LIST) */
    if (c->prm && c->prm->flag) bp.i[2] = c->prm->flag;
    return tl_backend_elementwise(c->kname, c->name, c->nin, cdt, ops, scalar, shape, ndim, &bp);
}

/* out= on another device than the inputs' common one (all inputs on it, or 0-d CPU): torch
 * computes there and refuses the copy into out with this text. Mixed inputs are left to the
 * iterator's device check, as torch's. */
static int out_device_differs(const ew_call *c, const tl_tensor *const *tin, const tl_tensor *out)
{
    tl_device dev = common_device(c, tin);
    if (tl_device_eq(dev, out->device)) return 0;
    for (int k = 0; k < c->nin; k++) {
        const tl_tensor *t = c->in[k].t;
        if (t && !tl_device_eq(t->device, dev) && !(t->device.type == TL_DEV_CPU && t->ndim == 0)) return 0;
    }
    return tl_err(TL_ERR_RUNTIME, "Attempting to copy from device %s to device %s, but cross-device copies are not allowed!",
                  tl_device_type_names[dev.type], tl_device_type_names[out->device.type]);
}

static int run(ew_call *c, tl_ew_dest *dst)
{
    int rc = run_body(c, dst);
    for (int k = 0; k < 3; k++)
        if (c->has_tmp[k]) tl_tensor_clear(&c->tmp[k]);
    return rc;
}

/* Whether every operand is a CPU tensor either contiguous in `shape` or 0-d (a scalar, read
 * with stride 0); byte strides of the flat walk into strides[]. */
static bool flat_operands(const tl_tensor *const *ops, int n, const int64_t *shape, int ndim, bool fresh_out,
                          int64_t *strides)
{
    for (int k = 0; k < n; k++) {
        const tl_tensor *t = ops[k];
        if (t->device.type != TL_DEV_CPU) return false;
        if (t->ndim == 0) {
            strides[k] = 0;
            continue;
        }
        if (t->ndim != ndim || !((k == 0 && fresh_out) || tl_is_contiguous(t))) return false;
        for (int i = 0; i < ndim; i++)
            if (t->sizes[i] != shape[i]) return false;
        strides[k] = tl_itemsize(t);
    }
    return true;
}

static int run_body(ew_call *c, tl_ew_dest *dst)
{
    int64_t shape[TL_MAX_DIMS];
    int ndim = 0;
    const tl_tensor *tin[3] = {NULL, NULL, NULL};
    /* 1. operand checks and the broadcast shape */
    for (int k = 0; k < c->nin; k++) {
        const tl_tensor *t = c->in[k].t;
        if (!t) continue;
        if (t->layout != TL_LAYOUT_STRIDED)
            return tl_err(TL_ERR_NOTIMPL, "%s: sparse operands are not supported by the strided elementwise kernels", c->name);
        if (k > 0 || ndim > 0 || t->ndim > 0) {
            if (tl_broadcast_shapes(shape, ndim, t->sizes, t->ndim, shape, &ndim) < 0) return -1;
        }
        tin[k] = t;
    }
    tl_device dev = common_device(c, tin);
    int on_backend;
    if (check_devices(c, tin, dev, &on_backend) < 0) return -1;
    /* 2. result dtype */
    tl_dtype rdt;
    if (c->force_dtype >= 0) rdt = (tl_dtype)c->force_dtype;
    else {
        tl_operand_desc descs[5];
        int nd = 0;
        for (int k = 0; k < c->nin; k++)
            if (c->promote_mask & (1 << k)) descs[nd++] = arg_desc(c->in[k]);
        for (int k = 0; k < c->nextra; k++) {
            tl_ew_arg a = {NULL, c->extra[k]};
            descs[nd++] = arg_desc(a);
        }
        if (tl_result_type(descs, nd, tl_default_float(), &rdt) < 0) return -1;
    }
    if ((c->flags & EWF_FLOAT) && tl_dtype_kind(rdt) <= TL_KIND_INT) rdt = tl_default_float();
    tl_dtype cdt = compute_of(rdt);
    bool runs = c->kernel && (!tl_dtype_is_shell(rdt) || shell_runs(c, rdt)) &&
                !((c->flags & EWF_NO_C32) && rdt == TL_COMPLEX32) &&
                !((c->flags & EWF_NO_HALF) && cdt != rdt && rdt != TL_COMPLEX32);
    /* torch's order: the op's own checks, then out='s dtype, then the kernel's dispatch */
    if (!runs && refuse_complex(c->name, rdt) < 0) return -1;
    if (dst->mode == TL_EW_OUT && (c->flags & EWF_OUT_BOOL) && dst->out->dtype != TL_BOOL)
        return tl_err(TL_ERR_RUNTIME, "%s does not support non-boolean outputs.", c->name);
    /* (abs of complex writes any real dtype, or exactly its own complex one) */
    if (dst->mode == TL_EW_OUT && (c->flags & EWF_OUT_EXACT) && dst->out->dtype != rdt &&
        !(c->out_kind == TL_EW_OUT_REAL && tl_dtype_is_complex(rdt) && !tl_dtype_is_complex((tl_dtype)dst->out->dtype)))
        return tl_err(TL_ERR_RUNTIME, strcmp(c->kname, "nan_to_num") ? "Found dtype %s but expected %s"
                                      : "nan_to_num: dtype of out: %s should be same as input: %s",
                      tl_dtype_infos[dst->out->dtype].cname, tl_dtype_infos[rdt].cname);
    tl_dtype odt = c->out_kind == TL_EW_OUT_BOOL ? TL_BOOL : c->out_kind == TL_EW_OUT_REAL ? tl_dtype_to_real(rdt) : rdt;
    tl_dtype kodt = c->out_kind == TL_EW_OUT_BOOL ? TL_BOOL : c->out_kind == TL_EW_OUT_REAL ? tl_dtype_to_real(cdt) : cdt;
    if (dst->mode != TL_EW_NEW && tl_check_can_cast(odt, (tl_dtype)dst->out->dtype) < 0) return -1;
    if (!runs) /* (torch names floor_divide's and div(rounding_mode=)'s kernels apart) */
        return refuse_kernel(rdt, !strncmp(c->kname, "div_", 4) ? c->kname : c->name);
    /* 3. operands: scalars and 0-d tensors converted once; others cast in chunks. Everything
     * that can refuse is decided here, before the destination is resized or named. */
    tl_storage sst[3];
    tl_tensor st[3];
    _Alignas(16) char sbuf[3][16];
    const tl_tensor *ops[4];
    mixed_ctx m;
    memset(&m, 0, sizeof m);
    m.nops = c->nin + 1;
    int mixed = 0;
    tl_dtype final_dt = dst->mode == TL_EW_NEW ? odt : (tl_dtype)dst->out->dtype;
    /* torch computes a float16/bfloat16 op in that dtype, then casts it to out='s */
    bool through = odt != kodt && final_dt != odt;
    if (final_dt != kodt || through) {
        if (through) {
            m.round0 = tl_cast_loop(kodt, odt);
            m.rsize = tl_dtype_itemsize(odt);
        }
        m.cast[0] = tl_cast_loop(m.round0 ? odt : kodt, final_dt);
        m.csize[0] = tl_dtype_itemsize(kodt);
        if (!m.cast[0]) return refuse_kernel(final_dt, c->name);
        mixed = 1;
    }
    for (int k = 0; k < c->nin; k++) {
        tl_dtype want = c->in_compute[k] >= 0 ? (tl_dtype)c->in_compute[k] : cdt;
        const tl_tensor *t = c->in[k].t;
        /* on a backend device every host value (0-d CPU tensor) is passed as a scalar */
        if (!t || (t->ndim == 0 && (on_backend ? t->device.type == TL_DEV_CPU : t->dtype != want))) {
            /* a device tensor's value is not read on the host (meta has none; the iterator refuses
             * other devices) */
            tl_scalar s = !t ? c->in[k].s : t->device.type != TL_DEV_CPU ? tl_scalar_int(0)
                                                                         : tl_scalar_from_bytes(tl_data(t), (tl_dtype)t->dtype);
            if (tl_scalar_to_bytes(s, want, sbuf[k]) < 0) return -1;
            memset(&sst[k], 0, sizeof sst[k]);
            sst[k].refcnt = 1;
            sst[k].data = sbuf[k];
            sst[k].nbytes = 16;
            memset(&st[k], 0, sizeof st[k]);
            st[k].storage = &sst[k];
            st[k].sizes = st[k].small;
            st[k].strides = st[k].small + TL_SMALL_DIMS;
            st[k].dtype = (uint8_t)want;
            ops[k + 1] = &st[k];
        } else {
            ops[k + 1] = t;
            if (t->dtype != want) {
                m.cast[k + 1] = tl_cast_loop((tl_dtype)t->dtype, want);
                m.csize[k + 1] = tl_dtype_itemsize(want);
                if (!m.cast[k + 1])
                    return refuse_kernel((tl_dtype)t->dtype, c->name);
                mixed = 1;
            }
        }
    }
    /* integer division by zero is found before anything is written (torch raises
     * mid-kernel, after part of self or out= has been overwritten) */
    int64_t numel = 1;
    for (int i = 0; i < ndim; i++)
        if (__builtin_mul_overflow(numel, shape[i], &numel)) numel = 1; /* refused when allocated */
    /* (on a backend device only a host scalar divisor is checked: a device tensor is not read
     * on the host, and the device math gives 0) */
    if ((c->flags & EWF_ZERODIV) && tl_dtype_kind(cdt) <= TL_KIND_INT && c->nin > 1 && numel > 0 &&
        (!on_backend || ops[2] == &st[1]) && has_zero(ops[2]))
        return tl_err(TL_ERR_ZERODIV, "ZeroDivisionError");
    /* a backend lacking the op or a dtype refuses here, before the destination changes */
    if (on_backend) {
        int idt[3];
        for (int k = 0; k < c->nin; k++) idt[k] = ops[k + 1] == &st[k] ? (int)cdt : ops[k + 1]->dtype;
        if (tl_backend_ew_supported(c->kname, c->name, c->nin, cdt, final_dt, idt, dev) < 0) return -1;
    }
    /* 4. names */
    int32_t names[TL_MAX_DIMS];
    int has_names = 0;
    if (c->names_from >= 0) {
        const tl_tensor *t = c->in[c->names_from].t;
        if (t && t->names && t->ndim == ndim) {
            memcpy(names, t->names, sizeof(int32_t) * ndim);
            has_names = 1;
        }
    } else {
        int32_t acc[TL_MAX_DIMS];
        int acc_n = 0, acc_has = 0;
        for (int j = 0; j < c->nin; j++) {
            const tl_tensor *t = c->in[c->names_from == -2 ? c->nin - 1 - j : j].t;
            if (!t) continue;
            int r = tl_names_unify_lists(names, acc_has ? acc : NULL, acc_n, t->names, t->ndim,
                                         acc_n > t->ndim ? acc_n : t->ndim);
            if (r < 0) return -1;
            acc_n = acc_n > t->ndim ? acc_n : t->ndim;
            if (r > 0) { memcpy(acc, names, sizeof(int32_t) * acc_n); acc_has = 1; }
        }
        if (acc_has) { memcpy(names, acc, sizeof(int32_t) * ndim); has_names = 1; }
    }
    /* 5. destination */
    tl_tensor *out = dst->out;
    bool fresh_out = false; /* out made here by tl_tensor_empty */
    if (dst->mode != TL_EW_NEW) {
        /* (torch casts any result into a float8 out=) */
        if (tl_dtype_is_shell((tl_dtype)out->dtype) && out->dtype != odt && !shell_runs(c, (tl_dtype)out->dtype) &&
            !tl_dtype_is_float8((tl_dtype)out->dtype))
            return refuse_kernel((tl_dtype)out->dtype, c->name);
        if (tl_check_writable(out) < 0) return -1;
        int same = out->ndim == ndim;
        for (int i = 0; same && i < ndim; i++) same = out->sizes[i] == shape[i];
        if (same && check_out_overlap(c, out) < 0) return -1;
        if (!same) {
            char b1[128], b2[128];
            if (dst->mode == TL_EW_INPLACE)
                return tl_err(TL_ERR_RUNTIME, "output with shape %s doesn't match the broadcast shape %s",
                              tl_shape_str(out->sizes, out->ndim, b1, sizeof b1), tl_shape_str(shape, ndim, b2, sizeof b2));
        }
        if (dst->mode == TL_EW_OUT && tl_names_check_out(out, ndim, shape, has_names ? names : NULL) < 0) return -1;
        if (dst->mode == TL_EW_OUT && out_device_differs(c, tin, out) < 0) return -1;
        if (!same) {
            if (tl_numel(out) > 0) {
                dst->resized = 1;
                tl_shape_str(out->sizes, out->ndim, dst->old_shape, sizeof dst->old_shape);
                tl_shape_str(shape, ndim, dst->new_shape, sizeof dst->new_shape);
            }
            if (resize_out(out, shape, ndim) < 0) return -1;
        }
    } else {
        const tl_tensor *dom = NULL;
        for (int k = 0; k < c->nin && !dom; k++) {
            const tl_tensor *t = c->in[k].t;
            if (!t || t->ndim != ndim || ndim == 0) continue;
            int same = 1;
            for (int i = 0; same && i < ndim; i++) same = t->sizes[i] == shape[i];
            if (same) dom = t;
        }
        bool like = dom && !c->contiguous_out && !tl_is_contiguous(dom);
        int rc = like ? tl_tensor_empty_like(out, dom, odt, TL_MEMFMT_PRESERVE)
                      : tl_tensor_empty(out, ndim, shape, odt, dev, false);
        if (rc < 0) return -1;
        fresh_out = !like; /* contiguous by construction */
    }
    if (has_names || dst->mode != TL_EW_NEW) {
        if (!(dst->mode == TL_EW_OUT && out->names && !has_names))
            if (tl_tensor_set_names(out, has_names ? names : NULL) < 0) return -1;
    }
    /* 6. iterate (inputs the overlap check replaced by copies are read from those) */
    ops[0] = out;
    for (int k = 0; k < c->nin; k++)
        if (ops[k + 1] != &st[k]) ops[k + 1] = c->in[k].t;
    if (on_backend) {
        bool scalar[3];
        for (int k = 0; k < c->nin; k++) scalar[k] = ops[k + 1] == &st[k];
        if (!through) return run_on_backend(c, cdt, ops, scalar, shape, ndim);
        /* the result in the op's dtype first, then cast into out= (the CPU's round0) */
        tl_tensor tmp;
        memset(&tmp, 0, sizeof tmp);
        tmp.sizes = tmp.small;
        tmp.strides = tmp.small + TL_SMALL_DIMS;
        if (tl_tensor_empty(&tmp, ndim, shape, odt, out->device, false) < 0) return -1;
        const tl_tensor *tops[4] = {&tmp};
        for (int k = 1; k <= c->nin; k++) tops[k] = ops[k];
        int rc = run_on_backend(c, cdt, tops, scalar, shape, ndim);
        if (rc == 0) rc = tl_copy_(out, &tmp);
        tl_tensor_clear(&tmp);
        return rc;
    }
    tl_ew_params prm;
    if (c->prm) prm = *c->prm;
    else memset(&prm, 0, sizeof prm);
    prm.zerodiv = 0;
    int64_t flat[4];
    if (!mixed && numel > 0 && numel <= TL_GRAIN_SIZE && flat_operands(ops, m.nops, shape, ndim, fresh_out, flat)) {
        /* a small op on dense operands of one shape: the kernel over the flat elements, with
         * no iterator to set up (a + b on small tensors is mostly that setup) */
        char *data[4];
        for (int k = 0; k < m.nops; k++) data[k] = tl_data(ops[k]);
        c->kernel(data, flat, numel, &prm);
        return prm.zerodiv ? tl_err(TL_ERR_ZERODIV, "ZeroDivisionError") : 0;
    }
    tl_iter it;
    if (tl_iter_init(&it, m.nops, ops, shape, ndim, TL_ITER_TILE_INPUTS) < 0) return -1;
    if (mixed) {
        m.kernel = c->kernel;
        m.kctx = &prm;
        tl_iter_run(&it, mixed_loop, &m, TL_GRAIN_SIZE);
    } else {
        tl_iter_run(&it, c->kernel, &prm, TL_GRAIN_SIZE);
    }
    if (prm.zerodiv) return tl_err(TL_ERR_ZERODIV, "ZeroDivisionError");
    return 0;
}

static void call_init(ew_call *c, const op_info *info, tl_loop_fn kernel, const tl_ew_params *prm)
{
    memset(c, 0, sizeof *c);
    c->name = info->name;
    c->kname = info->name;
    c->out_kind = info->out;
    c->flags = info->flags;
    c->kernel = kernel;
    c->force_dtype = -1;
    c->in_compute[0] = c->in_compute[1] = c->in_compute[2] = -1;
    c->names_from = -1;
    c->prm = prm;
}

/* The kernel for the op after promotion is only known inside run(); look it up lazily. */
static int pick_kernel_unary(ew_call *c, tl_uop op)
{
    /* result dtype is needed to choose; compute it the same way run() does */
    tl_operand_desc descs[3];
    int nd = 0;
    descs[nd++] = arg_desc(c->in[0]);
    for (int k = 0; k < c->nextra; k++) {
        tl_ew_arg a = {NULL, c->extra[k]};
        descs[nd++] = arg_desc(a);
    }
    tl_dtype r;
    if (tl_result_type(descs, nd, tl_default_float(), &r) < 0) return -1;
    if ((c->flags & EWF_FLOAT) && tl_dtype_kind(r) <= TL_KIND_INT) r = tl_default_float();
    c->kernel = tl_ew_unary_kernel(op, compute_of(r));
    return 0;
}

int tl_ew_unary_promoting(tl_uop op, const tl_tensor *x, const tl_scalar *bounds, int nb, tl_ew_dest *dst,
                          const tl_ew_params *prm)
{
    ew_call c;
    call_init(&c, &uinfo[op], NULL, prm);
    c.nin = 1;
    c.in[0].t = x;
    c.promote_mask = 1;
    c.extra = bounds;
    c.nextra = nb;
    c.names_from = 0;
    if (x->dtype == TL_BOOL && op == TL_UOP_neg)
        return tl_err(TL_ERR_RUNTIME, "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
    if (x->dtype == TL_BOOL && op == TL_UOP_relu) return tl_err(TL_ERR_RUNTIME, "Boolean inputs not supported for relu");
    if (tl_dtype_is_complex((tl_dtype)x->dtype) && op == TL_UOP_sign)
        return tl_err(TL_ERR_NOTIMPL, "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn instead.");
    if (pick_kernel_unary(&c, op) < 0) return -1;
    return run(&c, dst);
}

/* float4_e2m1fn_x2 packs two values in a byte, and torch runs only byte-wise ops on it: eq/ne
 * compare the bytes, where selects them, isnan is false and isreal true. f4_op runs them on uint8
 * views of the same bytes (a float4 out= too; in place, the first input's view is the
 * destination) and relabels a new result of where as float4. Out of line: the entries only test
 * the dtype. */
static bool is_f4(const tl_tensor *t) { return t && t->dtype == TL_FLOAT4_E2M1FN_X2; }

enum { F4_UNARY, F4_BINARY, F4_WHERE };

static __attribute__((noinline)) int f4_op(int kind, int op, const tl_tensor *cond, tl_ew_arg a, tl_ew_arg b,
                                           tl_ew_dest *dst, const tl_ew_params *prm)
{
    tl_tensor va = {0}, vb = {0}, vo = {0};
    tl_ew_dest d = *dst;
    int rc = tl_view_dtype(&va, a.t, TL_UINT8);
    if (rc == 0 && kind != F4_UNARY) rc = tl_view_dtype(&vb, b.t, TL_UINT8);
    if (rc == 0 && dst->mode == TL_EW_INPLACE) d.out = &va;
    if (rc == 0 && dst->mode == TL_EW_OUT && is_f4(dst->out)) {
        rc = tl_view_dtype(&vo, dst->out, TL_UINT8);
        d.out = &vo;
    }
    a.t = &va;
    b.t = &vb;
    if (rc == 0)
        rc = kind == F4_UNARY    ? tl_ew_unary((tl_uop)op, &va, &d, prm)
             : kind == F4_BINARY ? tl_ew_binary((tl_bop)op, a, b, &d, prm)
                                 : tl_ew_where(cond, a, b, &d);
    dst->resized = d.resized;
    if (rc == 0 && kind == F4_WHERE && dst->mode == TL_EW_NEW) dst->out->dtype = TL_FLOAT4_E2M1FN_X2;
    tl_tensor_clear(&va);
    tl_tensor_clear(&vb);
    tl_tensor_clear(&vo);
    return rc;
}

int tl_ew_unary(tl_uop op, const tl_tensor *x, tl_ew_dest *dst, const tl_ew_params *prm)
{
    if (x->dtype == TL_FLOAT4_E2M1FN_X2 && (op == TL_UOP_isnan || op == TL_UOP_isreal))
        return f4_op(F4_UNARY, op, NULL, (tl_ew_arg){x, {0}}, (tl_ew_arg){NULL, {0}}, dst, prm);
    /* |z| is real: torch refuses to write it into the complex input (out= is fine) */
    if (op == TL_UOP_abs && dst->mode == TL_EW_INPLACE && tl_dtype_is_complex((tl_dtype)x->dtype))
        return tl_err(TL_ERR_RUNTIME, "In-place abs is not supported for complex tensors.");
    if (op == TL_UOP_logit && prm && (x->dtype == TL_FLOAT16 || x->dtype == TL_BFLOAT16)) {
        /* torch computes it in the half type: the kernel rounds each step to it (hd_math.h) */
        tl_ew_params p = *prm;
        p.i[1] = x->dtype == TL_FLOAT16 ? 1 : 2;
        return tl_ew_unary_promoting(op, x, NULL, 0, dst, &p);
    }
    return tl_ew_unary_promoting(op, x, NULL, 0, dst, prm);
}

int tl_ew_binary(tl_bop op, tl_ew_arg a, tl_ew_arg b, tl_ew_dest *dst, const tl_ew_params *prm)
{
    if ((op == TL_BOP_eq || op == TL_BOP_ne) && is_f4(a.t) && is_f4(b.t))
        return f4_op(F4_BINARY, op, NULL, a, b, dst, prm);
    ew_call c;
    call_init(&c, &binfo[op], NULL, prm);
    if (op == TL_BOP_sub || (op == TL_BOP_add_alpha && prm && prm->flag)) {
        int ba = arg_dtype(a) == TL_BOOL, bb = arg_dtype(b) == TL_BOOL;
        if (ba && bb)
            return tl_err(TL_ERR_RUNTIME, "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.");
        if (ba || bb)
            return tl_err(TL_ERR_RUNTIME, "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
    }
    c.nin = 2;
    c.in[0] = a;
    c.in[1] = b;
    c.promote_mask = 3;
    /* torch's maximum/minimum/fmax/fmin refuse a complex operand before promoting the two (the
     * words: complex_refusals) */
    if ((op == TL_BOP_maximum || op == TL_BOP_minimum || op == TL_BOP_fmax || op == TL_BOP_fmin) &&
        ((a.t && refuse_complex(c.name, (tl_dtype)a.t->dtype) < 0) || (b.t && refuse_complex(c.name, (tl_dtype)b.t->dtype) < 0)))
        return -1;
    tl_dtype r;
    if (tl_ew_result_type2(a, b, &r) < 0) return -1;
    if ((c.flags & EWF_FLOAT) && tl_dtype_kind(r) <= TL_KIND_INT) r = tl_default_float();
    if (op == TL_BOP_pow && tl_dtype_kind(r) <= TL_KIND_INT) {
        if (r == TL_BOOL && b.t) return tl_err_dispatch(TL_ERR_NOTIMPL, TL_BOOL, "pow");
        if (!b.t && b.s.kind == TL_KIND_INT && b.s.v.i < 0)
            return tl_err(TL_ERR_RUNTIME, "Integers to negative integer powers are not allowed.");
        /* torch's pow(Tensor, Scalar) reads the exponent in the tensor's integer type, checked
         * (int8 ** 200 raises instead of computing with a wrapped exponent) */
        if (!b.t && r != TL_BOOL && tl_scalar_check_fits(b.s, r) < 0) return -1;
    }
    if (op == TL_BOP_pow && !b.t && (r == TL_FLOAT16 || r == TL_BFLOAT16)) {
        /* torch's pow(Tensor, Scalar) rounds the exponent to the tensor's dtype first */
        char tmp[16];
        if (tl_scalar_to_bytes(b.s, r, tmp) < 0) return -1;
        c.in[1].s = tl_scalar_from_bytes(tmp, r);
    }
    /* torch multiplies by a one-element second operand in its reduced-float scalar kernel,
     * which lacks float8 */
    if (op == TL_BOP_mul && tl_dtype_is_float8(r) && (!b.t || tl_numel(b.t) == 1))
        return tl_err_dispatch(TL_ERR_NOTIMPL, r, "mul_cpu_reduced_float");
    c.kernel = tl_ew_binary_kernel(op, compute_of(r));
    if (op == TL_BOP_add_alpha || op == TL_BOP_sub) c.name = op == TL_BOP_sub || (prm && prm->flag) ? "sub" : "add";
    if (op == TL_BOP_div_trunc || op == TL_BOP_div_floor) c.name = "div";
    return run(&c, dst);
}

int tl_ew_where(const tl_tensor *cond, tl_ew_arg a, tl_ew_arg b, tl_ew_dest *dst)
{
    if (cond->dtype != TL_BOOL && cond->dtype != TL_UINT8)
        return tl_err(TL_ERR_RUNTIME, "where expected condition to be a boolean tensor, but got a tensor with dtype %s",
                      tl_dtype_infos[cond->dtype].cname);
    if (is_f4(a.t) && is_f4(b.t)) return f4_op(F4_WHERE, 0, cond, a, b, dst, NULL);
    ew_call c;
    call_init(&c, &tinfo[TL_TOP_where], NULL, NULL);
    c.nin = 3;
    c.in[0].t = cond;
    c.in[1] = a;
    c.in[2] = b;
    c.promote_mask = 6;
    c.in_compute[0] = TL_BOOL;
    tl_dtype r;
    if (tl_ew_result_type2(a, b, &r) < 0) return -1;
    c.kernel = tl_ew_ternary_kernel(TL_TOP_where, compute_of(r));
    return run(&c, dst);
}

/* torch 2.13's lerp.Tensor: end has input's dtype; a weight with dims too, a 0-d weight takes
 * part in promotion instead (int64 ends with a 0-d float weight give float32). */
int tl_ew_lerp(const tl_tensor *a, const tl_tensor *b, const tl_tensor *w, tl_ew_dest *dst)
{
    if (a->dtype != b->dtype)
        return tl_err(TL_ERR_RUNTIME, "expected dtype %s for `end` but got dtype %s", tl_dtype_typemeta((tl_dtype)a->dtype),
                      tl_dtype_typemeta((tl_dtype)b->dtype));
    if (w->ndim != 0 && a->dtype != w->dtype)
        return tl_err(TL_ERR_RUNTIME, "expected dtype %s for `weight` but got dtype %s",
                      tl_dtype_typemeta((tl_dtype)a->dtype), tl_dtype_typemeta((tl_dtype)w->dtype));
    ew_call c;
    call_init(&c, &tinfo[TL_TOP_lerp], NULL, NULL);
    c.nin = 3;
    c.in[0].t = a;
    c.in[1].t = b;
    c.in[2].t = w;
    c.promote_mask = 7;
    tl_operand_desc descs[3] = {arg_desc(c.in[0]), arg_desc(c.in[1]), arg_desc(c.in[2])};
    tl_dtype r;
    if (tl_result_type(descs, 3, tl_default_float(), &r) < 0) return -1;
    c.kernel = tl_ew_ternary_kernel(TL_TOP_lerp, compute_of(r));
    return run(&c, dst);
}

int tl_ew_addc(int div, const tl_tensor *a, const tl_tensor *t1, const tl_tensor *t2, tl_scalar value, tl_ew_dest *dst)
{
    if (div && tl_dtype_kind((tl_dtype)t1->dtype) <= TL_KIND_INT && tl_dtype_kind((tl_dtype)t2->dtype) <= TL_KIND_INT)
        return tl_err(TL_ERR_RUNTIME, "Integer division with addcdiv is no longer supported, and in a future  release addcdiv "
                      "will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as "
                      "(input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value "
                      "* tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: "
                      "(input + value * tensor1 / tensor2), for all dtypes.");
    tl_top op = div ? TL_TOP_addcdiv : TL_TOP_addcmul;
    ew_call c;
    tl_ew_params prm;
    memset(&prm, 0, sizeof prm);
    tl_ew_param(&prm, 0, value);
    call_init(&c, &tinfo[op], NULL, &prm);
    c.nin = 3;
    c.in[0].t = a;
    c.in[1].t = t1;
    c.in[2].t = t2;
    c.promote_mask = 7;
    tl_operand_desc descs[3] = {arg_desc(c.in[0]), arg_desc(c.in[1]), arg_desc(c.in[2])};
    tl_dtype r;
    if (tl_result_type(descs, 3, tl_default_float(), &r) < 0) return -1;
    if (!div && r == TL_BOOL) return tl_err_dispatch(TL_ERR_NOTIMPL, TL_BOOL, "addcmul_cpu_out");
    if (tl_scalar_check_fits(value, r) < 0) return -1;  /* torch converts value to the result dtype, checked */
    c.kernel = tl_ew_ternary_kernel(op, compute_of(r));
    return run(&c, dst);
}

int tl_ew_masked_fill(const tl_tensor *x, const tl_tensor *mask, tl_ew_arg value, tl_ew_dest *dst)
{
    if (mask->dtype != TL_BOOL)
        return tl_err(TL_ERR_RUNTIME, "masked_fill_ only supports boolean masks, but got mask with dtype %s",
                      tl_dtype_infos[mask->dtype].cname);
    if (value.t && value.t->ndim != 0)
        return tl_err(TL_ERR_RUNTIME, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with %d dimension(s).",
                      value.t->ndim);
    if (tl_dtype_is_shell((tl_dtype)x->dtype)) /* torch's masked_fill has none of them */
        return tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)x->dtype, "masked_fill");
    ew_call c;
    call_init(&c, &tinfo[TL_TOP_where], NULL, NULL);
    c.name = "masked_fill";
    c.nin = 3;
    c.in[0].t = mask;
    c.in[1] = value;
    c.in[2].t = x;
    c.force_dtype = x->dtype;
    c.contiguous_out = 1; /* torch: a contiguous clone of x (broadcast to the mask), then filled */
    c.in_compute[0] = TL_BOOL;
    /* names: x's unified with the mask's from the right (torch 1.13); torch names x first out
     * of place and the mask first in place in its mismatch messages */
    c.names_from = dst->mode == TL_EW_INPLACE ? -1 : -2;
    c.kernel = tl_ew_ternary_kernel(TL_TOP_where, compute_of((tl_dtype)x->dtype));
    return run(&c, dst);
}

int tl_ew_real_view(tl_tensor *out, const tl_tensor *x, int imag)
{
    if (!tl_dtype_is_complex((tl_dtype)x->dtype)) {
        if (imag) return tl_err(TL_ERR_RUNTIME, "imag is not implemented for tensors with non-complex dtypes.");
        return tl_tensor_alias(out, x);
    }
    if (tl_tensor_alias(out, x) < 0) return -1;
    for (int i = 0; i < out->ndim; i++) out->strides[i] *= 2;
    out->offset = x->offset * 2 + (imag ? 1 : 0);
    out->dtype = (uint8_t)tl_dtype_to_real((tl_dtype)x->dtype);
    return tl_tensor_copy_names(out, x);
}
