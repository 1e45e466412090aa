/* arith.c - binding of the elementwise ops: Python operators (number slots and rich
 * comparison), Tensor methods and module functions. Converts operands (tensors, Python
 * scalars, NumPy scalars as 0-d tensors) and hands them to ops/elementwise.h; no math. */
#include "python/binding.h"

#include <string.h>

#include "core/promote.h"
#include "kernels/cast.h"
#include "ops/elementwise.h"

/* ---- operands ---- */

/* A converted operand; NumPy scalars live in `tmp` as 0-d tensors. */
typedef struct {
    tl_ew_arg a;
    tl_tensor tmp;
    tl_storage st;
    _Alignas(16) char buf[16];
} pyarg;

static PyObject *np_generic; /* numpy.generic, looked up on first use */

static int numpy_scalar(PyObject *o, pyarg *p)
{
    if (!np_generic) {
        PyObject *np = PyImport_ImportModule("numpy");
        if (!np) { PyErr_Clear(); return 0; }
        np_generic = PyObject_GetAttrString(np, "generic");
        Py_DECREF(np);
        if (!np_generic) { PyErr_Clear(); return 0; }
    }
    int r = PyObject_IsInstance(o, np_generic);
    if (r <= 0) { PyErr_Clear(); return 0; }
    PyObject *dt = PyObject_GetAttrString(o, "dtype");
    PyObject *name = dt ? PyObject_GetAttrString(dt, "name") : NULL;
    Py_XDECREF(dt);
    const char *s = name ? PyUnicode_AsUTF8(name) : NULL;
    int d = s ? tl_dtype_from_name(s) : -1;
    Py_XDECREF(name);
    if (d < 0) { PyErr_Clear(); return 0; }
    PyObject *item = PyObject_CallMethod(o, "item", NULL);
    if (!item) { PyErr_Clear(); return 0; }
    tl_scalar sc;
    int rc = tl_conv_scalar(item, &sc);
    Py_DECREF(item);
    if (rc < 0) { PyErr_Clear(); return 0; }
    if (tl_scalar_to_bytes(sc, (tl_dtype)d, p->buf) < 0) { tl_err_clear(); return 0; }
    memset(&p->st, 0, sizeof p->st);
    p->st.refcnt = 1;
    p->st.data = p->buf;
    p->st.nbytes = sizeof p->buf;
    memset(&p->tmp, 0, sizeof p->tmp);
    p->tmp.storage = &p->st;
    p->tmp.sizes = p->tmp.small;
    p->tmp.strides = p->tmp.small + TL_SMALL_DIMS;
    p->tmp.dtype = (uint8_t)d;
    p->a.t = &p->tmp;
    return 1;
}

/* 1 when o is an operand (filled into p), 0 when it is not (no exception set), -1 when it
 * is one that cannot be converted (an int beyond 64 bits: OverflowError, as torch). */
static int to_arg(PyObject *o, pyarg *p)
{
    p->a.t = NULL;
    if (tl_is_tensor(o)) { p->a.t = TL_TENSOR(o); return 1; }
    if (PyFloat_CheckExact(o)) { p->a.s = tl_scalar_double(PyFloat_AS_DOUBLE(o)); return 1; }
    if (PyLong_CheckExact(o)) return tl_conv_pyint(o, &p->a.s) < 0 ? -1 : 1;
    if (PyBool_Check(o)) { p->a.s = tl_scalar_bool(o == Py_True); return 1; }
    if (PyComplex_CheckExact(o)) {
        Py_complex c = PyComplex_AsCComplex(o);
        p->a.s = tl_scalar_complex(CMPLX(c.real, c.imag));
        return 1;
    }
    if (numpy_scalar(o, p)) return 1;
    if (PyFloat_Check(o) || PyLong_Check(o) || PyComplex_Check(o)) return tl_conv_scalar(o, &p->a.s) < 0 ? -1 : 1;
    return 0;
}

static int arg_or_raise(PyObject *o, pyarg *p, const char *fname, const char *argname, int pos)
{
    int r = to_arg(o, p);
    if (r) return r > 0 ? 0 : -1;
    PyErr_Format(PyExc_TypeError, "%s(): argument '%s' (position %d) must be Tensor, not %s", fname, argname, pos,
                 Py_TYPE(o)->tp_name);
    return -1;
}

static int tensor_or_raise(PyObject *o, const char *fname, const char *argname, int pos)
{
    if (tl_is_tensor(o)) return 0;
    PyErr_Format(PyExc_TypeError, "%s(): argument '%s' (position %d) must be Tensor, not %s", fname, argname, pos,
                 Py_TYPE(o)->tp_name);
    return -1;
}

/* ---- running an op and returning its result ---- */

static PyObject *finish(int rc, TensorObject *res, PyObject *target, tl_ew_dest *dst)
{
    if (rc < 0) {
        Py_XDECREF(res);
        return tl_raise();
    }
    if (dst->resized && tl_warn_out_resized(dst->old_shape, dst->new_shape) < 0) {
        Py_XDECREF(res);
        return NULL;
    }
    if (res) return (PyObject *)res;
    Py_INCREF(target);
    return target;
}

