/* tensor.c - the TensorBase type: attributes, geometry queries, views, copies and
 * basic indexing. Each method parses its arguments and calls one core function. */
#include "python/binding.h"

#include "backend/backend.h"

#include <string.h>

#include "kernels/cast.h"
#include "ops/copy.h"
#include "ops/view.h"

PyTypeObject *tl_tensor_class = &TensorBase_Type;

/* Freed objects of the tensor class are kept for reuse, so a view or a small result costs no
 * allocator round trip (x[3] and a + b make and drop one each). The GIL guards the list;
 * a build without one keeps no list. Only the exact class, and only when its instances are
 * plain TensorObjects (m_set_tensor_class decides), goes on it. */
#ifdef Py_GIL_DISABLED
#define TL_FREELIST_MAX 0
#else
#define TL_FREELIST_MAX 64
#endif
static TensorObject *freelist[TL_FREELIST_MAX + 1];
static int nfree;
static bool freelist_ok;

TensorObject *tl_tensor_alloc(void)
{
    TensorObject *o;
    if (nfree) {
        o = freelist[--nfree];
        memset((char *)o + sizeof(PyObject), 0, sizeof(TensorObject) - sizeof(PyObject));
        PyObject_Init((PyObject *)o, tl_tensor_class);
    } else {
        o = (TensorObject *)tl_tensor_class->tp_alloc(tl_tensor_class, 0);
        if (!o) return NULL;
    }
    o->t.sizes = o->t.small;
    o->t.strides = o->t.small + TL_SMALL_DIMS;
    return o;
}

