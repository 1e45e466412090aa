/* sparse.c (binding) - the sparse primitives tensorlib/_sparse.py composes: building a COO
 * tensor from components, reading them back, coalesce and the conversions. Registered
 * outside the layout gate (python/gate.c): they are the sparse implementations. */
#include "python/binding.h"

#include "backend/backend.h"
#include "sparse/sparse.h"

#define SELF TL_TENSOR(self)

static int need_tensor(PyObject *o, const char *fname, const char *arg)
{
    if (tl_is_tensor(o)) return 0;
    PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be Tensor, not %s", fname, arg, Py_TYPE(o)->tp_name);
    return -1;
}

static PyObject *not_coo(PyObject *self, const char *op)
{
    return PyErr_Format(PyExc_NotImplementedError,
                        "Could not run 'aten::%s' with arguments from the '%s' backend. This could be because the "
                        "operator doesn't exist for this backend.", op,
                        SELF->layout == TL_LAYOUT_STRIDED ? "CPU" : "SparseCsrCPU");
}
#define NEED_COO(op) if (SELF->layout != TL_LAYOUT_SPARSE_COO) return not_coo(self, op)

/* _sparse_coo_new(indices, values, size_or_None, check_bounds, is_coalesced_or_None):
 * indices int64 and values are shared, not copied. */
static PyObject *m_coo_new(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (n != 5) return PyErr_Format(PyExc_TypeError, "_sparse_coo_new expects 5 arguments");
    if (need_tensor(a[0], "sparse_coo_tensor", "indices") < 0 || need_tensor(a[1], "sparse_coo_tensor", "values") < 0)
        return NULL;
    const tl_tensor *ind = TL_TENSOR(a[0]), *val = TL_TENSOR(a[1]);
    int64_t size[TL_MAX_DIMS];
    int ndim = 0, check;
    if (tl_conv_flag(a[3], &check) < 0) return NULL;
    if (a[2] == Py_None) {
        if (ind->dtype == TL_INT64 && tl_coo_infer_size(ind, val, size, &ndim) < 0) return tl_raise();
    } else if (tl_conv_int_list(a[2], size, &ndim, "size") < 0) {
        return NULL;
    }
    if (tl_coo_check(ind, val, ndim, size, check) < 0) return tl_raise();
    bool coalesced = ind->sizes[1] <= 1;
    if (a[4] != Py_None) {
        int c;
        if (tl_conv_flag(a[4], &c) < 0) return NULL;
        coalesced = c;
    }
    TL_NEW_TENSOR(r, tl_coo_alias(&r->t, ind, val, ndim, size, coalesced));
    if (a[4] != Py_None && coalesced && check && !tl_coo_indices_sorted_unique(&r->t)) {
        Py_DECREF(r);
        return PyErr_Format(PyExc_RuntimeError,
                            "cannot set is_coalesced to true if indices correspond to uncoalesced COO tensor");
    }
    return (PyObject *)r;
}

/* _dense_to_sparse(t, sparse_dim) */
static PyObject *m_dense_to_sparse(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (n != 2 || need_tensor(a[0], "to_sparse", "self") < 0) return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_TypeError, "_dense_to_sparse expects 2 arguments");
    int64_t sd;
    if (tl_conv_int64(a[1], &sd, "sparse_dim") < 0) return NULL;
    const tl_tensor *t = TL_TENSOR(a[0]);
    if (sd < 0 || sd > t->ndim)
        return PyErr_Format(PyExc_RuntimeError, "sparse_dim must be in [0, %d], got %lld", t->ndim, (long long)sd);
    TL_NEW_TENSOR(r, tl_dense_to_coo(&r->t, t, (int)sd));
    return (PyObject *)r;
}

static int need_coo(PyObject *o, const char *fname)
{
    if (tl_is_tensor(o) && TL_TENSOR(o)->layout == TL_LAYOUT_SPARSE_COO) return 0;
    PyErr_Format(PyExc_RuntimeError, "%s expects a sparse COO tensor", fname);
    return -1;
}