/* Prepares dst for out (may be NULL / None) or in-place on self; *res gets a new object in NEW mode. */
static int prepare(tl_ew_dest *dst, PyObject *out, PyObject *self_inplace, TensorObject **res)
{
    dst->resized = 0;
    *res = NULL;
    if (self_inplace) {
        dst->mode = TL_EW_INPLACE;
        dst->out = TL_TENSOR(self_inplace);
        return 0;
    }
    if (out && out != Py_None) {
        if (!tl_is_tensor(out)) {
            PyErr_Format(PyExc_TypeError, "argument 'out' must be Tensor, not %s", Py_TYPE(out)->tp_name);
            return -1;
        }
        dst->mode = TL_EW_OUT;
        dst->out = TL_TENSOR(out);
        return 0;
    }
    *res = tl_tensor_alloc();
    if (!*res) return -1;
    dst->mode = TL_EW_NEW;
    dst->out = &(*res)->t;
    return 0;
}

/* torch's in-place add_/sub_/mul_/div_/floor_divide_/logical_and_ of a meta self take a CPU
 * operand of any shape (its meta kernels never look at the data; other in-place ops refuse it):
 * the operand is replaced by a meta stand-in of the same geometry, so the iterator checks
 * broadcasting and dtypes as for meta operands and runs no loop. */
static bool meta_takes_cpu(tl_bop op)
{
    return op == TL_BOP_add || op == TL_BOP_add_alpha || op == TL_BOP_sub || op == TL_BOP_mul || op == TL_BOP_div ||
           op == TL_BOP_div_floor || op == TL_BOP_logical_and;
}

static PyObject *do_binary_meta_self(tl_bop op, tl_ew_arg a, tl_ew_arg b, PyObject *self, const tl_ew_params *prm);

static PyObject *do_binary(tl_bop op, tl_ew_arg a, tl_ew_arg b, PyObject *out, PyObject *self_inplace,
                           const tl_ew_params *prm)
{
    tl_ew_dest dst;
    TensorObject *res;
    if (self_inplace && TL_TENSOR(self_inplace)->device.type == TL_DEV_META && b.t && b.t->device.type == TL_DEV_CPU &&
        b.t->ndim > 0 && meta_takes_cpu(op))
        return do_binary_meta_self(op, a, b, self_inplace, prm);
    if (prepare(&dst, out, self_inplace, &res) < 0) return NULL;
    const tl_tensor *ts[2] = {a.t, b.t};
    tl_nogil g = {0};
    if (res) tl_nogil_begin(&g, ts, 2);  /* only a fresh result may be written without the GIL */
    a.t = ts[0], b.t = ts[1];
    int rc = tl_ew_binary(op, a, b, &dst, prm);
    tl_nogil_end(&g);
    return finish(rc, res, out && out != Py_None ? out : self_inplace, &dst);
}

static PyObject *do_binary_meta_self(tl_bop op, tl_ew_arg a, tl_ew_arg b, PyObject *self, const tl_ew_params *prm)
{
    tl_tensor stand_in = {0};
    if (tl_tensor_empty_strided(&stand_in, b.t->ndim, b.t->sizes, b.t->strides, (tl_dtype)b.t->dtype,
                                TL_TENSOR(self)->device) < 0)
        return tl_raise();
    b.t = &stand_in;
    PyObject *r = do_binary(op, a, b, NULL, self, prm);
    tl_tensor_clear(&stand_in);
    return r;
}

static PyObject *do_unary(tl_uop op, const tl_tensor *x, PyObject *out, PyObject *self_inplace, const tl_ew_params *prm)
{
    tl_ew_dest dst;
    TensorObject *res;
    if (prepare(&dst, out, self_inplace, &res) < 0) return NULL;
    tl_nogil g = {0};
    if (res) tl_nogil_begin(&g, &x, 1);  /* only a fresh result may be written without the GIL */
    int rc = tl_ew_unary(op, x, &dst, prm);
    tl_nogil_end(&g);
    return finish(rc, res, out && out != Py_None ? out : self_inplace, &dst);
}

/* ---- Python operators ---- */

/* The operand that is not a tensor or scalar, when it is an ndarray, converted to a tensor
 * into `p` (its reference in *conv): NumPy arrays mix with tensors in operators as tensors,
 * as in torch. 1 converted, 0 not an operand, -1 error. */
static int ndarray_arg(PyObject *o, pyarg *p, PyObject **conv)
{
    int r = tl_ndarray_operand(o, conv);
    if (r <= 0) return r;
    p->a.t = TL_TENSOR(*conv);
    return 1;
}

static PyObject *binop(PyObject *a, PyObject *b, tl_bop op)
{
    pyarg pa, pb;
    PyObject *conv = NULL;
    int ra = to_arg(a, &pa), rb = ra < 0 ? 0 : to_arg(b, &pb);
    if (ra < 0 || rb < 0) return NULL;
    if (!ra) ra = ndarray_arg(a, &pa, &conv);
    else if (!rb) rb = ndarray_arg(b, &pb, &conv);
    if (ra < 0 || rb < 0) return NULL;
    if (!ra || !rb) Py_RETURN_NOTIMPLEMENTED;
    PyObject *r = do_binary(op, pa.a, pb.a, NULL, NULL, NULL);
    Py_XDECREF(conv);
    return r;
}

static PyObject *ibinop(PyObject *a, PyObject *b, tl_bop op)
{
    pyarg pb;
    PyObject *conv = NULL;
    int rb = tl_is_tensor(a) ? to_arg(b, &pb) : 0;
    if (rb == 0 && tl_is_tensor(a)) rb = ndarray_arg(b, &pb, &conv);
    if (rb < 0) return NULL;
    if (!rb) Py_RETURN_NOTIMPLEMENTED;
    tl_ew_arg x = {TL_TENSOR(a), {0}};
    PyObject *r = do_binary(op, x, pb.a, NULL, a, NULL);
    Py_XDECREF(conv);
    return r;
}