static void tensor_dealloc(TensorObject *self)
{
    if (self->weakreflist) PyObject_ClearWeakRefs((PyObject *)self);
    tl_tensor_clear(&self->t);
    Py_CLEAR(self->base);
    if (freelist_ok && Py_TYPE(self) == tl_tensor_class && nfree < TL_FREELIST_MAX) {
        freelist[nfree++] = self; /* subtype_dealloc still drops its reference to the class */
        return;
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *tensor_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    PyErr_SetString(PyExc_TypeError, "use tensorlib.tensor(data) or a factory such as tensorlib.empty(size) to create tensors");
    return NULL;
}

#define SELF (&((TensorObject *)self)->t)
#define FASTARGS PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames

/* ---- attributes ---- */

static PyObject *get_shape(PyObject *self, void *c) { return tl_size_new(SELF->sizes, SELF->ndim); }
static PyObject *get_dtype(PyObject *self, void *c) { return tl_dtype_obj((tl_dtype)SELF->dtype); }
static PyObject *get_device(PyObject *self, void *c) { return tl_device_obj(SELF->device); }
static PyObject *get_layout(PyObject *self, void *c) { Py_INCREF(tl_layout_objs[SELF->layout]); return tl_layout_objs[SELF->layout]; }
static PyObject *get_ndim(PyObject *self, void *c) { return PyLong_FromLong(SELF->ndim); }
static PyObject *get_is_cuda(PyObject *self, void *c) { return PyBool_FromLong(SELF->device.type == TL_DEV_CUDA); }
static PyObject *get_is_cpu(PyObject *self, void *c) { return PyBool_FromLong(SELF->device.type == TL_DEV_CPU); }
static PyObject *get_is_meta(PyObject *self, void *c) { return PyBool_FromLong(SELF->device.type == TL_DEV_META); }
static PyObject *get_is_sparse(PyObject *self, void *c) { return PyBool_FromLong(SELF->layout == TL_LAYOUT_SPARSE_COO); }
static PyObject *get_is_sparse_csr(PyObject *self, void *c) { return PyBool_FromLong(SELF->layout == TL_LAYOUT_SPARSE_CSR); }
static PyObject *get_false(PyObject *self, void *c) { Py_RETURN_FALSE; }
static PyObject *get_true(PyObject *self, void *c) { Py_RETURN_TRUE; }
static PyObject *get_none(PyObject *self, void *c) { Py_RETURN_NONE; }
static PyObject *get_itemsize(PyObject *self, void *c) { return PyLong_FromLong(tl_itemsize(SELF)); }
static PyObject *get_nbytes(PyObject *self, void *c) { return PyLong_FromLongLong(tl_numel(SELF) * tl_itemsize(SELF)); }
static PyObject *get_names(PyObject *self, void *c) { return tl_names_tuple(SELF); }

static int refuse_grad(void)
{
    PyErr_SetString(PyExc_RuntimeError, "tensorlib has no autograd yet: requires_grad=True is not supported");
    return -1;
}
static int set_requires_grad(PyObject *self, PyObject *v, void *c)
{
    if (!v) { PyErr_SetString(PyExc_TypeError, "cannot delete requires_grad"); return -1; }
    int b = PyObject_IsTrue(v);
    if (b < 0) return -1;
    return b ? refuse_grad() : 0;
}
static int set_grad(PyObject *self, PyObject *v, void *c)
{
    if (v && v != Py_None) return refuse_grad();
    return 0;
}
static int set_names(PyObject *self, PyObject *v, void *c)
{
    int32_t ids[TL_MAX_DIMS];
    if (!v || v == Py_None) return tl_tensor_set_names(SELF, NULL) < 0 ? tl_raise_int() : 0;
    if (tl_conv_names(v, SELF->ndim, ids) < 0) return -1;
    return tl_tensor_set_names(SELF, ids) < 0 ? tl_raise_int() : 0;
}

static PyObject *get_T(PyObject *self, void *c);
static PyObject *get_mT(PyObject *self, void *c);

static PyObject *get_base(PyObject *self, void *c)
{
    PyObject *b = ((TensorObject *)self)->base;
    return Py_NewRef(b ? b : Py_None);
}

static PyGetSetDef tensor_getset[] = {
    {"shape", get_shape, NULL, "The size of each dimension, as a tensorlib.Size.", NULL},
    {"dtype", get_dtype, NULL, "The element type.", NULL},
    {"device", get_device, NULL, "Where the elements live.", NULL},
    {"layout", get_layout, NULL, "tensorlib.strided, or a sparse layout.", NULL},
    {"ndim", get_ndim, NULL, "Number of dimensions.", NULL},
    {"is_cuda", get_is_cuda, NULL, "True when the tensor lives on a CUDA device.", NULL},
    {"is_cpu", get_is_cpu, NULL, "True when the tensor lives on the CPU.", NULL},
    {"is_meta", get_is_meta, NULL, "True for meta tensors.", NULL},
    {"is_sparse", get_is_sparse, NULL, "True for sparse COO tensors.", NULL},
    {"is_sparse_csr", get_is_sparse_csr, NULL, "True for sparse CSR tensors.", NULL},
    {"is_quantized", get_false, NULL, "Always False.", NULL},
    {"is_mkldnn", get_false, NULL, "Always False.", NULL},
    {"is_nested", get_false, NULL, "Always False.", NULL},
    {"requires_grad", get_false, set_requires_grad, "Always False: tensorlib has no autograd yet.", NULL},
    {"is_leaf", get_true, NULL, "Always True: tensorlib has no autograd yet.", NULL},
    {"grad", get_none, set_grad, "Always None: tensorlib has no autograd yet.", NULL},
    {"grad_fn", get_none, NULL, "Always None: tensorlib has no autograd yet.", NULL},
    {"itemsize", get_itemsize, NULL, "Bytes per element.", NULL},
    {"nbytes", get_nbytes, NULL, "Bytes of the elements (numel * itemsize).", NULL},
    {"names", get_names, set_names, "The name of each dimension (None where unnamed).", NULL},
    {"T", get_T, NULL, "All dims reversed.", NULL},
    {"mT", get_mT, NULL, "The last two dims swapped.", NULL},
    {"_base", get_base, NULL, "The tensor this view was made from (None when not a view), as torch.", NULL},
    {NULL},
};

/* ---- geometry queries ---- */

/* size(dim=None) and stride(dim=None): the whole tuple, or one entry of `vals`. */
static PyObject *dim_query(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                           const char *fname, const int64_t *vals, bool as_size)
{
    static const char *const names[] = {"dim", NULL};
    PyObject *a[1];
    if (tl_parse_args(args, nargs, kwnames, fname, names, 0, 1, a) < 0) return NULL;
    if (!a[0] || a[0] == Py_None) {
        if (as_size) return tl_size_new(vals, SELF->ndim);
        PyObject *r = PyTuple_New(SELF->ndim);
        for (int i = 0; r && i < SELF->ndim; i++) PyTuple_SET_ITEM(r, i, PyLong_FromLongLong(vals[i]));
        return r;
    }
    int64_t d;
    int w;
    if (tl_conv_dim(a[0], SELF, &d) < 0) return NULL;
    if (SELF->ndim == 0) {
        PyErr_Format(PyExc_IndexError, "Dimension specified as %lld but tensor has no dimensions", (long long)d);
        return NULL;
    }
    if (tl_wrap_dim(d, SELF->ndim, &w) < 0) return tl_raise();
    return PyLong_FromLongLong(vals[w]);
}

static PyObject *m_size(FASTARGS) { return dim_query(self, args, nargs, kwnames, "size", SELF->sizes, true); }
static PyObject *m_stride(FASTARGS) { return dim_query(self, args, nargs, kwnames, "stride", SELF->strides, false); }

static PyObject *m_dim(PyObject *self, PyObject *u) { return PyLong_FromLong(SELF->ndim); }
static PyObject *m_numel(PyObject *self, PyObject *u) { return PyLong_FromLongLong(tl_numel(SELF)); }
static PyObject *m_storage_offset(PyObject *self, PyObject *u) { return PyLong_FromLongLong(SELF->offset); }
/* torch reports 0 for a tensor without elements, whatever its storage, and for meta tensors */
static PyObject *m_data_ptr(PyObject *self, PyObject *u)
{
    return PyLong_FromVoidPtr(tl_numel(SELF) && SELF->device.type != TL_DEV_META ? tl_data(SELF) : NULL);
}
static PyObject *m_element_size(PyObject *self, PyObject *u) { return PyLong_FromLong(tl_itemsize(SELF)); }
static PyObject *m_has_names(PyObject *self, PyObject *u) { return PyBool_FromLong(SELF->names != NULL); }
static PyObject *m_storage_nbytes(PyObject *self, PyObject *u) { return PyLong_FromSize_t(SELF->storage->nbytes); }
static PyObject *m_storage_ptr(PyObject *self, PyObject *u) { return PyLong_FromVoidPtr(SELF->storage->data); }

static PyObject *m_is_contiguous(FASTARGS)
{
    static const char *const names[] = {"memory_format", NULL};
    PyObject *a[1];
    tl_memory_format f = TL_MEMFMT_CONTIGUOUS;
    if (tl_parse_args(args, nargs, kwnames, "is_contiguous", names, 0, 1, a) < 0 || tl_conv_memfmt(a[0], &f) < 0) return NULL;
    if (f == TL_MEMFMT_PRESERVE) {
        PyErr_SetString(PyExc_RuntimeError, "is_contiguous: preserve_format is not a valid memory format to check");
        return NULL;
    }
    return PyBool_FromLong(tl_is_contiguous_format(SELF, f));
}

static PyObject *m_is_non_overlapping_and_dense(PyObject *self, PyObject *u)
{
    return PyBool_FromLong(tl_is_non_overlapping_and_dense(SELF));
}

/* ---- copies ---- */

/* A fresh copy (tl_clone), made without the GIL when it is big. */
static PyObject *clone_fresh(const tl_tensor *x, tl_dtype dt, tl_memory_format f)
{
    TensorObject *r = tl_tensor_alloc();
    if (!r) return NULL;
    tl_nogil g;
    tl_nogil_begin(&g, &x, 1);
    int rc = tl_clone(&r->t, x, dt, f);
    tl_nogil_end(&g);
    if (rc < 0) { Py_DECREF(r); return tl_raise(); }
    return (PyObject *)r;
}

static PyObject *m_contiguous(FASTARGS)
{
    static const char *const names[] = {"memory_format", NULL};
    PyObject *a[1];
    tl_memory_format f = TL_MEMFMT_CONTIGUOUS;
    if (tl_parse_args(args, nargs, kwnames, "contiguous", names, 0, 1, a) < 0 || tl_conv_memfmt(a[0], &f) < 0) return NULL;
    if (f == TL_MEMFMT_PRESERVE && !tl_is_contiguous(SELF)) {
        PyErr_SetString(PyExc_RuntimeError, "preserve memory format is unsupported by the contiguous operator");
        return NULL;
    }
    if (tl_is_contiguous_format(SELF, f)) {
        Py_INCREF(self);
        return self;
    }
    return clone_fresh(SELF, (tl_dtype)SELF->dtype, f);
}

static PyObject *m_clone(FASTARGS)
{
    static const char *const names[] = {"memory_format", NULL};
    PyObject *a[1];
    tl_memory_format f = TL_MEMFMT_PRESERVE;
    if (tl_parse_args(args, nargs, kwnames, "clone", names, 0, 0, a) < 0 || tl_conv_memfmt(a[0], &f) < 0) return NULL;
    return clone_fresh(SELF, (tl_dtype)SELF->dtype, f);
}

static PyObject *m_copy_(FASTARGS)
{
    static const char *const names[] = {"src", "non_blocking", NULL};
    PyObject *a[2];
    if (tl_parse_args(args, nargs, kwnames, "copy_", names, 1, 2, a) < 0) return NULL;
    if (!tl_is_tensor(a[0])) {
        PyErr_Format(PyExc_TypeError, "copy_(): argument 'src' must be Tensor, not %s", Py_TYPE(a[0])->tp_name);
        return NULL;
    }
    int nb = a[1] ? PyObject_IsTrue(a[1]) : 0;
    if (nb < 0) return NULL;
    if (tl_copy_named_(SELF, TL_TENSOR(a[0]), nb) < 0) return tl_raise();
    Py_INCREF(self);
    return self;
}

static PyObject *m_fill_(FASTARGS)
{
    static const char *const names[] = {"value", NULL};
    PyObject *a[1];
    tl_scalar s;
    if (tl_parse_args(args, nargs, kwnames, "fill_", names, 1, 1, a) < 0) return NULL;
    if (tl_is_tensor(a[0]) && TL_TENSOR(a[0])->ndim != 0) {
        PyErr_Format(PyExc_RuntimeError, "fill_ only supports 0-dimension value tensor but got tensor with %d dimensions.",
                     TL_TENSOR(a[0])->ndim);
        return NULL;
    }
    if (tl_conv_scalar(a[0], &s) < 0) return NULL;
    if ((!tl_is_tensor(a[0]) && tl_scalar_check_fits(s, (tl_dtype)SELF->dtype) < 0) || tl_fill_(SELF, s) < 0) return tl_raise();
    Py_INCREF(self);
    return self;
}

static PyObject *m_zero_(PyObject *self, PyObject *u)
{
    if (tl_fill_(SELF, tl_scalar_int(0)) < 0) return tl_raise();
    Py_INCREF(self);
    return self;
}

/* to(dtype) / to(device, dtype) / to(tensor) with copy=, non_blocking=, memory_format= */
static PyObject *m_to(FASTARGS)
{
    static const char *const names[] = {"a0", "a1", "a2", "a3", "dtype", "device", "copy", "non_blocking", "memory_format", NULL};
    PyObject *a[9];
    if (tl_parse_args(args, nargs, kwnames, "to", names, 0, 4, a) < 0) return NULL;
    tl_dtype dt = (tl_dtype)SELF->dtype;
    tl_device dev = SELF->device;
    tl_memory_format fmt = TL_MEMFMT_PRESERVE;
    int copy = 0, non_blocking = 0, nbools = 0;
    PyObject *copy_obj = a[6], *nb_obj = a[7];
    for (int i = 0; i < 4 && a[i]; i++) {
        PyObject *o = a[i];
        if (PyObject_TypeCheck(o, &Dtype_Type)) dt = ((DtypeObject *)o)->dtype;
        else if (tl_is_tensor(o)) { dt = (tl_dtype)TL_TENSOR(o)->dtype; dev = TL_TENSOR(o)->device; }
        else if (PyObject_TypeCheck(o, &Device_Type) || PyUnicode_Check(o) || (PyLong_Check(o) && !PyBool_Check(o))) {
            if (tl_conv_device(o, &dev) < 0) return NULL;
        } else if (PyBool_Check(o) && i >= 1 && nbools < 2) {
            /* to(dtype, non_blocking, copy), to(device, dtype, non_blocking, copy) */
            if (nbools++ == 0) nb_obj = o;
            else copy_obj = o;
        } else {
            PyErr_Format(PyExc_TypeError, "to() received an invalid combination of arguments - got (%s, ...)",
                         Py_TYPE(o)->tp_name);
            return NULL;
        }
    }
    if (tl_conv_dtype(a[4], &dt) < 0 || tl_conv_device(a[5], &dev) < 0 || tl_conv_memfmt(a[8], &fmt) < 0) return NULL;
    if (copy_obj && (copy = PyObject_IsTrue(copy_obj)) < 0) return NULL;
    if (nb_obj && (non_blocking = PyObject_IsTrue(nb_obj)) < 0) return NULL;
    bool meta_to_meta = dev.type == TL_DEV_META && SELF->device.type == TL_DEV_META; /* a CPU-like clone, no loop */
    if (!meta_to_meta && (dev.type != TL_DEV_CPU || SELF->device.type != TL_DEV_CPU)) { /* a copy by a device backend */
        if (tl_py_device_ready(&dev) < 0) return NULL;
        if (tl_device_eq(dev, SELF->device) && !copy && dt == SELF->dtype) {
            Py_INCREF(self);
            return self;
        }
        return tl_py_to_device(self, dev, dt, non_blocking);
    }
    if (!copy && dt == SELF->dtype && (fmt == TL_MEMFMT_PRESERVE || tl_suggest_memory_format(SELF) == fmt)) {  /* torch's to_will_alias */
        Py_INCREF(self);
        return self;
    }
    return clone_fresh(SELF, dt, fmt);
}

/* float(), double(), half(), ... : to(dtype) without the argument parsing. */
static PyObject *cast_to(PyObject *self, tl_dtype dt, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"memory_format", NULL};
    PyObject *a[1];
    tl_memory_format fmt = TL_MEMFMT_PRESERVE;
    if (tl_parse_args(args, nargs, kwnames, "cast", names, 0, 0, a) < 0 || tl_conv_memfmt(a[0], &fmt) < 0) return NULL;
    if (dt == SELF->dtype && (fmt == TL_MEMFMT_PRESERVE || tl_suggest_memory_format(SELF) == fmt)) {  /* torch's to_will_alias */
        Py_INCREF(self);
        return self;
    }
    return clone_fresh(SELF, dt, fmt);
}
#define CAST_METHOD(name, DT) \
    static PyObject *m_##name(FASTARGS) { return cast_to(self, DT, args, nargs, kwnames); }