/* _coo_add(a, av, b, bv) / _coo_mul(a, av, b, bv): see tl_coo_add / tl_coo_mul. */
static PyObject *combine(PyObject *const *a, Py_ssize_t n, const char *fname,
                         int (*fn)(tl_tensor *, const tl_tensor *, const tl_tensor *, const tl_tensor *, const tl_tensor *))
{
    if (n != 4) return PyErr_Format(PyExc_TypeError, "%s expects 4 arguments", fname);
    if (need_coo(a[0], fname) < 0 || need_coo(a[2], fname) < 0 || need_tensor(a[1], fname, "av") < 0 ||
        need_tensor(a[3], fname, "bv") < 0)
        return NULL;
    const tl_tensor *x = TL_TENSOR(a[0]), *y = TL_TENSOR(a[2]), *xv = TL_TENSOR(a[1]), *yv = TL_TENSOR(a[3]);
    if (x->sparse->sparse_dim != y->sparse->sparse_dim || xv->ndim < 1 || xv->sizes[0] != x->sparse->indices.sizes[1] ||
        yv->ndim < 1 || yv->sizes[0] != y->sparse->indices.sizes[1] ||
        memcmp(x->sizes, y->sizes, sizeof(int64_t) * x->sparse->sparse_dim) != 0)
        return PyErr_Format(PyExc_RuntimeError, "%s expects two COO tensors of one sparse size and their values", fname);
    TL_NEW_TENSOR(r, fn(&r->t, x, xv, y, yv));
    return (PyObject *)r;
}

static PyObject *m_coo_add(PyObject *m, PyObject *const *a, Py_ssize_t n) { return combine(a, n, "_coo_add", tl_coo_add); }
static PyObject *m_coo_mul(PyObject *m, PyObject *const *a, Py_ssize_t n) { return combine(a, n, "_coo_mul", tl_coo_mul); }
/* _coo_mul_source(src, sv, pc, pv): see tl_coo_mul_source. */
static PyObject *m_coo_mul_source(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    return combine(a, n, "_coo_mul_source", tl_coo_mul_source);
}

/* _coo_lookup(src, pc): see tl_coo_lookup (pc must be coalesced). */
static PyObject *m_coo_lookup(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (n != 2) return PyErr_Format(PyExc_TypeError, "_coo_lookup expects 2 arguments");
    if (need_coo(a[0], "_coo_lookup") < 0 || need_coo(a[1], "_coo_lookup") < 0) return NULL;
    const tl_tensor *x = TL_TENSOR(a[0]), *y = TL_TENSOR(a[1]);
    if (x->sparse->sparse_dim != y->sparse->sparse_dim || !y->sparse->coalesced)
        return PyErr_Format(PyExc_RuntimeError, "_coo_lookup expects a coalesced second tensor of the same sparse_dim");
    TL_NEW_TENSOR(r, tl_coo_lookup(&r->t, x, y));
    return (PyObject *)r;
}

/* _coo_index_select_plan(src, dim, index): see tl_coo_index_select_plan. */
static PyObject *m_coo_index_select_plan(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (n != 3) return PyErr_Format(PyExc_TypeError, "_coo_index_select_plan expects 3 arguments");
    if (need_coo(a[0], "_coo_index_select_plan") < 0 || need_tensor(a[2], "index_select", "index") < 0) return NULL;
    int64_t d;
    if (tl_conv_int64(a[1], &d, "dim") < 0) return NULL;
    const tl_tensor *x = TL_TENSOR(a[0]), *ix = TL_TENSOR(a[2]);
    if (d < 0 || d >= x->sparse->sparse_dim) return PyErr_Format(PyExc_RuntimeError, "dim %lld is not sparse", (long long)d);
    if (ix->dtype != TL_INT64 || ix->ndim != 1 || ix->layout != TL_LAYOUT_STRIDED)
        return PyErr_Format(PyExc_IndexError, "index_select() argument index must be 1-D strided (non-sparse) long-tensor.");
    TL_NEW_TENSOR(r, tl_coo_index_select_plan(&r->t, x, (int)d, ix));
    return (PyObject *)r;
}

/* _coo_spmm(src, dense): see tl_coo_spmm; None when the dtype has no native kernel. */
static PyObject *m_coo_spmm(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (n != 2) return PyErr_Format(PyExc_TypeError, "_coo_spmm expects 2 arguments");
    if (need_coo(a[0], "_coo_spmm") < 0 || need_tensor(a[1], "mm", "mat2") < 0) return NULL;
    const tl_tensor *x = TL_TENSOR(a[0]), *d = TL_TENSOR(a[1]);
    if (x->sparse->sparse_dim != 2 || x->sparse->dense_dim != 0 || d->ndim != 2 || d->sizes[0] != x->sizes[1])
        return PyErr_Format(PyExc_RuntimeError, "_coo_spmm expects a 2-D COO tensor and a matching 2-D tensor");
    if (!tl_coo_spmm_supports((tl_dtype)x->dtype)) Py_RETURN_NONE;
    TL_NEW_TENSOR(r, tl_coo_spmm(&r->t, x, d));
    return (PyObject *)r;
}

