/* sparse_compressed.c (binding) - the primitives tensorlib/_sparse_compressed.py composes
 * for CSR/CSC/BSR/BSC: building a tensor from components, reading them back, replacing
 * them in place, and the conversion and product kernels of csrc/sparse/compressed*.c.
 * Module functions outside the layout gate (they are the sparse implementations). */
#include "python/binding.h"

#include "backend/backend.h"
#include "sparse/compressed.h"
#include "sparse/semi.h"
#include "sparse/sparse.h"

static int need_tensor(PyObject *o, const char *fname, const char *arg)
{
    if (tl_is_tensor(o)) return 0;
    PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be Tensor, not %s", fname, arg, Py_TYPE(o)->tp_name);
    return -1;
}

static int need_nargs(Py_ssize_t n, Py_ssize_t want, const char *fname)
{
    if (n == want) return 0;
    PyErr_Format(PyExc_TypeError, "%s expects %d arguments", fname, (int)want);
    return -1;
}

/* A compressed tensor argument (RuntimeError otherwise). */
static const tl_tensor *need_compressed(PyObject *o, const char *fname)
{
    if (need_tensor(o, fname, "self") < 0) return NULL;
    const tl_tensor *t = TL_TENSOR(o);
    if (!tl_layout_is_compressed(t->layout)) {
        PyErr_Format(PyExc_RuntimeError, "%s: expected a sparse compressed tensor", fname);
        return NULL;
    }
    return t;
}

static int need_layout(PyObject *o, tl_layout *out)
{
    if (Py_TYPE(o) != &Layout_Type || !tl_layout_is_compressed(((LayoutObject *)o)->layout)) {
        PyErr_Format(PyExc_RuntimeError, "expected a sparse compressed layout");
        return -1;
    }
    *out = ((LayoutObject *)o)->layout;
    return 0;
}

/* _sparse_compressed_new(compressed, plain, values, size_or_None, layout, check_indices):
 * the components are shared, not copied. */
static PyObject *m_new(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (need_nargs(n, 6, "_sparse_compressed_new") < 0) return NULL;
    const char *f = "sparse_compressed_tensor";
    if (need_tensor(a[0], f, "compressed_indices") < 0 || need_tensor(a[1], f, "plain_indices") < 0 ||
        need_tensor(a[2], f, "values") < 0)
        return NULL;
    tl_layout layout;
    int check;
    if (need_layout(a[4], &layout) < 0 || tl_conv_flag(a[5], &check) < 0) return NULL;
    const tl_tensor *ci = TL_TENSOR(a[0]), *pi = TL_TENSOR(a[1]), *val = TL_TENSOR(a[2]);
    int64_t size[TL_MAX_DIMS];
    int ndim = 0;
    if (a[3] == Py_None) {
        if (tl_compressed_infer_size(layout, ci, pi, val, size, &ndim) < 0) return tl_raise();
    } else if (tl_conv_int_list(a[3], size, &ndim, "size") < 0) {
        return NULL;
    }
    if (tl_compressed_check(layout, ci, pi, val, ndim, size, check) < 0) return tl_raise();
    TL_NEW_TENSOR(r, tl_compressed_alias(&r->t, layout, ci, pi, val, ndim, size));
    return (PyObject *)r;
}

static PyObject *component(const tl_tensor *c)
{
    TL_NEW_TENSOR(r, tl_tensor_alias(&r->t, c));
    return (PyObject *)r;
}

/* _compressed_parts(t) -> (compressed_indices, plain_indices, values), shared. */
static PyObject *m_parts(PyObject *m, PyObject *o)
{
    const tl_tensor *t = need_compressed(o, "_compressed_parts");
    if (!t) return NULL;
    PyObject *c = component(&t->sparse->indices), *p = c ? component(&t->sparse->plain) : NULL,
             *v = p ? component(&t->sparse->values) : NULL;
    if (!v) {
        Py_XDECREF(c);
        Py_XDECREF(p);
        return NULL;
    }
    return Py_BuildValue("(NNN)", c, p, v);
}

/* _set_compressed_(t, compressed, plain, values, size): replaces t's components in place
 * (copy_, zero_, resize_as_, in-place unary ops) after validating them. */