CAST_METHOD(float, TL_FLOAT32)
CAST_METHOD(double, TL_FLOAT64)
CAST_METHOD(half, TL_FLOAT16)
CAST_METHOD(bfloat16, TL_BFLOAT16)
CAST_METHOD(bool, TL_BOOL)
CAST_METHOD(byte, TL_UINT8)
CAST_METHOD(char, TL_INT8)
CAST_METHOD(short, TL_INT16)
CAST_METHOD(int, TL_INT32)
CAST_METHOD(long, TL_INT64)
CAST_METHOD(cfloat, TL_COMPLEX64)
CAST_METHOD(cdouble, TL_COMPLEX128)
CAST_METHOD(chalf, TL_COMPLEX32)

static PyObject *m_detach(PyObject *self, PyObject *u)
{
    TL_NEW_TENSOR(r, tl_tensor_alias(&r->t, SELF));
    return (PyObject *)r;
}

static PyObject *m_share_memory_(PyObject *self, PyObject *u)
{
    if (SELF->storage && tl_storage_share(SELF->storage) < 0) return tl_raise();
    Py_INCREF(self);
    return self;
}

static PyObject *m_is_shared(PyObject *self, PyObject *u)
{
    return PyBool_FromLong(SELF->storage && SELF->storage->shared);
}

/* ---- views ---- */

static PyObject *m_view(FASTARGS)
{
    int64_t sz[TL_MAX_DIMS];
    int n;
    if (kwnames && PyTuple_GET_SIZE(kwnames)) {
        static const char *const names[] = {"dtype", "size", NULL};
        PyObject *a[2];
        if (tl_parse_args(args, nargs, kwnames, "view", names, 0, 0, a) < 0) return NULL;
        if (a[0]) {
            tl_dtype dt;
            if (tl_conv_dtype(a[0], &dt) < 0) return NULL;
            TL_NEW_TENSOR(r, tl_view_dtype(&r->t, SELF, dt));
            return (PyObject *)r;
        }
        if (!a[1]) { PyErr_SetString(PyExc_TypeError, "view() missing required argument 'size'"); return NULL; }
        if (tl_conv_size_args(&a[1], 1, sz, &n, "view") < 0) return NULL;
    } else {
        if (nargs == 1 && PyObject_TypeCheck(args[0], &Dtype_Type)) {
            TL_NEW_TENSOR(r, tl_view_dtype(&r->t, SELF, ((DtypeObject *)args[0])->dtype));
            return (PyObject *)r;
        }
        if (tl_conv_size_args(args, nargs, sz, &n, "view") < 0) return NULL;
    }
    TL_NEW_TENSOR(r, tl_view(&r->t, SELF, sz, n));
    return (PyObject *)r;
}

static PyObject *m_reshape(FASTARGS)
{
    int64_t sz[TL_MAX_DIMS];
    int n;
    if (kwnames && PyTuple_GET_SIZE(kwnames)) {
        static const char *const names[] = {"shape", NULL};
        PyObject *a[1];
        if (tl_parse_args(args, nargs, kwnames, "reshape", names, 1, 0, a) < 0) return NULL;
        if (tl_conv_size_args(&a[0], 1, sz, &n, "reshape") < 0) return NULL;
    } else if (tl_conv_size_args(args, nargs, sz, &n, "reshape") < 0) {
        return NULL;
    }
    TL_NEW_TENSOR(r, tl_reshape(&r->t, SELF, sz, n));
    return (PyObject *)r;
}