/* _sparse_device_mm(a, b, trans): op(a) @ b on a's device through the backend's sparse-product
 * entry (tl_backend_spmm); tensorlib/_sparse_device.py has made torch's checks. */
static PyObject *m_sparse_device_mm(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    int trans;
    if (n != 3) return PyErr_Format(PyExc_TypeError, "_sparse_device_mm expects 3 arguments");
    if (need_tensor(a[0], "mm", "mat1") < 0 || need_tensor(a[1], "mm", "mat2") < 0 || tl_conv_flag(a[2], &trans) < 0)
        return NULL;
    TL_NEW_TENSOR(r, tl_backend_spmm(&r->t, TL_TENSOR(a[0]), TL_TENSOR(a[1]), trans));
    return (PyObject *)r;
}

/* A new tensor object aliasing one component. */
static PyObject *component(const tl_tensor *c)
{
    TL_NEW_TENSOR(r, tl_tensor_alias(&r->t, c));
    return (PyObject *)r;
}

static PyObject *t_indices(PyObject *self, PyObject *u) { NEED_COO("_indices"); return component(&SELF->sparse->indices); }
static PyObject *t_values(PyObject *self, PyObject *u) { NEED_COO("_values"); return component(&SELF->sparse->values); }

static PyObject *t_nnz(PyObject *self, PyObject *u)
{
    if (SELF->layout != TL_LAYOUT_STRIDED && SELF->layout != TL_LAYOUT_SPARSE_COO) /* compressed: per batch */
        return PyLong_FromLongLong(SELF->sparse->plain.sizes[SELF->sparse->plain.ndim - 1]);
    NEED_COO("_nnz");
    return PyLong_FromLongLong(SELF->sparse->indices.sizes[1]);
}

static PyObject *t_sparse_dim(PyObject *self, PyObject *u)
{
    if (SELF->layout == TL_LAYOUT_STRIDED) return PyLong_FromLong(0);
    return PyLong_FromLong(SELF->sparse->sparse_dim);
}

static PyObject *t_dense_dim(PyObject *self, PyObject *u)
{
    if (SELF->layout == TL_LAYOUT_STRIDED) return PyLong_FromLong(SELF->ndim);
    return PyLong_FromLong(SELF->sparse->dense_dim);
}

static PyObject *t_is_coalesced(PyObject *self, PyObject *u)
{
    if (SELF->layout != TL_LAYOUT_SPARSE_COO)
        return PyErr_Format(PyExc_RuntimeError, "is_coalesced expected sparse coordinate tensor layout but got %s",
                            tl_layout_cname(SELF->layout));
    return PyBool_FromLong(SELF->sparse->coalesced);
}

static PyObject *t_coalesced_(PyObject *self, PyObject *flag)
{
    NEED_COO("_coalesced_");
    int c;
    if (tl_conv_flag(flag, &c) < 0) return NULL;
    SELF->sparse->coalesced = c;
    Py_INCREF(self);
    return self;
}

static PyObject *t_coalesce(PyObject *self, PyObject *u)
{
    NEED_COO("coalesce");
    TL_NEW_TENSOR(r, tl_coo_coalesce(&r->t, SELF));
    return (PyObject *)r;
}

static PyObject *t_coo_to_dense(PyObject *self, PyObject *u)
{
    NEED_COO("to_dense");
    TL_NEW_TENSOR(r, tl_coo_to_dense(&r->t, SELF));
    return (PyObject *)r;
}

/* _set_coo_(indices, values, size, coalesced): replaces the components in place (copy_,
 * zero_, sparse_resize_); the size is validated against the components first. */
