/* linalg.c (binding) - Python entry points of the matrix products: argument parsing,
 * out=, the `@` operator. The ops themselves live in ops/linalg.c. */
#include "python/binding.h"

#include "ops/copy.h"
#include "ops/linalg.h"

typedef int (*binary_fn)(tl_tensor *, const tl_tensor *, const tl_tensor *);
typedef int (*addmm_fn)(tl_tensor *, const tl_tensor *, const tl_tensor *, const tl_tensor *, tl_scalar, tl_scalar);

static int want_tensor(PyObject *o, const char *fname, const char *arg)
{
    if (!tl_is_tensor(o)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be Tensor, not %s", fname, arg, Py_TYPE(o)->tp_name);
        return -1;
    }
    return 0;
}

/* Returns result, or copies it into out (torch's out= rules: same dtype, resize warning). */
static PyObject *finish(TensorObject *r, PyObject *out, const char *fname)
{
    return tl_finish_out(r, out, fname, true);
}

/* A fresh fn(x, y), computed without the GIL when the operands are big. */
static TensorObject *product(binary_fn fn, const tl_tensor *x, const tl_tensor *y)
{
    TensorObject *r = tl_tensor_alloc();
    if (!r) return NULL;
    const tl_tensor *ts[2] = {x, y};
    tl_nogil g;
    tl_nogil_begin(&g, ts, 2);
    int rc = fn(&r->t, ts[0], ts[1]);
    tl_nogil_end(&g);
    if (rc < 0) { Py_DECREF(r); tl_raise(); return NULL; }
    return r;
}

/* fn(self|input, other, *, out=None); self given for methods. */
static PyObject *call_binary(binary_fn fn, const char *fname, const char *const *names, PyObject *self,
                             PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *a[3];
    int skip = self ? 1 : 0;
    if (tl_parse_args(args, nargs, kwnames, fname, names + skip, 2 - skip, 2 - skip, a) < 0) return NULL;
    PyObject *x = self ? self : a[0], *y = a[1 - skip], *out = a[2 - skip];
    if (want_tensor(x, fname, names[0]) < 0 || want_tensor(y, fname, names[1]) < 0) return NULL;
    TensorObject *r = product(fn, TL_TENSOR(x), TL_TENSOR(y));
    return r ? finish(r, out, fname) : NULL;
}

/* fn(input, a, b, *, beta=1, alpha=1, out=None). */
static PyObject *call_addmm(addmm_fn fn, const char *fname, const char *const *names, PyObject *self,
                            PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *a[6];
    int skip = self ? 1 : 0;
    if (tl_parse_args(args, nargs, kwnames, fname, names + skip, 3 - skip, 3 - skip, a) < 0) return NULL;
    PyObject *in = self ? self : a[0], *x = a[1 - skip], *y = a[2 - skip];
    PyObject *beta_o = a[3 - skip], *alpha_o = a[4 - skip], *out = a[5 - skip];
    if (want_tensor(in, fname, names[0]) < 0 || want_tensor(x, fname, names[1]) < 0 ||
        want_tensor(y, fname, names[2]) < 0)
        return NULL;
    tl_scalar beta = tl_scalar_int(1), alpha = tl_scalar_int(1);
    if (beta_o && tl_conv_scalar(beta_o, &beta) < 0) return NULL;
    if (alpha_o && tl_conv_scalar(alpha_o, &alpha) < 0) return NULL;
    TensorObject *r = tl_tensor_alloc();
    if (!r) return NULL;
    const tl_tensor *ts[3] = {TL_TENSOR(in), TL_TENSOR(x), TL_TENSOR(y)};
    tl_nogil g;
    tl_nogil_begin(&g, ts, 3);
    int rc = fn(&r->t, ts[0], ts[1], ts[2], beta, alpha);
    tl_nogil_end(&g);
    if (rc < 0) { Py_DECREF(r); return tl_raise(); }
    return finish(r, out, fname);
}