#define NB(slot, op) \
    static PyObject *nb_##slot(PyObject *a, PyObject *b) { return binop(a, b, TL_BOP_##op); } \
    static PyObject *nb_inplace_##slot(PyObject *a, PyObject *b) { return ibinop(a, b, TL_BOP_##op); }
NB(add, add)
NB(subtract, sub)
NB(multiply, mul)
NB(true_divide_tt, div)
NB(floor_divide, div_floor)
NB(remainder, remainder)
NB(and, bitwise_and)
NB(or, bitwise_or)
NB(xor, bitwise_xor)
NB(lshift, lshift)
NB(rshift, rshift)

/* scalar / tensor is torch's __rtruediv__, reciprocal(tensor) * scalar: its rounding, and its
 * dtypes (complex / float16 is complex32, whose division torch has no kernel for). */
static PyObject *nb_true_divide(PyObject *a, PyObject *b)
{
    pyarg pa;
    int ra = tl_is_tensor(a) || !tl_is_tensor(b) ? 0 : to_arg(a, &pa);
    if (ra < 0) return NULL;
    if (!ra) return nb_true_divide_tt(a, b);
    PyObject *r = do_unary(TL_UOP_reciprocal, TL_TENSOR(b), NULL, NULL, NULL);
    if (!r) return NULL;
    PyObject *res = binop(r, a, TL_BOP_mul);
    Py_DECREF(r);
    return res;
}
static PyObject *nb_inplace_true_divide(PyObject *a, PyObject *b) { return nb_inplace_true_divide_tt(a, b); }

static PyObject *nb_power(PyObject *a, PyObject *b, PyObject *mod)
{
    if (mod != Py_None) Py_RETURN_NOTIMPLEMENTED;
    return binop(a, b, TL_BOP_pow);
}
static PyObject *nb_inplace_power(PyObject *a, PyObject *b, PyObject *mod)
{
    if (mod != Py_None) Py_RETURN_NOTIMPLEMENTED;
    return ibinop(a, b, TL_BOP_pow);
}
static PyObject *nb_negative(PyObject *a) { return do_unary(TL_UOP_neg, TL_TENSOR(a), NULL, NULL, NULL); }
static PyObject *nb_absolute(PyObject *a) { return do_unary(TL_UOP_abs, TL_TENSOR(a), NULL, NULL, NULL); }
static PyObject *nb_invert(PyObject *a)
{
    tl_dtype d = (tl_dtype)TL_TENSOR(a)->dtype;
    if (tl_dtype_is_float(d) || tl_dtype_is_complex(d)) /* torch's __invert__ checks before bitwise_not */
        return PyErr_Format(PyExc_TypeError, "~ (operator.invert) is only implemented on integer and Boolean-type tensors");
    return do_unary(TL_UOP_bitwise_not, TL_TENSOR(a), NULL, NULL, NULL);
}
static PyObject *nb_positive(PyObject *a)
{
    if (TL_TENSOR(a)->dtype == TL_BOOL) {
        PyErr_SetString(PyExc_RuntimeError, "The `+` operator, on a bool tensor is not supported.");
        return NULL;
    }
    Py_INCREF(a);
    return a;
}

static PyObject *richcompare(PyObject *a, PyObject *b, int cmp)
{
    static const tl_bop ops[] = {[Py_LT] = TL_BOP_lt, [Py_LE] = TL_BOP_le, [Py_EQ] = TL_BOP_eq,
                                 [Py_NE] = TL_BOP_ne, [Py_GT] = TL_BOP_gt, [Py_GE] = TL_BOP_ge};
    return binop(a, b, ops[cmp]);
}

/* ---- generic method / function entries ---- */

/* How an op's extra keyword arguments are read. */
enum { BK_PLAIN, BK_ALPHA_ADD, BK_ALPHA_SUB, BK_DIV, BK_TENSOR /* no Python-scalar operands, as torch */ };

typedef struct {
    const char *name;
    tl_bop op;
    int kind;
} bspec;

static int read_alpha(PyObject *alpha, tl_ew_arg a, tl_ew_arg b, tl_ew_params *prm, int *use)
{
    *use = 0;
    if (!alpha) return 0;
    tl_scalar s;
    if (tl_conv_scalar(alpha, &s) < 0) return -1;
    tl_dtype r;
    if (tl_ew_result_type2(a, b, &r) < 0) return tl_raise_int();
    if (s.kind == TL_KIND_BOOL && r != TL_BOOL) {
        PyErr_SetString(PyExc_RuntimeError, "Boolean alpha only supported for Boolean results.");
        return -1;
    }
    if (tl_dtype_kind(r) <= TL_KIND_INT && s.kind >= TL_KIND_FLOAT) {
        PyErr_SetString(PyExc_RuntimeError, "For integral input tensors, argument alpha must not be a floating point number.");
        return -1;
    }
    if (!tl_dtype_is_complex(r) && s.kind == TL_KIND_COMPLEX) {
        PyErr_SetString(PyExc_RuntimeError, "For non-complex input tensors, argument alpha must not be a complex number.");
        return -1;
    }
    if ((s.kind <= TL_KIND_INT && s.v.i == 1) || (s.kind == TL_KIND_FLOAT && s.v.d == 1.0) ||
        (s.kind == TL_KIND_COMPLEX && s.v.c == 1.0))
        return 0;
    memset(prm, 0, sizeof *prm);
    tl_ew_param(prm, 0, s);
    *use = 1;
    return 0;
}