static PyObject *m_transpose(FASTARGS)
{
    static const char *const names[] = {"dim0", "dim1", NULL};
    PyObject *a[2];
    int64_t d0, d1;
    if (tl_parse_args(args, nargs, kwnames, "transpose", names, 2, 2, a) < 0) return NULL;
    if (tl_conv_dim(a[0], SELF, &d0) < 0 || tl_conv_dim(a[1], SELF, &d1) < 0) return NULL;
    TL_NEW_TENSOR(r, tl_transpose(&r->t, SELF, d0, d1));
    return (PyObject *)r;
}

static PyObject *m_t(PyObject *self, PyObject *u)
{
    if (SELF->ndim > 2) {
        PyErr_Format(PyExc_RuntimeError, "t() expects a tensor with <= 2 dimensions, but self is %dD", SELF->ndim);
        return NULL;
    }
    TL_NEW_TENSOR(r, SELF->ndim < 2 ? tl_tensor_alias(&r->t, SELF) : tl_transpose(&r->t, SELF, 0, 1));
    return (PyObject *)r;
}

static PyObject *get_T(PyObject *self, void *c)
{
    int64_t dims[TL_MAX_DIMS];
    for (int i = 0; i < SELF->ndim; i++) dims[i] = SELF->ndim - 1 - i;
    TL_NEW_TENSOR(r, tl_permute(&r->t, SELF, dims, SELF->ndim));
    return (PyObject *)r;
}

static PyObject *get_mT(PyObject *self, void *c)
{
    if (SELF->ndim < 2) {
        PyErr_SetString(PyExc_RuntimeError, "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.");
        return NULL;
    }
    TL_NEW_TENSOR(r, tl_transpose(&r->t, SELF, -2, -1));
    return (PyObject *)r;
}

static int conv_dims(PyObject *const *args, Py_ssize_t nargs, const tl_tensor *t, int64_t *dims, int *n)
{
    PyObject *const *items = args;
    Py_ssize_t len = nargs;
    if (nargs == 1 && (PyTuple_Check(args[0]) || PyList_Check(args[0]))) {
        items = PySequence_Fast_ITEMS(args[0]);
        len = PySequence_Fast_GET_SIZE(args[0]);
    }
    if (len > TL_MAX_DIMS) {
        PyErr_SetString(PyExc_RuntimeError, "too many dimensions");
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++)
        if (tl_conv_dim(items[i], t, &dims[i]) < 0) return -1;
    *n = (int)len;
    return 0;
}

static PyObject *m_permute(FASTARGS)
{
    int64_t dims[TL_MAX_DIMS];
    int n;
    if (kwnames && PyTuple_GET_SIZE(kwnames)) {
        static const char *const names[] = {"dims", NULL};
        PyObject *a[1];
        if (tl_parse_args(args, nargs, kwnames, "permute", names, 1, 0, a) < 0 || conv_dims(a, 1, SELF, dims, &n) < 0)
            return NULL;
    } else if (conv_dims(args, nargs, SELF, dims, &n) < 0) {
        return NULL;
    }
    TL_NEW_TENSOR(r, tl_permute(&r->t, SELF, dims, n));
    return (PyObject *)r;
}

static PyObject *m_expand(FASTARGS)
{
    int64_t sz[TL_MAX_DIMS];
    int n;
    static const char *const names[] = {"size", "implicit", NULL};
    PyObject *a[2];
    if (kwnames && PyTuple_GET_SIZE(kwnames)) {
        if (tl_parse_args(args, nargs, kwnames, "expand", names, 0, 1, a) < 0) return NULL;
        if (a[0] ? tl_conv_size_args(&a[0], 1, sz, &n, "expand") < 0 : tl_conv_size_args(args, nargs, sz, &n, "expand") < 0)
            return NULL;
    } else if (tl_conv_size_args(args, nargs, sz, &n, "expand") < 0) {
        return NULL;
    }
    TL_NEW_TENSOR(r, tl_expand(&r->t, SELF, sz, n));
    return (PyObject *)r;
}

static PyObject *m_squeeze(FASTARGS)
{
    static const char *const names[] = {"dim", NULL};
    PyObject *a[1];
    int64_t dims[TL_MAX_DIMS];
    int n = 0;
    if (tl_parse_args(args, nargs, kwnames, "squeeze", names, 0, 1, a) < 0) return NULL;
    if (a[0] && a[0] != Py_None) {
        if (PyTuple_Check(a[0]) || PyList_Check(a[0])) {
            if (conv_dims(a, 1, SELF, dims, &n) < 0) return NULL;
        } else {
            if (tl_conv_dim(a[0], SELF, &dims[0]) < 0) return NULL;
            n = 1;
        }
    }
    TL_NEW_TENSOR(r, tl_squeeze(&r->t, SELF, (a[0] && a[0] != Py_None) ? dims : NULL, n));
    return (PyObject *)r;
}

static PyObject *m_unsqueeze(FASTARGS)
{
    static const char *const names[] = {"dim", NULL};
    PyObject *a[1];
    int64_t d;
    if (tl_parse_args(args, nargs, kwnames, "unsqueeze", names, 1, 1, a) < 0 || tl_conv_int64(a[0], &d, "dim") < 0) return NULL;
    TL_NEW_TENSOR(r, tl_unsqueeze(&r->t, SELF, d));
    return (PyObject *)r;
}

static PyObject *m_narrow(FASTARGS)
{
    static const char *const names[] = {"dim", "start", "length", NULL};
    PyObject *a[3];
    int64_t d, s, l;
    if (tl_parse_args(args, nargs, kwnames, "narrow", names, 3, 3, a) < 0 || tl_conv_dim(a[0], SELF, &d) < 0 ||
        tl_conv_int64(a[1], &s, "start") < 0 || tl_conv_int64(a[2], &l, "length") < 0)
        return NULL;
    TL_NEW_TENSOR(r, tl_narrow(&r->t, SELF, d, s, l));
    return (PyObject *)r;
}

static PyObject *m_select(FASTARGS)
{
    static const char *const names[] = {"dim", "index", NULL};
    PyObject *a[2];
    int64_t d, i;
    if (tl_parse_args(args, nargs, kwnames, "select", names, 2, 2, a) < 0 || tl_conv_dim(a[0], SELF, &d) < 0 ||
        tl_conv_int64(a[1], &i, "index") < 0)
        return NULL;
    TL_NEW_TENSOR(r, tl_select(&r->t, SELF, d, i));
    return (PyObject *)r;
}

static PyObject *m_diagonal(FASTARGS)
{
    static const char *const names[] = {"offset", "dim1", "dim2", "outdim", NULL};
    PyObject *a[4];
    int64_t off = 0, d1 = 0, d2 = 1;
    int32_t outname = TL_NAME_NONE;
    if (tl_parse_args(args, nargs, kwnames, "diagonal", names, 0, 4, a) < 0) return NULL;
    if ((a[0] && tl_conv_int64(a[0], &off, "offset") < 0) || (a[1] && tl_conv_dim(a[1], SELF, &d1) < 0) ||
        (a[2] && tl_conv_dim(a[2], SELF, &d2) < 0) || (a[3] && a[3] != Py_None && tl_conv_name(a[3], &outname) < 0))
        return NULL;
    TL_NEW_TENSOR(r, tl_diagonal(&r->t, SELF, off, d1, d2, outname));
    return (PyObject *)r;
}