#define FASTARGS PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames
#define BINARY(pyname, fn, arg0, arg1)                                                             \
    static const char *const pyname##_names[] = {arg0, arg1, "out", NULL};                         \
    static PyObject *f_##pyname(FASTARGS)                                                          \
    {                                                                                              \
        return call_binary(fn, #pyname, pyname##_names, NULL, args, nargs, kwnames);               \
    }                                                                                              \
    static PyObject *m_##pyname(FASTARGS)                                                          \
    {                                                                                              \
        return call_binary(fn, #pyname, pyname##_names, self, args, nargs, kwnames);               \
    }
#define ADDMM(pyname, fn, arg1, arg2)                                                              \
    static const char *const pyname##_names[] = {"input", arg1, arg2, "beta", "alpha", "out", NULL}; \
    static PyObject *f_##pyname(FASTARGS)                                                          \
    {                                                                                              \
        return call_addmm(fn, #pyname, pyname##_names, NULL, args, nargs, kwnames);                \
    }                                                                                              \
    static PyObject *m_##pyname(FASTARGS)                                                          \
    {                                                                                              \
        return call_addmm(fn, #pyname, pyname##_names, self, args, nargs, kwnames);                \
    }

BINARY(mm, tl_mm, "input", "mat2")
BINARY(bmm, tl_bmm, "input", "mat2")
BINARY(matmul, tl_matmul, "input", "other")
BINARY(mv, tl_mv, "input", "vec")
BINARY(dot, tl_dot, "input", "tensor")
BINARY(vdot, tl_vdot, "input", "other")
BINARY(outer, tl_outer, "input", "vec2")
BINARY(ger, tl_outer, "input", "vec2")
ADDMM(addmm, tl_addmm, "mat1", "mat2")
ADDMM(addmv, tl_addmv, "mat", "vec")
ADDMM(addr, tl_addr, "vec1", "vec2")
ADDMM(baddbmm, tl_baddbmm, "batch1", "batch2")
ADDMM(addbmm, tl_addbmm, "batch1", "batch2")

/* The `@` operator: NotImplemented for non-tensors so Python can try the reflection. */
static PyObject *nb_matmul(PyObject *x, PyObject *y)
{
    if (!tl_is_tensor(x) || !tl_is_tensor(y)) Py_RETURN_NOTIMPLEMENTED;
    return (PyObject *)product(tl_matmul, TL_TENSOR(x), TL_TENSOR(y));
}

/* x @= y: torch computes the product and copies it into x (shape must be unchanged). */
static PyObject *nb_imatmul(PyObject *x, PyObject *y)
{
    if (!tl_is_tensor(x) || !tl_is_tensor(y)) Py_RETURN_NOTIMPLEMENTED;
    TensorObject *r = product(tl_matmul, TL_TENSOR(x), TL_TENSOR(y));
    if (!r) return NULL;
    tl_tensor *t = TL_TENSOR(x);
    bool same = t->ndim == r->t.ndim && t->dtype == r->t.dtype;
    for (int i = 0; same && i < t->ndim; i++) same = t->sizes[i] == r->t.sizes[i];
    if (!same) {
        Py_DECREF(r);
        PyErr_SetString(PyExc_RuntimeError, "In-place matmul is not supported when the result's shape or dtype differs "
                                            "from the left operand's");
        return NULL;
    }
    int resized;
    int rc = tl_write_out(t, &r->t, true, &resized);
    Py_DECREF(r);
    if (rc < 0) return tl_raise();
    Py_INCREF(x);
    return x;
}


void tl_linalg_install_operators(void)
{
    tl_linalg_init();
    tl_tensor_as_number.nb_matrix_multiply = nb_matmul;
    tl_tensor_as_number.nb_inplace_matrix_multiply = nb_imatmul;
}

#define FAST(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL | METH_KEYWORDS, doc}

/* Module functions: matrix products on OpenBLAS. */
PyMethodDef tl_module_methods_linalg[] = {
    FAST("mm", f_mm, "mm(input, mat2, *, out=None) -> Tensor\n\nMatrix product of two 2-D tensors."),
    FAST("bmm", f_bmm, "bmm(input, mat2, *, out=None) -> Tensor\n\nBatched matrix product of two 3-D tensors."),
    FAST("matmul", f_matmul, "matmul(input, other, *, out=None) -> Tensor\n\nMatrix product with torch's rules for 1-D "
                             "operands and broadcasting of batch dims."),
    FAST("mv", f_mv, "mv(input, vec, *, out=None) -> Tensor\n\nMatrix-vector product."),
    FAST("dot", f_dot, "dot(input, tensor, *, out=None) -> Tensor\n\nDot product of two 1-D tensors."),
    FAST("vdot", f_vdot, "vdot(input, other, *, out=None) -> Tensor\n\nDot product with input conjugated."),
    FAST("outer", f_outer, "outer(input, vec2, *, out=None) -> Tensor\n\nOuter product of two 1-D tensors."),
    FAST("ger", f_ger, "ger(input, vec2, *, out=None) -> Tensor\n\nAlias of outer."),
    FAST("addmm", f_addmm, "addmm(input, mat1, mat2, *, beta=1, alpha=1, out=None) -> Tensor\n\n"
                           "beta * input + alpha * (mat1 @ mat2)."),
    FAST("addmv", f_addmv, "addmv(input, mat, vec, *, beta=1, alpha=1, out=None) -> Tensor\n\n"
                           "beta * input + alpha * (mat @ vec)."),
    FAST("addr", f_addr, "addr(input, vec1, vec2, *, beta=1, alpha=1, out=None) -> Tensor\n\n"
                         "beta * input + alpha * outer(vec1, vec2)."),
    FAST("baddbmm", f_baddbmm, "baddbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None) -> Tensor\n\n"
                               "beta * input + alpha * bmm(batch1, batch2)."),
    FAST("addbmm", f_addbmm, "addbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None) -> Tensor\n\n"
                             "beta * input + alpha * sum of the batch of products."),
    {NULL},
};

/* Tensor methods: the same products with self as the first operand. */
PyMethodDef tl_tensor_methods_linalg[] = {
    FAST("mm", m_mm, "mm(mat2) -> Tensor. See tensorlib.mm."),
    FAST("bmm", m_bmm, "bmm(mat2) -> Tensor. See tensorlib.bmm."),
    FAST("matmul", m_matmul, "matmul(other) -> Tensor. See tensorlib.matmul."),
    FAST("mv", m_mv, "mv(vec) -> Tensor. See tensorlib.mv."),
    FAST("dot", m_dot, "dot(other) -> Tensor. See tensorlib.dot."),
    FAST("vdot", m_vdot, "vdot(other) -> Tensor. See tensorlib.vdot."),
    FAST("outer", m_outer, "outer(vec2) -> Tensor. See tensorlib.outer."),
    FAST("ger", m_ger, "ger(vec2) -> Tensor. See tensorlib.outer."),
    FAST("addmm", m_addmm, "addmm(mat1, mat2, *, beta=1, alpha=1) -> Tensor. See tensorlib.addmm."),
    FAST("addmv", m_addmv, "addmv(mat, vec, *, beta=1, alpha=1) -> Tensor. See tensorlib.addmv."),
    FAST("addr", m_addr, "addr(vec1, vec2, *, beta=1, alpha=1) -> Tensor. See tensorlib.addr."),
    FAST("baddbmm", m_baddbmm, "baddbmm(batch1, batch2, *, beta=1, alpha=1) -> Tensor. See tensorlib.baddbmm."),
    FAST("addbmm", m_addbmm, "addbmm(batch1, batch2, *, beta=1, alpha=1) -> Tensor. See tensorlib.addbmm."),
    {NULL},
};