static PyObject *binary_entry(const bspec *sp, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames, int inplace)
{
    static const char *const fn_names[] = {"input", "other", "alpha", "out", "rounding_mode", NULL};
    static const char *const m_names[] = {"other", "alpha", "rounding_mode", NULL};
    PyObject *v[5] = {NULL, NULL, NULL, NULL, NULL};
    PyObject *alpha = NULL, *out = NULL, *rmode = NULL;
    if (self) {
        if (nargs == 1 && !kwnames) v[1] = args[0];
        else {
            PyObject *mv[3];
            if (tl_parse_args(args, nargs, kwnames, sp->name, m_names, 1, sp->kind == BK_PLAIN || sp->kind == BK_DIV || sp->kind == BK_TENSOR ? 1 : 2, mv) < 0)
                return NULL;
            v[1] = mv[0]; alpha = mv[1]; rmode = mv[2];
        }
        v[0] = self;
    } else {
        if (nargs == 2 && !kwnames) { v[0] = args[0]; v[1] = args[1]; }
        else {
            if (tl_parse_args(args, nargs, kwnames, sp->name, fn_names, 2, 2, v) < 0) return NULL;
            alpha = v[2]; out = v[3]; rmode = v[4];
        }
    }
    if ((alpha && sp->kind != BK_ALPHA_ADD && sp->kind != BK_ALPHA_SUB) || (rmode && sp->kind != BK_DIV)) {
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%s'", sp->name, alpha ? "alpha" : "rounding_mode");
        return NULL;
    }
    pyarg pa, pb;
    if (self ? 0 : arg_or_raise(v[0], &pa, sp->name, "input", 1) < 0) return NULL;
    if (self) pa.a.t = TL_TENSOR(self);
    if (arg_or_raise(v[1], &pb, sp->name, "other", 2) < 0) return NULL;
    if (sp->kind == BK_TENSOR && (!pa.a.t || !pb.a.t)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument '%s' (position %d) must be Tensor, not %s", sp->name,
                     pa.a.t ? "other" : "input", pa.a.t ? 2 : 1, Py_TYPE(pa.a.t ? v[1] : v[0])->tp_name);
        return NULL;
    }
    tl_bop op = sp->op;
    tl_ew_params prm, *pp = NULL;
    if (sp->kind == BK_ALPHA_ADD || sp->kind == BK_ALPHA_SUB) {
        int use;
        if (read_alpha(alpha, pa.a, pb.a, &prm, &use) < 0) return NULL;
        if (use) {
            if (sp->kind == BK_ALPHA_SUB) {
                prm.flag = 1; /* subtraction: bool checks */
                prm.i[0] = (int64_t)(0 - (uint64_t)prm.i[0]);
                prm.d[0] = -prm.d[0];
                prm.c[0] = -prm.c[0];
            }
            op = TL_BOP_add_alpha;
            pp = &prm;
        }
    }
    if (sp->kind == BK_DIV && rmode && rmode != Py_None) {
        const char *m = PyUnicode_Check(rmode) ? PyUnicode_AsUTF8(rmode) : NULL;
        if (m && strcmp(m, "trunc") == 0) op = TL_BOP_div_trunc;
        else if (m && strcmp(m, "floor") == 0) op = TL_BOP_div_floor;
        else {
            PyErr_Format(PyExc_ValueError, "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '%s'",
                         m ? m : Py_TYPE(rmode)->tp_name);
            return NULL;
        }
    }
    return do_binary(op, pa.a, pb.a, out, inplace ? self : NULL, pp);
}

typedef struct {
    const char *name;
    tl_uop op;
} uspec;

static PyObject *unary_entry(const uspec *sp, PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                             int inplace)
{
    static const char *const fn_names[] = {"input", "out", NULL};
    PyObject *v[2] = {self, NULL};
    if (!self) {
        if (nargs == 1 && !kwnames) v[0] = args[0];
        else if (tl_parse_args(args, nargs, kwnames, sp->name, fn_names, 1, 1, v) < 0) return NULL;
        if (tensor_or_raise(v[0], sp->name, "input", 1) < 0) return NULL;
    } else if (nargs || kwnames) {
        PyErr_Format(PyExc_TypeError, "%s() takes no arguments (%zd given)", sp->name, nargs);
        return NULL;
    }
    /* torch's conj_physical of a real tensor is the tensor itself (not a copy) */
    if (sp->op == TL_UOP_conj_physical && !inplace && (!v[1] || v[1] == Py_None) &&
        !tl_dtype_is_complex((tl_dtype)TL_TENSOR(v[0])->dtype))
        return Py_NewRef(v[0]);
    return do_unary(sp->op, TL_TENSOR(v[0]), v[1], inplace ? self : NULL, NULL);
}

/* Each op gets three tiny C functions (module function, method, in-place method) that
 * close over its spec. */