static PyObject *m_as_strided(FASTARGS)
{
    static const char *const names[] = {"size", "stride", "storage_offset", NULL};
    PyObject *a[3];
    int64_t sz[TL_MAX_DIMS], st[TL_MAX_DIMS], off = SELF->offset;
    int n, m;
    if (tl_parse_args(args, nargs, kwnames, "as_strided", names, 2, 3, a) < 0 || tl_conv_int_list(a[0], sz, &n, "size") < 0 ||
        tl_conv_int_list(a[1], st, &m, "stride") < 0 || (a[2] && a[2] != Py_None && tl_conv_int64(a[2], &off, "storage_offset") < 0))
        return NULL;
    if (n != m) {
        PyErr_Format(PyExc_RuntimeError, "mismatch in length of strides and shape");
        return NULL;
    }
    TL_NEW_TENSOR(r, tl_as_strided(&r->t, SELF, sz, st, n, off));
    return (PyObject *)r;
}

static PyObject *m_unfold(FASTARGS)
{
    static const char *const names[] = {"dimension", "size", "step", NULL};
    PyObject *a[3];
    int64_t d, s, st;
    if (tl_parse_args(args, nargs, kwnames, "unfold", names, 3, 3, a) < 0 || tl_conv_int64(a[0], &d, "dimension") < 0 ||
        tl_conv_int64(a[1], &s, "size") < 0 || tl_conv_int64(a[2], &st, "step") < 0)
        return NULL;
    TL_NEW_TENSOR(r, tl_unfold(&r->t, SELF, d, s, st));
    return (PyObject *)r;
}

/* _set_names(names or None, inplace): the storage half of rename/refine_names (the
 * Python layer resolves '...' and the renaming rules). */
static PyObject *m_set_names(PyObject *self, PyObject *args)
{
    PyObject *names;
    int inplace;
    if (!PyArg_ParseTuple(args, "Op", &names, &inplace)) return NULL;
    int32_t ids[TL_MAX_DIMS];
    if (names != Py_None && tl_conv_names(names, SELF->ndim, ids) < 0) return NULL;
    if (inplace) {
        if (tl_tensor_set_names(SELF, names == Py_None ? NULL : ids) < 0) return tl_raise();
        Py_INCREF(self);
        return self;
    }
    TL_NEW_TENSOR(r, tl_tensor_alias(&r->t, SELF));
    if (tl_tensor_set_names(&r->t, names == Py_None ? NULL : ids) < 0) { Py_DECREF(r); return tl_raise(); }
    return (PyObject *)r;
}

/* set_(source=None, storage_offset=0, size=None, stride=None): make self share
 * source's storage (a tensor) with the given or source's geometry; set_() empties it. */
/* A tensor whose storage is exported (buffer protocol, NumPy, an op without the GIL) keeps it. */
static int check_no_exports(const tl_tensor *t, const char *op)
{
    if (t->storage->exports <= 0) return 0;
    PyErr_Format(PyExc_RuntimeError, "%s: cannot change the storage of a tensor while %lld buffer export(s) of it are alive",
                 op, (long long)t->storage->exports);
    return -1;
}

/* x.data = src (torch's set_data): self takes src's storage, geometry, dtype and names. */
static PyObject *m_set_data(PyObject *self, PyObject *src)
{
    if (!tl_is_tensor(src))
        return PyErr_Format(PyExc_TypeError, "Variable data has to be a tensor, but got %s", Py_TYPE(src)->tp_name);
    if (check_no_exports(SELF, "data") < 0) return NULL;
    if (tl_tensor_alias(SELF, TL_TENSOR(src)) < 0) return tl_raise();
    Py_RETURN_NONE;
}

static PyObject *m_set_(FASTARGS)
{
    static const char *const names[] = {"source", "storage_offset", "size", "stride", NULL};
    PyObject *a[4];
    if (tl_parse_args(args, nargs, kwnames, "set_", names, 0, 4, a) < 0) return NULL;
    tl_tensor *t = SELF;
    if (check_no_exports(t, "set_") < 0) return NULL;
    if (t->names) {
        PyErr_SetString(PyExc_RuntimeError, "set_ is not supported with named tensors");
        return NULL;
    }
    int rc;
    if (!a[0] || a[0] == Py_None) {
        int64_t zero = 0;
        tl_tensor fresh = {0};
        rc = tl_tensor_empty(&fresh, 1, &zero, (tl_dtype)t->dtype, t->device, false);
        if (rc == 0) rc = tl_tensor_alias(t, &fresh);
        tl_tensor_clear(&fresh);
    } else {
        if (!tl_is_tensor(a[0])) {
            PyErr_Format(PyExc_TypeError, "set_(): argument 'source' must be Tensor, not %s", Py_TYPE(a[0])->tp_name);
            return NULL;
        }
        const tl_tensor *src = TL_TENSOR(a[0]);
        if (src->dtype != t->dtype) {
            PyErr_Format(PyExc_RuntimeError, "Expected object of scalar type %s but got scalar type %s for argument 'source'",
                         tl_dtype_infos[t->dtype].cname, tl_dtype_infos[src->dtype].cname);
            return NULL;
        }
        if (!a[1] && !a[2]) {
            rc = src == t ? 0 : tl_tensor_view_init(t, src, src->ndim, src->sizes, src->strides, src->offset);
        } else {
            int64_t off = 0, sz[TL_MAX_DIMS], st[TL_MAX_DIMS];
            int n = 0, m = 0;
            bool strided = a[3] && a[3] != Py_None;
            if ((a[1] && tl_conv_int64(a[1], &off, "storage_offset") < 0) || (a[2] && tl_conv_int_list(a[2], sz, &n, "size") < 0))
                return NULL;
            if (strided) {
                if (tl_conv_int_list(a[3], st, &m, "stride") < 0) return NULL;
                if (m != n) { PyErr_SetString(PyExc_RuntimeError, "mismatch in length of strides and shape"); return NULL; }
            }
            /* validated against src's storage before self changes (tl_tensor_init) */
            rc = tl_tensor_view_init(t, src, n, sz, strided ? st : NULL, off);
        }
    }
    if (rc < 0) return tl_raise();
    Py_INCREF(self);
    return self;
}

/* The whole storage as a 1-D uint8 tensor (untyped_storage()). */
static PyObject *m_untyped_storage(PyObject *self, PyObject *u)
{
    int64_t n = (int64_t)SELF->storage->nbytes;
    TL_NEW_TENSOR(r, tl_tensor_init(&r->t, SELF->storage, 0, 1, &n, NULL, TL_UINT8));
    return (PyObject *)r;
}

/* ---- Python number conversions ---- */

static int one_element(PyObject *self, const char *what)
{
    if (tl_numel(SELF) != 1 && strcmp(what, "item") != 0) {
        PyErr_SetString(PyExc_ValueError, "only one element tensors can be converted to Python scalars");
        return -1;
    }
    if (tl_numel(SELF) != 1) {
        if (tl_numel(SELF) == 0)
            PyErr_Format(PyExc_RuntimeError, "a Tensor with 0 elements cannot be converted to Scalar");
        else
            PyErr_Format(PyExc_RuntimeError, "a Tensor with %lld elements cannot be converted to Scalar", (long long)tl_numel(SELF));
        return -1;
    }
    if (tl_dtype_is_shell(SELF->dtype) && (SELF->dtype == TL_FLOAT4_E2M1FN_X2)) {
        PyErr_Format(PyExc_RuntimeError, "%s is not supported for %s", what, tl_dtype_infos[SELF->dtype].name);
        return -1;
    }
    if (SELF->device.type == TL_DEV_META) {
        PyErr_SetString(PyExc_RuntimeError, "Tensor.item() cannot be called on meta tensors");
        return -1;
    }
    return 0;
}