static PyObject *t_set_coo_(PyObject *self, PyObject *const *a, Py_ssize_t n)
{
    NEED_COO("_set_coo_");
    if (n != 4 || need_tensor(a[0], "_set_coo_", "indices") < 0 || need_tensor(a[1], "_set_coo_", "values") < 0)
        return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_TypeError, "_set_coo_ expects 4 arguments");
    int64_t size[TL_MAX_DIMS];
    int ndim, c;
    if (tl_conv_int_list(a[2], size, &ndim, "size") < 0 || tl_conv_flag(a[3], &c) < 0) return NULL;
    const tl_tensor *ind = TL_TENSOR(a[0]), *val = TL_TENSOR(a[1]);
    if (!tl_device_eq(val->device, SELF->device))
        return PyErr_Format(PyExc_RuntimeError, "_set_coo_: the components must be on the tensor's device");
    /* device components come from the sparse layer itself (tensorlib/_sparse*.py): not rescanned */
    if (tl_coo_check(ind, val, ndim, size, val->device.type == TL_DEV_CPU) < 0) return tl_raise();
    tl_tensor fresh = {0};
    fresh.sizes = fresh.small;
    fresh.strides = fresh.small + TL_SMALL_DIMS;
    if (tl_coo_alias(&fresh, ind, val, ndim, size, c) < 0) return tl_raise();
    tl_tensor_clear(SELF);
    if (tl_tensor_alias(SELF, &fresh) < 0) { /* cannot fail: same geometry as before */
        tl_tensor_clear(&fresh);
        return tl_raise();
    }
    SELF->layout = fresh.layout;
    SELF->sparse = fresh.sparse;
    fresh.sparse = NULL;
    tl_tensor_clear(&fresh);
    Py_INCREF(self);
    return self;
}

PyMethodDef tl_module_methods_sparse[] = {
    {"_sparse_coo_new", (PyCFunction)(void (*)(void))m_coo_new, METH_FASTCALL,
     "_sparse_coo_new(indices, values, size, check_bounds, is_coalesced)"},
    {"_coo_add", (PyCFunction)(void (*)(void))m_coo_add, METH_FASTCALL, "_coo_add(a, a_values, b, b_values)"},
    {"_coo_mul", (PyCFunction)(void (*)(void))m_coo_mul, METH_FASTCALL, "_coo_mul(a, a_values, b, b_values)"},
    {"_coo_mul_source", (PyCFunction)(void (*)(void))m_coo_mul_source, METH_FASTCALL,
     "_coo_mul_source(src, src_values, coalesced, coalesced_values)"},
    {"_coo_lookup", (PyCFunction)(void (*)(void))m_coo_lookup, METH_FASTCALL, "_coo_lookup(src, coalesced)"},
    {"_coo_index_select_plan", (PyCFunction)(void (*)(void))m_coo_index_select_plan, METH_FASTCALL,
     "_coo_index_select_plan(src, dim, index)"},
    {"_coo_spmm", (PyCFunction)(void (*)(void))m_coo_spmm, METH_FASTCALL, "_coo_spmm(src, dense)"},
    {"_dense_to_sparse", (PyCFunction)(void (*)(void))m_dense_to_sparse, METH_FASTCALL, "_dense_to_sparse(t, sparse_dim)"},
    {"_sparse_device_mm", (PyCFunction)(void (*)(void))m_sparse_device_mm, METH_FASTCALL,
     "_sparse_device_mm(a, b, trans): op(a) @ b on a's device (the backend's sparse-product entry)."},
    {NULL},
};

PyMethodDef tl_tensor_methods_sparse[] = {
    {"_indices", t_indices, METH_NOARGS, "The indices component of a COO tensor (shared, possibly uncoalesced)."},
    {"_values", t_values, METH_NOARGS, "The values component of a COO tensor (shared, possibly uncoalesced)."},
    {"_nnz", t_nnz, METH_NOARGS, "Number of stored elements (nse) of a sparse tensor."},
    {"sparse_dim", t_sparse_dim, METH_NOARGS, "Number of sparse dimensions (0 for a strided tensor)."},
    {"dense_dim", t_dense_dim, METH_NOARGS, "Number of dense dimensions (all of them for a strided tensor)."},
    {"is_coalesced", t_is_coalesced, METH_NOARGS, "Whether a COO tensor's indices are sorted and unique."},
    {"_coalesced_", t_coalesced_, METH_O, "Sets the coalesced flag of a COO tensor in place (unchecked, as torch)."},
    {"_coalesce", t_coalesce, METH_NOARGS, "A coalesced copy (duplicates summed, indices sorted)."},
    {"_coo_to_dense", t_coo_to_dense, METH_NOARGS, "The strided tensor of a COO tensor."},
    {"_set_coo_", (PyCFunction)(void (*)(void))t_set_coo_, METH_FASTCALL, "_set_coo_(indices, values, size, coalesced)"},
    {NULL},
};