#define DEF_B(py, op, kind)                                                                                   \
    static const bspec bs_##py = {#py, TL_BOP_##op, kind};                                                   \
    static PyObject *f_##py(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *k) { return binary_entry(&bs_##py, NULL, a, n, k, 0); } \
    static PyObject *m_##py(PyObject *s, PyObject *const *a, Py_ssize_t n, PyObject *k) { return binary_entry(&bs_##py, s, a, n, k, 0); } \
    static PyObject *i_##py(PyObject *s, PyObject *const *a, Py_ssize_t n, PyObject *k) { return binary_entry(&bs_##py, s, a, n, k, 1); }
#define DEF_U(py, op)                                                                                         \
    static const uspec us_##py = {#py, TL_UOP_##op};                                                         \
    static PyObject *f_##py(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *k) { return unary_entry(&us_##py, NULL, a, n, k, 0); } \
    static PyObject *m_##py(PyObject *s, PyObject *const *a, Py_ssize_t n, PyObject *k) { return unary_entry(&us_##py, s, a, n, k, 0); } \
    static PyObject *i_##py(PyObject *s, PyObject *const *a, Py_ssize_t n, PyObject *k) { return unary_entry(&us_##py, s, a, n, k, 1); }

/* X(python name, kernel op, kind) */
#define BINARY_FUNCS(X)                                                                        \
    X(add, add, BK_ALPHA_ADD) X(sub, sub, BK_ALPHA_SUB) X(subtract, sub, BK_ALPHA_SUB)         \
    X(mul, mul, BK_PLAIN) X(multiply, mul, BK_PLAIN) X(div, div, BK_DIV) X(divide, div, BK_DIV) \
    X(true_divide, div, BK_PLAIN) X(floor_divide, div_floor, BK_PLAIN)                         \
    X(remainder, remainder, BK_PLAIN) X(fmod, fmod, BK_PLAIN) X(pow, pow, BK_PLAIN)            \
    X(atan2, atan2, BK_TENSOR) X(arctan2, atan2, BK_TENSOR)       \
    X(hypot, hypot, BK_TENSOR) X(maximum, maximum, BK_TENSOR) X(minimum, minimum, BK_TENSOR)      \
    X(fmax, fmax, BK_TENSOR) X(fmin, fmin, BK_TENSOR) X(copysign, copysign, BK_PLAIN)            \
    X(xlogy, xlogy, BK_PLAIN) X(logaddexp, logaddexp, BK_TENSOR) X(igamma, igamma, BK_TENSOR)         \
    X(igammac, igammac, BK_TENSOR)                                \
    X(eq, eq, BK_PLAIN) X(ne, ne, BK_PLAIN) X(lt, lt, BK_PLAIN) X(le, le, BK_PLAIN)            \
    X(gt, gt, BK_PLAIN) X(ge, ge, BK_PLAIN) X(not_equal, ne, BK_PLAIN) X(less, lt, BK_PLAIN)   \
    X(less_equal, le, BK_PLAIN) X(greater, gt, BK_PLAIN) X(greater_equal, ge, BK_PLAIN)        \
    X(logical_and, logical_and, BK_TENSOR) X(logical_or, logical_or, BK_TENSOR)                  \
    X(logical_xor, logical_xor, BK_TENSOR) X(bitwise_and, bitwise_and, BK_PLAIN)                \
    X(bitwise_or, bitwise_or, BK_PLAIN) X(bitwise_xor, bitwise_xor, BK_PLAIN)                  \
    X(bitwise_left_shift, lshift, BK_PLAIN) X(bitwise_right_shift, rshift, BK_PLAIN)           \
    X(_clamp_min_t, maximum, BK_TENSOR) X(_clamp_max_t, minimum, BK_TENSOR)                    \
    X(gcd, gcd, BK_TENSOR) X(lcm, lcm, BK_TENSOR) X(_heaviside, heaviside, BK_TENSOR)          \
    X(_nextafter, nextafter, BK_TENSOR) X(logaddexp2, logaddexp2, BK_TENSOR)

#define UNARY_FUNCS(X)                                                                         \
    X(abs, abs) X(absolute, abs) X(neg, neg) X(negative, neg) X(sign, sign) X(sgn, sgn)        \
    X(ceil, ceil) X(floor, floor) X(trunc, trunc) X(fix, trunc) X(frac, frac) X(sqrt, sqrt)    \
    X(rsqrt, rsqrt) X(_square, square) X(exp, exp) X(exp2, exp2) X(expm1, expm1) X(log, log)    \
    X(log2, log2) X(log10, log10) X(log1p, log1p) X(sin, sin) X(cos, cos) X(tan, tan)          \
    X(asin, asin) X(arcsin, asin) X(acos, acos) X(arccos, acos) X(atan, atan) X(arctan, atan)  \
    X(sinh, sinh) X(cosh, cosh) X(tanh, tanh) X(asinh, asinh) X(arcsinh, asinh)                \
    X(acosh, acosh) X(arccosh, acosh) X(atanh, atanh) X(arctanh, atanh) X(sigmoid, sigmoid)    \
    X(relu, relu) X(_silu, silu) X(_mish, mish) X(erf, erf) X(erfc, erfc) X(erfinv, erfinv)    \
    X(digamma, digamma) X(lgamma, lgamma) X(reciprocal, reciprocal) X(deg2rad, deg2rad)         \
    X(rad2deg, rad2deg) X(angle, angle) X(conj_physical, conj_physical) X(isnan, isnan)        \
    X(isinf, isinf) X(isposinf, isposinf) X(isneginf, isneginf) X(isfinite, isfinite)          \
    X(isreal, isreal) X(signbit, signbit) X(logical_not, logical_not) X(bitwise_not, bitwise_not) \
    X(i0, i0) X(sinc, sinc)