/* The one element of self as a scalar, read through a host copy on a device (synchronous,
 * as torch's); -1 with the error set. */
static int one_scalar(PyObject *self, const char *what, tl_scalar *s)
{
    if (one_element(self, what) < 0) return -1;
    char buf[16];
    const char *p = tl_data(SELF);
    if (SELF->device.type != TL_DEV_CPU) {
        if (tl_backend_read_element(SELF, buf) < 0) return tl_raise_int();
        p = buf;
    }
    *s = tl_scalar_from_bytes(p, (tl_dtype)SELF->dtype);
    return 0;
}

/* One element as a Python number; uint64 above INT64_MAX stays positive. */
static PyObject *elem_to_py(const char *p, tl_dtype dt)
{
    if (dt == TL_UINT64) return PyLong_FromUnsignedLongLong(*(const uint64_t *)p);
    return tl_scalar_to_py(tl_scalar_from_bytes(p, dt));
}

static PyObject *m_item(PyObject *self, PyObject *u)
{
    if (one_element(self, "item") < 0) return NULL;
    char buf[16];
    const char *p = tl_data(SELF);
    if (SELF->device.type != TL_DEV_CPU) { /* a host copy of the element: synchronous, as torch's */
        if (tl_backend_read_element(SELF, buf) < 0) return tl_raise();
        p = buf;
    }
    return elem_to_py(p, (tl_dtype)SELF->dtype);
}

static PyObject *nb_float(PyObject *self)
{
    tl_scalar s;
    if (one_scalar(self, "float", &s) < 0) return NULL;
    if (s.kind == TL_KIND_COMPLEX) {
        if (cimag(s.v.c) != 0) {
            PyErr_SetString(PyExc_RuntimeError, "value cannot be converted to type double without overflow");
            return NULL;
        }
        return PyFloat_FromDouble(creal(s.v.c));
    }
    return PyFloat_FromDouble(s.kind == TL_KIND_FLOAT ? s.v.d : (double)s.v.i);
}

static PyObject *nb_int(PyObject *self)
{
    tl_scalar s;
    if (one_scalar(self, "int", &s) < 0) return NULL;
    if (s.kind == TL_KIND_COMPLEX) {
        if (cimag(s.v.c) != 0) {
            PyErr_SetString(PyExc_RuntimeError, "value cannot be converted to type int64_t without overflow");
            return NULL;
        }
        s = tl_scalar_double(creal(s.v.c));
    }
    if (s.kind == TL_KIND_FLOAT) {
        PyObject *f = PyFloat_FromDouble(s.v.d);
        if (!f) return NULL;
        PyObject *r = PyNumber_Long(f);
        Py_DECREF(f);
        return r;
    }
    if (SELF->dtype == TL_UINT64) return PyLong_FromUnsignedLongLong((uint64_t)s.v.i);
    return PyLong_FromLongLong(s.v.i);
}

static PyObject *nb_index(PyObject *self)
{
    if (!tl_dtype_is_integral(SELF->dtype) && SELF->dtype != TL_BOOL) {
        PyErr_SetString(PyExc_TypeError, "only integer tensors of a single element can be converted to an index");
        return NULL;
    }
    if (tl_numel(SELF) != 1) {
        PyErr_SetString(PyExc_TypeError, "only integer tensors of a single element can be converted to an index");
        return NULL;
    }
    return nb_int(self);
}

static int nb_bool(PyObject *self)
{
    int64_t n = tl_numel(SELF);
    if (n != 1) {
        PyErr_Format(PyExc_RuntimeError, n == 0 ? "Boolean value of Tensor with no values is ambiguous"
                                                : "Boolean value of Tensor with more than one value is ambiguous");
        return -1;
    }
    tl_scalar s;
    if (one_scalar(self, "bool", &s) < 0) return -1;
    switch (s.kind) {
    case TL_KIND_FLOAT: return s.v.d != 0;
    case TL_KIND_COMPLEX: return s.v.c != 0;
    default: return s.v.i != 0;
    }
}

static PyObject *m_complex(PyObject *self, PyObject *u)
{
    tl_scalar s;
    if (one_scalar(self, "complex", &s) < 0) return NULL;
    double re = s.kind == TL_KIND_COMPLEX ? creal(s.v.c) : s.kind == TL_KIND_FLOAT ? s.v.d : (double)s.v.i;
    double im = s.kind == TL_KIND_COMPLEX ? cimag(s.v.c) : 0.0;
    return PyComplex_FromDoubles(re, im);
}

/* tolist(): nested lists of Python numbers, written without intermediate tensors. */
static PyObject *tolist_rec(const tl_tensor *t, int d, const char *p)
{
    if (d == t->ndim) return elem_to_py(p, (tl_dtype)t->dtype);
    PyObject *l = PyList_New(t->sizes[d]);
    if (!l) return NULL;
    int64_t step = t->strides[d] * tl_itemsize(t);
    for (int64_t i = 0; i < t->sizes[d]; i++) {
        PyObject *v = tolist_rec(t, d + 1, p + i * step);
        if (!v) { Py_DECREF(l); return NULL; }
        PyList_SET_ITEM(l, i, v);
    }
    return l;
}

static PyObject *m_tolist(PyObject *self, PyObject *u)
{
    if (SELF->device.type != TL_DEV_CPU) return tl_py_call_on_host(self, "tolist");
    if (SELF->dtype == TL_FLOAT4_E2M1FN_X2) {
        PyErr_SetString(PyExc_RuntimeError, "tolist is not supported for float4_e2m1fn_x2");
        return NULL;
    }
    return tolist_rec(SELF, 0, tl_data(SELF));
}

static Py_ssize_t sq_length(PyObject *self)
{
    if (SELF->ndim == 0) {
        PyErr_SetString(PyExc_TypeError, "len() of a 0-d tensor");
        return -1;
    }
    return (Py_ssize_t)SELF->sizes[0];
}

/* ---- basic indexing: ints, slices, None, Ellipsis, bools ---- */

static int is_basic_index(PyObject *o)
{
    return PyLong_Check(o) || PySlice_Check(o) || o == Py_None || o == Py_Ellipsis ||
           (PyIndex_Check(o) && !tl_is_tensor(o) && strcmp(Py_TYPE(o)->tp_name, "numpy.ndarray") != 0) ||
           (tl_is_tensor(o) && TL_TENSOR(o)->ndim == 0 && tl_dtype_is_integral(TL_TENSOR(o)->dtype));
}

/* Applies a basic index to t into out; returns 1 if `key` is not a basic index (the caller
 * hands it to the advanced-indexing path), 0 on success, -1 on error. */