static PyObject *m_set(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (need_nargs(n, 5, "_set_compressed_") < 0) return NULL;
    const tl_tensor *t = need_compressed(a[0], "_set_compressed_");
    if (!t || need_tensor(a[1], "_set_compressed_", "compressed") < 0 ||
        need_tensor(a[2], "_set_compressed_", "plain") < 0 || need_tensor(a[3], "_set_compressed_", "values") < 0)
        return NULL;
    int64_t size[TL_MAX_DIMS];
    int ndim;
    if (tl_conv_int_list(a[4], size, &ndim, "size") < 0) return NULL;
    const tl_tensor *ci = TL_TENSOR(a[1]), *pi = TL_TENSOR(a[2]), *val = TL_TENSOR(a[3]);
    tl_layout layout = (tl_layout)t->layout;
    if (!tl_device_eq(val->device, t->device))
        return PyErr_Format(PyExc_RuntimeError, "_set_compressed_: the components must be on the tensor's device");
    /* device components come from the sparse layer itself (tensorlib/_sparse*.py): not rescanned */
    if (tl_compressed_check(layout, ci, pi, val, ndim, size, val->device.type == TL_DEV_CPU) < 0) return tl_raise();
    tl_tensor fresh = {0};
    fresh.sizes = fresh.small;
    fresh.strides = fresh.small + TL_SMALL_DIMS;
    if (tl_compressed_alias(&fresh, layout, ci, pi, val, ndim, size) < 0) return tl_raise();
    tl_tensor *self = TL_TENSOR(a[0]);
    tl_tensor_clear(self);
    if (tl_tensor_alias(self, &fresh) < 0) {
        tl_tensor_clear(&fresh);
        return tl_raise();
    }
    self->layout = fresh.layout;
    self->sparse = fresh.sparse;
    fresh.sparse = NULL;
    tl_tensor_clear(&fresh);
    Py_INCREF(a[0]);
    return a[0];
}