BINARY_FUNCS(DEF_B)
UNARY_FUNCS(DEF_U)

#define FASTKW (METH_FASTCALL | METH_KEYWORDS)
#define MOD_ENTRY_B(py, op, kind) {#py, (PyCFunction)(void (*)(void))f_##py, FASTKW, "Elementwise " #py " (torch." #py ")."},
#define MOD_ENTRY_U(py, op) {#py, (PyCFunction)(void (*)(void))f_##py, FASTKW, "Elementwise " #py " (torch." #py ")."},
#define METH_ENTRY_B(py, op, kind) {#py, (PyCFunction)(void (*)(void))m_##py, FASTKW, "Elementwise " #py "."}, \
    {#py "_", (PyCFunction)(void (*)(void))i_##py, FASTKW, "In-place " #py "."},
#define METH_ENTRY_U(py, op) {#py, (PyCFunction)(void (*)(void))m_##py, FASTKW, "Elementwise " #py "."}, \
    {#py "_", (PyCFunction)(void (*)(void))i_##py, FASTKW, "In-place " #py "."},

/* ---- entries with parameters, called by tensorlib/_ops.py ---- */

static int opt_scalar(PyObject *o, tl_ew_params *prm, int k)
{
    tl_scalar s;
    if (tl_conv_scalar(o, &s) < 0) return -1;
    tl_ew_param(prm, k, s);
    return 0;
}

/* _ew_unary(op, input, out, inplace, flag, p0, p1, p2) */
static PyObject *m_ew_unary(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (n != 8) { PyErr_SetString(PyExc_TypeError, "_ew_unary expects 8 arguments"); return NULL; }
    long op = PyLong_AsLong(a[0]);
    if (op < 0 || op >= TL_NUM_UOPS) { PyErr_SetString(PyExc_ValueError, "bad unary op"); return NULL; }
    if (tensor_or_raise(a[1], "unary", "input", 1) < 0) return NULL;
    tl_ew_params prm;
    memset(&prm, 0, sizeof prm);
    int inplace;
    if (tl_conv_flag(a[4], &prm.flag) < 0 || tl_conv_flag(a[3], &inplace) < 0) return NULL;
    for (int k = 0; k < 3; k++)
        if (opt_scalar(a[5 + k], &prm, k) < 0) return NULL;
    return do_unary((tl_uop)op, TL_TENSOR(a[1]), a[2], inplace ? a[1] : NULL, &prm);
}

/* _ew_binary(op, a, b, out, inplace, flag, p0, p1) */
static PyObject *m_ew_binary(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (n != 8) { PyErr_SetString(PyExc_TypeError, "_ew_binary expects 8 arguments"); return NULL; }
    long op = PyLong_AsLong(a[0]);
    if (op < 0 || op >= TL_NUM_BOPS) { PyErr_SetString(PyExc_ValueError, "bad binary op"); return NULL; }
    pyarg pa, pb;
    if (arg_or_raise(a[1], &pa, "op", "input", 1) < 0 || arg_or_raise(a[2], &pb, "op", "other", 2) < 0) return NULL;
    tl_ew_params prm;
    memset(&prm, 0, sizeof prm);
    int inplace;
    if (tl_conv_flag(a[5], &prm.flag) < 0 || tl_conv_flag(a[4], &inplace) < 0) return NULL;
    if (opt_scalar(a[6], &prm, 0) < 0 || opt_scalar(a[7], &prm, 1) < 0) return NULL;
    return do_binary((tl_bop)op, pa.a, pb.a, a[3], inplace ? a[1] : NULL, &prm);
}

/* _ew_clamp(input, min, max, out, inplace): scalar bounds (None for absent) */
static PyObject *m_ew_clamp(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (n != 5 || tensor_or_raise(a[0], "clamp", "input", 1) < 0) return NULL;
    tl_ew_params prm;
    memset(&prm, 0, sizeof prm);
    tl_scalar b[2];
    int nb = 0;
    for (int k = 0; k < 2; k++) {
        if (a[1 + k] == Py_None) continue;
        if (tl_conv_scalar(a[1 + k], &b[nb]) < 0) return NULL;
        tl_ew_param(&prm, k, b[nb]);
        nb++;
    }
    tl_uop op = a[1] == Py_None ? TL_UOP_clamp_max_s : a[2] == Py_None ? TL_UOP_clamp_min_s : TL_UOP_clamp_s;
    tl_ew_dest dst;
    TensorObject *res;
    int inplace;
    if (tl_conv_flag(a[4], &inplace) < 0) return NULL;
    PyObject *self = inplace ? a[0] : NULL;
    if (prepare(&dst, a[3], self, &res) < 0) return NULL;
    int rc = tl_ew_unary_promoting(op, TL_TENSOR(a[0]), b, nb, &dst, &prm);
    return finish(rc, res, a[3] != Py_None ? a[3] : self, &dst);
}

/* _ew_where(cond, a, b, out) */
static PyObject *m_ew_where(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (n != 4 || tensor_or_raise(a[0], "where", "condition", 1) < 0) return NULL;
    pyarg pa, pb;
    if (arg_or_raise(a[1], &pa, "where", "input", 2) < 0 || arg_or_raise(a[2], &pb, "where", "other", 3) < 0) return NULL;
    tl_ew_dest dst;
    TensorObject *res;
    if (prepare(&dst, a[3], NULL, &res) < 0) return NULL;
    int rc = tl_ew_where(TL_TENSOR(a[0]), pa.a, pb.a, &dst);
    return finish(rc, res, a[3], &dst);
}

/* _ew_lerp(start, end, weight tensor, out, inplace) */
static PyObject *m_ew_lerp(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (n != 5 || tensor_or_raise(a[0], "lerp", "input", 1) < 0 || tensor_or_raise(a[1], "lerp", "end", 2) < 0 ||
        tensor_or_raise(a[2], "lerp", "weight", 3) < 0)
        return NULL;
    tl_ew_dest dst;
    TensorObject *res;
    int inplace;
    if (tl_conv_flag(a[4], &inplace) < 0) return NULL;
    PyObject *self = inplace ? a[0] : NULL;
    if (prepare(&dst, a[3], self, &res) < 0) return NULL;
    int rc = tl_ew_lerp(TL_TENSOR(a[0]), TL_TENSOR(a[1]), TL_TENSOR(a[2]), &dst);
    return finish(rc, res, a[3] != Py_None ? a[3] : self, &dst);
}

/* _ew_addc(div, input, tensor1, tensor2, value, out, inplace): addcmul / addcdiv */
static PyObject *m_ew_addc(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    int div, inplace;
    if (n != 7) return PyErr_Format(PyExc_TypeError, "_ew_addc expects 7 arguments, got %zd", n);
    if (tl_conv_flag(a[0], &div) < 0 || tl_conv_flag(a[6], &inplace) < 0) return NULL;
    const char *name = div ? "addcdiv" : "addcmul";
    if (tensor_or_raise(a[1], name, "input", 1) < 0 || tensor_or_raise(a[2], name, "tensor1", 2) < 0 ||
        tensor_or_raise(a[3], name, "tensor2", 3) < 0)
        return NULL;
    tl_scalar v;
    if (tl_conv_scalar(a[4], &v) < 0) return NULL;
    tl_ew_dest dst;
    TensorObject *res;
    PyObject *self = inplace ? a[1] : NULL;
    if (prepare(&dst, a[5], self, &res) < 0) return NULL;
    int rc = tl_ew_addc(div, TL_TENSOR(a[1]), TL_TENSOR(a[2]), TL_TENSOR(a[3]), v, &dst);
    return finish(rc, res, a[5] != Py_None ? a[5] : self, &dst);
}

/* _ew_masked_fill(input, mask, value, inplace) */
static PyObject *m_ew_masked_fill(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (n != 4 || tensor_or_raise(a[0], "masked_fill", "input", 1) < 0 || tensor_or_raise(a[1], "masked_fill", "mask", 2) < 0)
        return NULL;
    pyarg pv;
    if (arg_or_raise(a[2], &pv, "masked_fill", "value", 3) < 0) return NULL;
    tl_ew_dest dst;
    TensorObject *res;
    int inplace;
    if (tl_conv_flag(a[3], &inplace) < 0) return NULL;
    PyObject *self = inplace ? a[0] : NULL;
    if (prepare(&dst, Py_None, self, &res) < 0) return NULL;
    int rc = tl_ew_masked_fill(TL_TENSOR(a[0]), TL_TENSOR(a[1]), pv.a, &dst);
    return finish(rc, res, self, &dst);
}

/* _ew_real(input, imag) */
static PyObject *m_ew_real(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    int imag;
    if (n != 2 || tensor_or_raise(a[0], "real", "input", 1) < 0 || tl_conv_flag(a[1], &imag) < 0) return NULL;
    if (!imag && !tl_dtype_is_complex((tl_dtype)TL_TENSOR(a[0])->dtype)) return Py_NewRef(a[0]); /* torch: self */
    TL_NEW_TENSOR(r, tl_ew_real_view(&r->t, TL_TENSOR(a[0]), imag));
    return (PyObject *)r;
}

static PyObject *m_op_indices(PyObject *m, PyObject *u)
{
    PyObject *d = PyDict_New();
    if (!d) return NULL;
#define IDX_U(name, ...) if (PyDict_SetItemString(d, "u_" #name, PyLong_FromLong(TL_UOP_##name)) < 0) goto fail;
#define IDX_B(name, ...) if (PyDict_SetItemString(d, "b_" #name, PyLong_FromLong(TL_BOP_##name)) < 0) goto fail;
    TL_UNARY_OPS(IDX_U)
    TL_BINARY_OPS(IDX_B)
    return d;
fail:
    Py_DECREF(d);
    return NULL;
}

static PyObject *m_promote_types(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    tl_dtype x = TL_FLOAT32, y = TL_FLOAT32, r;
    if (n != 2) { PyErr_SetString(PyExc_TypeError, "promote_types() takes 2 arguments"); return NULL; }
    if (!PyObject_TypeCheck(a[0], &Dtype_Type) || !PyObject_TypeCheck(a[1], &Dtype_Type)) {
        PyErr_SetString(PyExc_TypeError, "promote_types(): arguments must be tensorlib.dtype");
        return NULL;
    }
    if (tl_conv_dtype(a[0], &x) < 0 || tl_conv_dtype(a[1], &y) < 0) return NULL;
    if (tl_promote_types(x, y, &r) < 0) return tl_raise();
    return tl_dtype_obj(r);
}

static PyObject *m_can_cast(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    tl_dtype x = TL_FLOAT32, y = TL_FLOAT32;
    if (n != 2) { PyErr_SetString(PyExc_TypeError, "can_cast() takes 2 arguments"); return NULL; }
    if (!PyObject_TypeCheck(a[0], &Dtype_Type) || !PyObject_TypeCheck(a[1], &Dtype_Type)) {
        PyErr_SetString(PyExc_TypeError, "can_cast(): arguments must be tensorlib.dtype");
        return NULL;
    }
    if (tl_conv_dtype(a[0], &x) < 0 || tl_conv_dtype(a[1], &y) < 0) return NULL;
    return PyBool_FromLong(tl_can_cast(x, y));
}

/* result_type(tensor_or_scalar, tensor_or_scalar) */
static PyObject *m_result_type(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (n != 2) { PyErr_SetString(PyExc_TypeError, "result_type() takes 2 arguments"); return NULL; }
    pyarg pa, pb;
    if (arg_or_raise(a[0], &pa, "result_type", "tensor", 1) < 0 || arg_or_raise(a[1], &pb, "result_type", "other", 2) < 0)
        return NULL;
    tl_dtype r;
    if (tl_ew_result_type2(pa.a, pb.a, &r) < 0) return tl_raise();
    return tl_dtype_obj(r);
}

#define POS (METH_FASTCALL)
PyMethodDef tl_module_methods_arith[] = {
    BINARY_FUNCS(MOD_ENTRY_B) UNARY_FUNCS(MOD_ENTRY_U)
    {"_ew_unary", (PyCFunction)(void (*)(void))m_ew_unary, POS, "_ew_unary(op, input, out, inplace, flag, p0, p1, p2)"},
    {"_ew_binary", (PyCFunction)(void (*)(void))m_ew_binary, POS, "_ew_binary(op, a, b, out, inplace, flag, p0, p1)"},
    {"_ew_clamp", (PyCFunction)(void (*)(void))m_ew_clamp, POS, "_ew_clamp(input, min, max, out, inplace)"},
    {"_ew_where", (PyCFunction)(void (*)(void))m_ew_where, POS, "_ew_where(cond, a, b, out)"},
    {"_ew_lerp", (PyCFunction)(void (*)(void))m_ew_lerp, POS, "_ew_lerp(start, end, weight, out, inplace)"},
    {"_ew_addc", (PyCFunction)(void (*)(void))m_ew_addc, POS, "_ew_addc(div, input, tensor1, tensor2, value, out, inplace)"},
    {"_ew_masked_fill", (PyCFunction)(void (*)(void))m_ew_masked_fill, POS, "_ew_masked_fill(input, mask, value, inplace)"},
    {"_ew_real", (PyCFunction)(void (*)(void))m_ew_real, POS, "_ew_real(input, imag): real/imag view."},
    {"_ew_op_indices", m_op_indices, METH_NOARGS, "Kernel op indices by name (u_/b_ prefixed)."},
    {"promote_types", (PyCFunction)(void (*)(void))m_promote_types, POS, "promote_types(type1, type2): the smallest dtype both cast to."},
    {"can_cast", (PyCFunction)(void (*)(void))m_can_cast, POS, "can_cast(from_, to): whether type conversion is allowed under torch's casting rules."},
    {"_result_type2", (PyCFunction)(void (*)(void))m_result_type, POS, "Result dtype of an op over two operands."},
    {NULL},
};

PyMethodDef tl_tensor_methods_arith[] = {
    BINARY_FUNCS(METH_ENTRY_B) UNARY_FUNCS(METH_ENTRY_U)
    {NULL},
};

/* Fills TensorBase's operator slots; module init runs it before tl_init_tensor. */
void tl_init_arith(void)
{
    PyNumberMethods *nb = &tl_tensor_as_number;
    nb->nb_add = nb_add; nb->nb_inplace_add = nb_inplace_add;
    nb->nb_subtract = nb_subtract; nb->nb_inplace_subtract = nb_inplace_subtract;
    nb->nb_multiply = nb_multiply; nb->nb_inplace_multiply = nb_inplace_multiply;
    nb->nb_true_divide = nb_true_divide; nb->nb_inplace_true_divide = nb_inplace_true_divide;
    nb->nb_floor_divide = nb_floor_divide; nb->nb_inplace_floor_divide = nb_inplace_floor_divide;
    nb->nb_remainder = nb_remainder; nb->nb_inplace_remainder = nb_inplace_remainder;
    nb->nb_and = nb_and; nb->nb_inplace_and = nb_inplace_and;
    nb->nb_or = nb_or; nb->nb_inplace_or = nb_inplace_or;
    nb->nb_xor = nb_xor; nb->nb_inplace_xor = nb_inplace_xor;
    nb->nb_lshift = nb_lshift; nb->nb_inplace_lshift = nb_inplace_lshift;
    nb->nb_rshift = nb_rshift; nb->nb_inplace_rshift = nb_inplace_rshift;
    nb->nb_power = nb_power; nb->nb_inplace_power = nb_inplace_power;
    nb->nb_negative = nb_negative;
    nb->nb_positive = nb_positive;
    nb->nb_absolute = nb_absolute;
    nb->nb_invert = nb_invert;
    TensorBase_Type.tp_richcompare = richcompare;
}