static int apply_basic_index(tl_tensor *out, const tl_tensor *t, PyObject *key)
{
    PyObject *single[1] = {key};
    PyObject *const *items = single;
    Py_ssize_t n = 1;
    if (PyTuple_Check(key)) {
        items = &PyTuple_GET_ITEM(key, 0);
        n = PyTuple_GET_SIZE(key);
    }
    int consumed = 0, ellipsis = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = items[i];
        if (!is_basic_index(o)) return 1;
        if (PyBool_Check(o)) return 1;
        if (o == Py_Ellipsis) {
            if (ellipsis < 0) ellipsis = (int)i; /* torch lets later ones stand for no dims */
        } else if (o != Py_None) {
            consumed++;
        }
    }
    if (consumed > t->ndim) {
        PyErr_Format(PyExc_IndexError, "too many indices for tensor of dimension %d", t->ndim);
        return -1;
    }
    /* one geometry edited item by item, one view made at the end (ops/view.h) */
    tl_geom g;
    tl_geom_of(&g, t);
    int dim = 0; /* in the view so far (torch's messages count key items instead) */
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = items[i];
        if (o == Py_Ellipsis) {
            if (i == ellipsis) dim += t->ndim - consumed;
            continue;
        } else if (o == Py_None) {
            if (tl_geom_unsqueeze(&g, dim) < 0) return tl_raise_int();
            dim++;
        } else if (PySlice_Check(o)) {
            Py_ssize_t start, stop, step;
            if (PySlice_Unpack(o, &start, &stop, &step) < 0) return -1;
            if (step <= 0) {
                PyErr_SetString(PyExc_ValueError, "step must be greater than zero");
                return -1;
            }
            PySlice_AdjustIndices(g.sizes[dim], &start, &stop, step);
            if (tl_geom_slice(&g, dim, start, stop, step) < 0) return tl_raise_int();
            dim++;
        } else {
            int64_t idx;
            if (tl_conv_int64(o, &idx, "index") < 0) return -1;
            int64_t size = g.sizes[dim];
            if (idx < -size || idx >= size) {
                PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for dimension %d with size %lld",
                             (long long)idx, (int)i, (long long)size);
                return -1;
            }
            tl_geom_select(&g, dim, idx < 0 ? idx + size : idx);
        }
    }
    return tl_geom_view(out, t, &g) < 0 ? tl_raise_int() : 0;
}

static PyObject *advanced_getitem, *advanced_setitem; /* set by the Python layer */

static PyObject *mp_subscript(PyObject *self, PyObject *key)
{
    TensorObject *r = tl_tensor_alloc();
    if (!r) return NULL;
    int rc = apply_basic_index(&r->t, SELF, key);
    if (rc == 0) return (PyObject *)r;
    Py_DECREF(r);
    if (rc < 0) return NULL;
    if (!advanced_getitem) {
        PyErr_SetString(PyExc_IndexError, "only integers, slices (`:`), ellipsis (`...`) and None are valid indices");
        return NULL;
    }
    return PyObject_CallFunctionObjArgs(advanced_getitem, self, key, NULL);
}

static int mp_ass_subscript(PyObject *self, PyObject *key, PyObject *value)
{
    if (!value) {
        PyErr_SetString(PyExc_TypeError, "Tensor does not support item deletion");
        return -1;
    }
    TensorObject *r = tl_tensor_alloc();
    if (!r) return -1;
    int rc = apply_basic_index(&r->t, SELF, key);
    if (rc == 1) {
        Py_DECREF(r);
        if (!advanced_setitem) {
            PyErr_SetString(PyExc_IndexError, "only integers, slices (`:`), ellipsis (`...`) and None are valid indices");
            return -1;
        }
        PyObject *res = PyObject_CallFunctionObjArgs(advanced_setitem, self, key, value, NULL);
        Py_XDECREF(res);
        return res ? 0 : -1;
    }
    if (rc < 0) { Py_DECREF(r); return -1; }
    if (tl_is_tensor(value) && TL_TENSOR(value)->ndim == 0 && TL_TENSOR(value)->dtype != TL_FLOAT4_E2M1FN_X2 &&
        TL_TENSOR(value)->device.type == TL_DEV_CPU) {
        /* a 0-d value fills, as torch does (so it may alias the destination) */
        rc = tl_fill_(&r->t, tl_scalar_from_bytes(tl_data(TL_TENSOR(value)), (tl_dtype)TL_TENSOR(value)->dtype));
    } else if (tl_is_tensor(value)) {
        rc = tl_copy_setitem(&r->t, TL_TENSOR(value));
    } else {
        tl_scalar s;
        if (tl_conv_scalar(value, &s) < 0) {
            Py_DECREF(r);
            if (PyErr_ExceptionMatches(PyExc_TypeError) && (PyList_Check(value) || PyTuple_Check(value) || PyObject_CheckBuffer(value))) {
                PyErr_Clear();
                PyObject *res = advanced_setitem ? PyObject_CallFunctionObjArgs(advanced_setitem, self, key, value, NULL) : NULL;
                Py_XDECREF(res);
                return res ? 0 : -1;
            }
            return -1;
        }
        rc = tl_scalar_check_fits(s, (tl_dtype)r->t.dtype);
        if (rc == 0) rc = tl_fill_(&r->t, s);
    }
    Py_DECREF(r);
    return rc < 0 ? tl_raise_int() : 0;
}

static PyObject *m_set_indexing_hooks(PyObject *mod, PyObject *args)
{
    PyObject *g, *s;
    if (!PyArg_ParseTuple(args, "OO", &g, &s)) return NULL;
    Py_XINCREF(g); Py_XSETREF(advanced_getitem, g);
    Py_XINCREF(s); Py_XSETREF(advanced_setitem, s);
    Py_RETURN_NONE;
}

static PyObject *m_set_tensor_class(PyObject *mod, PyObject *cls)
{
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &TensorBase_Type)) {
        PyErr_SetString(PyExc_TypeError, "_set_tensor_class expects a subclass of TensorBase");
        return NULL;
    }
    PyTypeObject *t = (PyTypeObject *)cls;
    /* A Python subclass gets cyclic GC by default; tensors hold no Python references
     * (the class has __slots__ = ()), and GC tracking would tax every allocation. */
    if (t->tp_dictoffset == 0 && (t->tp_flags & Py_TPFLAGS_HAVE_GC)) {
        t->tp_flags &= ~Py_TPFLAGS_HAVE_GC;
        t->tp_free = PyObject_Free;
        t->tp_traverse = NULL;
        t->tp_clear = NULL;
    }
    while (nfree) PyObject_Free(freelist[--nfree]); /* objects of the previous class */
    freelist_ok = t->tp_basicsize == (Py_ssize_t)sizeof(TensorObject) && t->tp_itemsize == 0 &&
                  !(t->tp_flags & Py_TPFLAGS_HAVE_GC) && t->tp_free == PyObject_Free;
    Py_INCREF(cls);
    tl_tensor_class = t;
    Py_RETURN_NONE;
}

static PyObject *m_requires_grad_(FASTARGS)
{
    static const char *const names[] = {"requires_grad", NULL};
    PyObject *a[1];
    if (tl_parse_args(args, nargs, kwnames, "requires_grad_", names, 0, 1, a) < 0) return NULL;
    int grad = 1;
    if (a[0] && tl_conv_flag(a[0], &grad) < 0) return NULL;
    if (grad) { refuse_grad(); return NULL; }
    Py_INCREF(self);
    return self;
}

#define FAST(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL | METH_KEYWORDS, doc}
#define NOARGS(name, fn, doc) {name, (PyCFunction)fn, METH_NOARGS, doc}