#define UNARY_KERNEL(NAME, FN)                                           \
    static PyObject *NAME(PyObject *m, PyObject *o)                      \
    {                                                                    \
        const tl_tensor *t = need_compressed(o, #NAME);                  \
        if (!t) return NULL;                                             \
        TL_NEW_TENSOR(r, FN(&r->t, t));                                  \
        return (PyObject *)r;                                            \
    }
UNARY_KERNEL(m_to_dense, tl_compressed_to_dense)
UNARY_KERNEL(m_recompress, tl_compressed_recompress)
UNARY_KERNEL(m_to_coo, tl_compressed_to_coo)

/* _dense_to_compressed(t, layout, blocksize_or_None, dense_dim): shapes checked by the caller. */
static PyObject *m_from_dense(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (need_nargs(n, 4, "_dense_to_compressed") < 0 || need_tensor(a[0], "to_sparse", "self") < 0) return NULL;
    const tl_tensor *t = TL_TENSOR(a[0]);
    tl_layout layout;
    int64_t bs[TL_MAX_DIMS] = {1, 1}, dd;
    int nb = 2;
    if (need_layout(a[1], &layout) < 0 || (a[2] != Py_None && tl_conv_int_list(a[2], bs, &nb, "blocksize") < 0) ||
        tl_conv_int64(a[3], &dd, "dense_dim") < 0)
        return NULL;
    if (t->layout != TL_LAYOUT_STRIDED || nb != 2 || bs[0] < 1 || bs[1] < 1 || dd < 0 || dd + 2 > t->ndim)
        return PyErr_Format(PyExc_RuntimeError, "_dense_to_compressed: invalid arguments");
    int bd = t->ndim - 2 - (int)dd;
    if (t->sizes[bd] % bs[0] || t->sizes[bd + 1] % bs[1])
        return PyErr_Format(PyExc_RuntimeError, "_dense_to_compressed: blocksize does not divide the size");
    TL_NEW_TENSOR(r, tl_dense_to_compressed(&r->t, t, layout, bs, (int)dd));
    return (PyObject *)r;
}

/* _coo_to_compressed(coalesced 2-D-sparse COO, layout CSR or CSC) */
static PyObject *m_from_coo(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (need_nargs(n, 2, "_coo_to_compressed") < 0 || need_tensor(a[0], "to_sparse", "self") < 0) return NULL;
    const tl_tensor *t = TL_TENSOR(a[0]);
    tl_layout layout;
    if (need_layout(a[1], &layout) < 0) return NULL;
    if (t->layout != TL_LAYOUT_SPARSE_COO || t->sparse->sparse_dim != 2 || !t->sparse->coalesced ||
        (layout != TL_LAYOUT_SPARSE_CSR && layout != TL_LAYOUT_SPARSE_CSC))
        return PyErr_Format(PyExc_RuntimeError, "_coo_to_compressed expects a coalesced COO tensor of 2 sparse dims");
    TL_NEW_TENSOR(r, tl_coo_to_compressed(&r->t, t, layout));
    return (PyObject *)r;
}

/* _csr_matmul(csr, strided): see tl_csr_matmul; the caller checks shapes and dtypes. */
static PyObject *m_csr_matmul(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (need_nargs(n, 2, "_csr_matmul") < 0 || need_tensor(a[1], "mm", "mat2") < 0) return NULL;
    const tl_tensor *x = need_compressed(a[0], "_csr_matmul"), *y = TL_TENSOR(a[1]);
    if (!x) return NULL;
    if (x->layout != TL_LAYOUT_SPARSE_CSR || x->ndim != 2 || y->layout != TL_LAYOUT_STRIDED || y->ndim < 1 ||
        y->ndim > 2 || y->sizes[0] != x->sizes[1] || y->dtype != x->dtype || !tl_csr_matmul_supports(x->dtype))
        return PyErr_Format(PyExc_RuntimeError, "_csr_matmul: expected a 2-D CSR and a matching strided operand");
    TL_NEW_TENSOR(r, tl_csr_matmul(&r->t, x, y));
    return (PyObject *)r;
}

/* _csr_matmul_supports(dtype) */
static PyObject *m_csr_matmul_supports(PyObject *m, PyObject *o)
{
    tl_dtype d = TL_FLOAT32;
    if (tl_conv_dtype(o, &d) < 0) return NULL;
    return PyBool_FromLong(tl_csr_matmul_supports(d));
}

/* _compressed_intersect(a, b) -> (compressed, plain, positions in a, positions in b) */
static PyObject *m_intersect(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (need_nargs(n, 2, "_compressed_intersect") < 0) return NULL;
    const tl_tensor *x = need_compressed(a[0], "mul"), *y = x ? need_compressed(a[1], "mul") : NULL;
    if (!y) return NULL;
    TensorObject *r[4] = {0};
    for (int i = 0; i < 4; i++)
        if (!(r[i] = tl_tensor_alloc())) goto fail;
    if (tl_compressed_intersect(&r[0]->t, &r[1]->t, &r[2]->t, &r[3]->t, x, y) < 0) {
        tl_raise();
        goto fail;
    }
    return Py_BuildValue("(NNNN)", r[0], r[1], r[2], r[3]);
fail:
    for (int i = 0; i < 4; i++) Py_XDECREF(r[i]);
    return NULL;
}

/* _semi_compress(dense) -> (values, metadata) */
static PyObject *m_semi_compress(PyObject *m, PyObject *o)
{
    if (need_tensor(o, "to_sparse_semi_structured", "original_tensor") < 0) return NULL;
    TensorObject *v = tl_tensor_alloc(), *md = v ? tl_tensor_alloc() : NULL;
    if (!md || tl_semi_compress(&v->t, &md->t, TL_TENSOR(o)) < 0) {
        Py_XDECREF(v);
        Py_XDECREF(md);
        return md ? tl_raise() : NULL;
    }
    return Py_BuildValue("(NN)", v, md);
}

/* _semi_to_dense(values, metadata, cols) */
static PyObject *m_semi_to_dense(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    int64_t cols;
    if (need_nargs(n, 3, "_semi_to_dense") < 0 || need_tensor(a[0], "to_dense", "values") < 0 ||
        need_tensor(a[1], "to_dense", "metadata") < 0 || tl_conv_int64(a[2], &cols, "cols") < 0)
        return NULL;
    TL_NEW_TENSOR(r, tl_semi_to_dense(&r->t, TL_TENSOR(a[0]), TL_TENSOR(a[1]), cols));
    return (PyObject *)r;
}

/* _semi_mm(values, metadata, dense, left) */
static PyObject *m_semi_mm(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    int left;
    if (need_nargs(n, 4, "_semi_mm") < 0 || need_tensor(a[0], "mm", "values") < 0 ||
        need_tensor(a[1], "mm", "metadata") < 0 || need_tensor(a[2], "mm", "dense") < 0 || tl_conv_flag(a[3], &left) < 0)
        return NULL;
    TL_NEW_TENSOR(r, tl_semi_mm(&r->t, TL_TENSOR(a[0]), TL_TENSOR(a[1]), TL_TENSOR(a[2]), left));
    return (PyObject *)r;
}

/* _semi_device(dense, left, compressed_or_None) -> buffer bytes | None, or
 * _semi_device(compressed, rows, cols, dtype, dense, left) -> the product: the backend's 2:4
 * entry (backend/semi.c) for SparseSemiStructuredTensor on a device */
static PyObject *m_semi_device(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    int left;
    if (n == 3) {
        int64_t size = 0;
        if (need_tensor(a[0], "to_sparse_semi_structured", "dense") < 0 || tl_conv_flag(a[1], &left) < 0) return NULL;
        if (a[2] != Py_None && need_tensor(a[2], "to_sparse_semi_structured", "compressed") < 0) return NULL;
        if (tl_backend_semi_compress(a[2] == Py_None ? NULL : TL_TENSOR(a[2]), &size, TL_TENSOR(a[0]), left) < 0)
            return tl_raise();
        if (a[2] != Py_None) Py_RETURN_NONE;
        return PyLong_FromLongLong(size);
    }
    int64_t rows, cols;
    tl_dtype dt = TL_NUM_DTYPES;
    if (need_nargs(n, 6, "_semi_device") < 0 || need_tensor(a[0], "mm", "compressed") < 0 ||
        tl_conv_int64(a[1], &rows, "rows") < 0 || tl_conv_int64(a[2], &cols, "cols") < 0 ||
        tl_conv_dtype(a[3], &dt) < 0 || need_tensor(a[4], "mm", "dense") < 0 || tl_conv_flag(a[5], &left) < 0)
        return NULL;
    TL_NEW_TENSOR(r, tl_backend_semi_mm(&r->t, TL_TENSOR(a[0]), rows, cols, dt, TL_TENSOR(a[4]), left));
    return (PyObject *)r;
}

/* _semi_set_kernel(level) -> previous level (tests pin each float32 S @ B variant) */
static PyObject *m_semi_set_kernel(PyObject *m, PyObject *o)
{
    int64_t level;
    if (tl_conv_int64(o, &level, "level") < 0) return NULL;
    return PyLong_FromLong(tl_semi_set_kernel((int)level));
}

/* _csr_spmv_set_avx512(on) -> previous (tests compare the float32 SpMV product loops) */
static PyObject *m_csr_spmv_set_avx512(PyObject *m, PyObject *o)
{
    int64_t on;
    if (tl_conv_int64(o, &on, "on") < 0) return NULL;
    return PyLong_FromLong(tl_csr_spmv_set_avx512(on != 0));
}

#define FASTCALL(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL

PyMethodDef tl_module_methods_sparse_compressed[] = {
    {"_sparse_compressed_new", FASTCALL(m_new), "_sparse_compressed_new(compressed, plain, values, size, layout, check)"},
    {"_compressed_parts", m_parts, METH_O, "(compressed_indices, plain_indices, values) of a compressed tensor."},
    {"_set_compressed_", FASTCALL(m_set), "_set_compressed_(t, compressed, plain, values, size)"},
    {"_compressed_to_dense", m_to_dense, METH_O, "The strided tensor of a compressed tensor."},
    {"_compressed_recompress", m_recompress, METH_O, "CSR <-> CSC, BSR <-> BSC."},
    {"_compressed_to_coo", m_to_coo, METH_O, "The COO tensor of a compressed tensor."},
    {"_dense_to_compressed", FASTCALL(m_from_dense), "_dense_to_compressed(t, layout, blocksize, dense_dim)"},
    {"_coo_to_compressed", FASTCALL(m_from_coo), "_coo_to_compressed(coo, layout)"},
    {"_csr_matmul", FASTCALL(m_csr_matmul), "_csr_matmul(csr, strided): CSR @ vector or matrix."},
    {"_csr_spmv_set_avx512", m_csr_spmv_set_avx512, METH_O, "_csr_spmv_set_avx512(on) -> previous: pin the SpMV loop."},
    {"_csr_matmul_supports", m_csr_matmul_supports, METH_O, "Whether _csr_matmul has a kernel for the dtype."},
    {"_compressed_intersect", FASTCALL(m_intersect), "_compressed_intersect(a, b): the pattern of a * b."},
    {"_semi_compress", m_semi_compress, METH_O, "(values, metadata) of a 2:4 sparse matrix."},
    {"_semi_to_dense", FASTCALL(m_semi_to_dense), "_semi_to_dense(values, metadata, cols)"},
    {"_semi_set_kernel", m_semi_set_kernel, METH_O, "_semi_set_kernel(level) -> previous: pin the S @ B variant."},
    {"_semi_mm", FASTCALL(m_semi_mm), "_semi_mm(values, metadata, dense, left): S @ dense or dense @ S."},
    {"_semi_device", FASTCALL(m_semi_device), "_semi_device(...): the backend's 2:4 compression and products."},
    {NULL},
};