static PyMethodDef tensor_methods[] = {
    FAST("size", m_size, "size(dim=None) -> Size or int: the shape, or one dimension's size."),
    FAST("stride", m_stride, "stride(dim=None) -> tuple or int: element strides."),
    NOARGS("dim", m_dim, "Number of dimensions."),
    NOARGS("ndimension", m_dim, "Alias of dim()."),
    NOARGS("numel", m_numel, "Number of elements."),
    NOARGS("nelement", m_numel, "Alias of numel()."),
    NOARGS("storage_offset", m_storage_offset, "Offset of the first element in the storage, in elements."),
    NOARGS("data_ptr", m_data_ptr, "Address of the first element (0 when there are none)."),
    NOARGS("element_size", m_element_size, "Bytes per element."),
    NOARGS("has_names", m_has_names, "True when any dimension is named."),
    NOARGS("_storage_nbytes", m_storage_nbytes, NULL),
    NOARGS("_storage_ptr", m_storage_ptr, NULL),
    FAST("is_contiguous", m_is_contiguous, "is_contiguous(memory_format=tensorlib.contiguous_format) -> bool"),
    NOARGS("is_non_overlapping_and_dense", m_is_non_overlapping_and_dense, "True when every element is stored once with no gaps."),
    FAST("contiguous", m_contiguous, "contiguous(memory_format=tensorlib.contiguous_format): self if already laid out so, else a copy."),
    FAST("clone", m_clone, "clone(memory_format=tensorlib.preserve_format): a copy with its own storage."),
    FAST("copy_", m_copy_, "copy_(src): copies src's elements into self (broadcasting, casting); returns self."),
    FAST("fill_", m_fill_, "fill_(value): sets every element to value; returns self."),
    NOARGS("zero_", m_zero_, "Sets every element to zero; returns self."),
    FAST("to", m_to, "to(dtype) / to(device, dtype) / to(other): converts; returns self when nothing changes."),
    FAST("float", m_float, "Cast to float32."),
    FAST("double", m_double, "Cast to float64."),
    FAST("half", m_half, "Cast to float16."),
    FAST("bfloat16", m_bfloat16, "Cast to bfloat16."),
    FAST("bool", m_bool, "Cast to bool."),
    FAST("byte", m_byte, "Cast to uint8."),
    FAST("char", m_char, "Cast to int8."),
    FAST("short", m_short, "Cast to int16."),
    FAST("int", m_int, "Cast to int32."),
    FAST("long", m_long, "Cast to int64."),
    FAST("cfloat", m_cfloat, "Cast to complex64."),
    FAST("cdouble", m_cdouble, "Cast to complex128."),
    FAST("chalf", m_chalf, "Cast to complex32."),
    NOARGS("detach", m_detach, "A view of self (tensorlib has no autograd graph to detach from)."),
    NOARGS("share_memory_", m_share_memory_, "Moves the storage into shared memory (seen by processes forked later); returns self."),
    NOARGS("is_shared", m_is_shared, "True when the storage lives in shared memory (share_memory_)."),
    FAST("view", m_view, "view(*shape) or view(dtype): a view with another shape or element type."),
    FAST("reshape", m_reshape, "reshape(*shape): a view when the strides allow it, else a copy."),
    FAST("transpose", m_transpose, "transpose(dim0, dim1): a view with two dims swapped."),
    NOARGS("t", m_t, "Transpose of a tensor with <= 2 dims."),
    FAST("permute", m_permute, "permute(*dims): a view with dims reordered."),
    FAST("expand", m_expand, "expand(*sizes): a broadcast view (-1 keeps a size)."),
    FAST("squeeze", m_squeeze, "squeeze(dim=None): removes size-1 dims."),
    FAST("unsqueeze", m_unsqueeze, "unsqueeze(dim): inserts a size-1 dim."),
    FAST("narrow", m_narrow, "narrow(dim, start, length): a view of a range along dim."),
    FAST("select", m_select, "select(dim, index): a view with dim removed at index."),
    FAST("diagonal", m_diagonal, "diagonal(offset=0, dim1=0, dim2=1, *, outdim=None): a view of a diagonal as the last dim "
                                 "(named outdim; the other dims keep their names)."),
    FAST("as_strided", m_as_strided, "as_strided(size, stride, storage_offset=None): a view with explicit geometry."),
    FAST("unfold", m_unfold, "unfold(dimension, size, step): a view of sliding windows."),
    {"_set_names", (PyCFunction)m_set_names, METH_VARARGS, NULL},
    FAST("set_", m_set_, "set_(source=None, storage_offset=0, size=None, stride=None): shares source's storage."),
    {"_set_data", (PyCFunction)m_set_data, METH_O, "x.data = src: takes src's storage, geometry and dtype."},
    NOARGS("untyped_storage", m_untyped_storage, "The storage's bytes as a 1-D uint8 tensor sharing memory."),
    NOARGS("item", m_item, "The value of a one-element tensor as a Python number."),
    NOARGS("tolist", m_tolist, "Nested lists of Python numbers."),
    NOARGS("__complex__", m_complex, NULL),
    FAST("requires_grad_", m_requires_grad_, "Autograd is not available: only requires_grad_(False) is accepted."),
    {NULL},
};

PyNumberMethods tl_tensor_as_number = {
    .nb_float = nb_float,
    .nb_int = nb_int,
    .nb_index = nb_index,
    .nb_bool = nb_bool,
};
static PyMappingMethods tensor_as_mapping = {
    .mp_length = sq_length,
    .mp_subscript = mp_subscript,
    .mp_ass_subscript = mp_ass_subscript,
};
static PySequenceMethods tensor_as_sequence = {.sq_length = sq_length};

PyTypeObject TensorBase_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tensorlib._C.TensorBase",
    .tp_basicsize = sizeof(TensorObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_dealloc = (destructor)tensor_dealloc,
    .tp_new = tensor_new,
    .tp_getset = tensor_getset,
    .tp_methods = tensor_methods,
    .tp_as_number = &tl_tensor_as_number,
    .tp_as_mapping = &tensor_as_mapping,
    .tp_as_sequence = &tensor_as_sequence,
    .tp_weaklistoffset = offsetof(TensorObject, weakreflist),
    .tp_doc = "The C base of tensorlib.Tensor.",
};

static PyMethodDef tensor_module_methods[] = {
    {"_set_tensor_class", (PyCFunction)m_set_tensor_class, METH_O, NULL},
    {"_set_indexing_hooks", (PyCFunction)m_set_indexing_hooks, METH_VARARGS, NULL},
    {NULL},
};

int tl_init_tensor(PyObject *m, PyMethodDef *const *extra)
{
    TensorBase_Type.tp_as_buffer = &tl_tensor_as_buffer;
    /* the gate wraps the slots and getters first, the debug checks wrap the gated ones */
    if (tl_gate_init_type() < 0 || tl_debug_wrap_type(&TensorBase_Type) < 0 || PyType_Ready(&TensorBase_Type) < 0
        || tl_gate_type_methods() < 0)
        return -1;
    for (int k = 0; extra[k]; k++) {
        for (PyMethodDef *d = extra[k]; d->ml_name; d++) {
            /* every method goes through the layout gate but the sparse primitives themselves,
             * which pass its device check only */
            PyObject *f = extra[k] == tl_tensor_methods_sparse ? tl_gate_new_primitive(d, NULL) : tl_gate_new(d, NULL);
            if (!f || PyDict_SetItemString(TensorBase_Type.tp_dict, d->ml_name, f) < 0) return -1;
            Py_DECREF(f);
        }
    }
    /* the fast paths of a few reductions sit outside the gate: they hand sparse and device
     * tensors to their Python forms, which reach the gated primitive (python/reduce.c) */
    for (PyMethodDef *d = tl_tensor_methods_reduce_fast; d->ml_name; d++) {
        PyObject *f = PyDescr_NewMethod(&TensorBase_Type, d);
        if (!f || PyDict_SetItemString(TensorBase_Type.tp_dict, d->ml_name, f) < 0) return -1;
        Py_DECREF(f);
    }
    PyType_Modified(&TensorBase_Type);
    Py_INCREF(&TensorBase_Type);
    if (PyModule_AddObject(m, "TensorBase", (PyObject *)&TensorBase_Type) < 0 ||
        PyModule_AddIntConstant(m, "_debug_checks", tl_debug_checks) < 0) return -1;
    return PyModule_AddFunctions(m, tensor_module_methods);
}
