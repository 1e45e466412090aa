/* interop.c - zero-copy exchange with NumPy (from_numpy, numpy()) and the buffer
 * protocol (memoryview(t), tl.frombuffer). NumPy's C API is initialized on first use
 * so that `import tensorlib` does not pay for it. */
#include "python/binding.h"

#include <string.h>

#include "kernels/cast.h"

#define PY_ARRAY_UNIQUE_SYMBOL tl_ARRAY_API
#include <numpy/arrayobject.h>

static int numpy_ready;

static int ensure_numpy(void)
{
    if (numpy_ready) return 0;
    if (_import_array() < 0) return -1;
    numpy_ready = 1;
    return 0;
}

/* Storages over foreign memory hold a Python reference to the exporter. */
static void release_pyobject(void *owner)
{
    PyGILState_STATE g = PyGILState_Ensure();
    Py_DECREF((PyObject *)owner);
    PyGILState_Release(g);
}

static const char *const ml_dtypes_names[][2] = {
    {"bfloat16", "bfloat16"},
    {"float8_e4m3fn", "float8_e4m3fn"},
    {"float8_e5m2", "float8_e5m2"},
    {"float8_e4m3fnuz", "float8_e4m3fnuz"},
    {"float8_e5m2fnuz", "float8_e5m2fnuz"},
    {"float8_e8m0fnu", "float8_e8m0fnu"},
};

static int dtype_from_numpy(PyArray_Descr *d, tl_dtype *out)
{
    int num = d->type_num;
    switch (num) {
    case NPY_BOOL: *out = TL_BOOL; return 0;
    case NPY_HALF: *out = TL_FLOAT16; return 0;
    case NPY_FLOAT: *out = TL_FLOAT32; return 0;
    case NPY_DOUBLE: *out = TL_FLOAT64; return 0;
    case NPY_CFLOAT: *out = TL_COMPLEX64; return 0;
    case NPY_CDOUBLE: *out = TL_COMPLEX128; return 0;
    default: break;
    }
    if (PyTypeNum_ISINTEGER(num)) {
        int sz = (int)PyDataType_ELSIZE(d);
        int sgn = PyTypeNum_ISSIGNED(num);
        static const tl_dtype s[] = {0, TL_INT8, TL_INT16, 0, TL_INT32, 0, 0, 0, TL_INT64};
        static const tl_dtype u[] = {0, TL_UINT8, TL_UINT16, 0, TL_UINT32, 0, 0, 0, TL_UINT64};
        if (sz == 1 || sz == 2 || sz == 4 || sz == 8) {
            *out = sgn ? s[sz] : u[sz];
            return 0;
        }
    }
    if (num >= NPY_USERDEF) {
        PyObject *name = PyObject_GetAttrString((PyObject *)d, "name");
        if (name) {
            const char *n = PyUnicode_AsUTF8(name);
            for (size_t i = 0; n && i < sizeof ml_dtypes_names / sizeof *ml_dtypes_names; i++) {
                if (!strcmp(n, ml_dtypes_names[i][0])) {
                    *out = (tl_dtype)tl_dtype_from_name(ml_dtypes_names[i][1]);
                    Py_DECREF(name);
                    return 0;
                }
            }
            Py_DECREF(name);
        }
        PyErr_Clear();
    }
    PyErr_Format(PyExc_TypeError, "can't convert np.ndarray of type %S. The only supported types are: float64, float32, "
                                  "float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, uint16, uint8, "
                                  "bool, and ml_dtypes' bfloat16 and float8 types.", (PyObject *)d->typeobj);
    return -1;
}

/* The NumPy dtype for a tensor dtype; bfloat16/float8 through ml_dtypes. New reference. */
static PyArray_Descr *numpy_descr(tl_dtype dt)
{
    int num = -1;
    switch (dt) {
    case TL_BOOL: num = NPY_BOOL; break;
    case TL_UINT8: num = NPY_UINT8; break;
    case TL_INT8: num = NPY_INT8; break;
    case TL_INT16: num = NPY_INT16; break;
    case TL_INT32: num = NPY_INT32; break;
    case TL_INT64: num = NPY_INT64; break;
    case TL_UINT16: num = NPY_UINT16; break;
    case TL_UINT32: num = NPY_UINT32; break;
    case TL_UINT64: num = NPY_UINT64; break;
    case TL_FLOAT16: num = NPY_HALF; break;
    case TL_FLOAT32: num = NPY_FLOAT; break;
    case TL_FLOAT64: num = NPY_DOUBLE; break;
    case TL_COMPLEX64: num = NPY_CFLOAT; break;
    case TL_COMPLEX128: num = NPY_CDOUBLE; break;
    default: break;
    }
    if (num >= 0) return PyArray_DescrFromType(num);
    for (size_t i = 0; i < sizeof ml_dtypes_names / sizeof *ml_dtypes_names; i++) {
        if (strcmp(tl_dtype_infos[dt].name, ml_dtypes_names[i][1])) continue;
        PyObject *mod = PyImport_ImportModule("ml_dtypes");
        if (!mod) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "Got unsupported ScalarType %s: converting it to NumPy needs the ml_dtypes "
                                          "package (pip install ml_dtypes)", tl_dtype_infos[dt].cname);
            return NULL;
        }
        PyObject *ty = PyObject_GetAttrString(mod, ml_dtypes_names[i][0]);
        Py_DECREF(mod);
        if (!ty) return NULL;
        PyArray_Descr *d = NULL;
        int ok = PyArray_DescrConverter(ty, &d);
        Py_DECREF(ty);
        return ok ? d : NULL;
    }
    PyErr_Format(PyExc_TypeError, "Got unsupported ScalarType %s", tl_dtype_infos[dt].cname);
    return NULL;
}

/* dtype.__numpy_dtype__ (and .dtype, which NumPy < 2.4 reads): what np.dtype(tl.float32)
 * returns, so that libraries that normalize dtypes with np.dtype() (dask) accept ours. Dtypes
 * NumPy lacks come from ml_dtypes; the rest (complex32, float4_e2m1fn_x2) raise TypeError. */
PyObject *tl_dtype_as_numpy(tl_dtype dt)
{
    if (ensure_numpy() < 0) return NULL;
    PyArray_Descr *d = numpy_descr(dt);
    if (d || !PyErr_ExceptionMatches(PyExc_TypeError)) return (PyObject *)d;
    PyObject *t, *v, *tb;
    PyErr_Fetch(&t, &v, &tb);
    PyErr_NormalizeException(&t, &v, &tb);
    PyErr_Format(PyExc_TypeError, "tensorlib.%s has no NumPy dtype (%S)", tl_dtype_infos[dt].name, v);
    Py_XDECREF(t);
    Py_XDECREF(v);
    Py_XDECREF(tb);
    return NULL;
}

static PyObject *from_numpy(PyObject *m, PyObject *arr)
{
    if (ensure_numpy() < 0) return NULL;
    if (!PyArray_Check(arr)) {
        PyErr_Format(PyExc_TypeError, "expected np.ndarray (got %s)", Py_TYPE(arr)->tp_name);
        return NULL;
    }
    PyArrayObject *a = (PyArrayObject *)arr;
    tl_dtype dt;
    if (dtype_from_numpy(PyArray_DESCR(a), &dt) < 0) return NULL;
    if (PyArray_ISBYTESWAPPED(a)) {
        PyErr_SetString(PyExc_ValueError, "given numpy array has byte order different from the native byte order. "
                                          "Conversion between byte orders is currently not supported.");
        return NULL;
    }
    int nd = PyArray_NDIM(a);
    if (nd > TL_MAX_DIMS) {
        PyErr_Format(PyExc_RuntimeError, "tensorlib supports at most %d dimensions", TL_MAX_DIMS);
        return NULL;
    }
    int64_t sz[TL_MAX_DIMS], st[TL_MAX_DIMS];
    int isz = tl_dtype_itemsize(dt);
    for (int i = 0; i < nd; i++) {
        npy_intp s = PyArray_STRIDES(a)[i];
        sz[i] = PyArray_DIMS(a)[i];
        if (s < 0 && sz[i] > 1) {
            PyErr_SetString(PyExc_ValueError, "At least one stride in the given numpy array is negative, and tensors with "
                                              "negative strides are not currently supported. (You can probably work around "
                                              "this by making a copy of your array  with array.copy().) ");
            return NULL;
        }
        if (s % isz) {
            PyErr_SetString(PyExc_ValueError, "given numpy array strides not a multiple of the element byte size. Copy the "
                                              "numpy array to reallocate the memory.");
            return NULL;
        }
        st[i] = sz[i] > 1 ? s / isz : (s >= 0 ? s / isz : 0);
    }
    int64_t lo, hi;
    if (tl_extent_checked(sz, st, nd, &lo, &hi) < 0) return tl_raise();
    size_t nbytes = (size_t)(hi + 1) * isz;
    int readonly = !PyArray_ISWRITEABLE(a);
    Py_INCREF(arr);
    tl_storage *s = tl_storage_new_foreign(PyArray_DATA(a), nbytes, (tl_device){TL_DEV_CPU, -1}, arr, release_pyobject,
                                           readonly);
    if (!s) { Py_DECREF(arr); return tl_raise(); }
    TensorObject *r = tl_tensor_alloc();
    if (!r) { tl_storage_release(s); return NULL; }
    int rc = tl_tensor_init(&r->t, s, 0, nd, sz, st, dt);
    tl_storage_release(s);
    if (rc < 0) { Py_DECREF(r); return tl_raise(); }
    return (PyObject *)r;
}

/* An exact ndarray operand of a Python operator (`t + a`, `t += a`, `t == a`) as a tensor:
 * the array's memory when from_numpy can share it, a private native-order copy otherwise
 * (negative strides, foreign byte order, misalignment). Returns 0 with *out NULL when `o`
 * is no ndarray or has a dtype tensorlib lacks (object, str: NumPy keeps those), 1 with a
 * new reference in *out, -1 on error. Subclasses (np.matrix, masked arrays) are left to
 * NumPy, whose ufuncs reach Tensor.__array_ufunc__. */
int tl_ndarray_operand(PyObject *o, PyObject **out)
{
    *out = NULL;
    if (strcmp(Py_TYPE(o)->tp_name, "numpy.ndarray") != 0) return 0;
    if (ensure_numpy() < 0) return -1;
    if (!PyArray_CheckExact(o)) return 0;
    PyArrayObject *a = (PyArrayObject *)o;
    tl_dtype dt;
    if (dtype_from_numpy(PyArray_DESCR(a), &dt) < 0) { PyErr_Clear(); return 0; }
    int shareable = PyArray_ISNOTSWAPPED(a) && PyArray_ISALIGNED(a);
    for (int i = 0; shareable && i < PyArray_NDIM(a); i++)
        if (PyArray_STRIDES(a)[i] < 0 && PyArray_DIMS(a)[i] > 1) shareable = 0;
    if (shareable) {
        *out = from_numpy(NULL, o);
        return *out ? 1 : -1;
    }
    PyArray_Descr *d = PyArray_DescrNewByteorder(PyArray_DESCR(a), NPY_NATIVE);
    if (!d) return -1;
    PyObject *copy = PyArray_FromArray(a, d, NPY_ARRAY_CARRAY | NPY_ARRAY_ENSURECOPY); /* steals d */
    if (!copy) return -1;
    *out = from_numpy(NULL, copy);
    Py_DECREF(copy);
    return *out ? 1 : -1;
}

/* The base object of arrays and buffers we export: keeps the storage alive and counts
 * the export so resize_ can refuse while it lives. */
typedef struct { PyObject_HEAD tl_storage *storage; } ExportObject;
static void export_dealloc(ExportObject *self)
{
    self->storage->exports--;
    tl_storage_release(self->storage);
    PyObject_Free(self);
}
static PyTypeObject Export_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tensorlib._C._StorageExport",
    .tp_basicsize = sizeof(ExportObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)export_dealloc,
};
static PyObject *new_export(tl_storage *s)
{
    if (!Export_Type.tp_flags || !(Export_Type.tp_flags & Py_TPFLAGS_READY))
        if (PyType_Ready(&Export_Type) < 0) return NULL;
    ExportObject *e = PyObject_New(ExportObject, &Export_Type);
    if (!e) return NULL;
    e->storage = tl_storage_retain(s);
    s->exports++;
    return (PyObject *)e;
}

static PyObject *t_numpy(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"force", NULL};
    PyObject *a[1];
    if (tl_parse_args(args, nargs, kwnames, "numpy", names, 0, 1, a) < 0) return NULL;
    if (ensure_numpy() < 0) return NULL;
    const tl_tensor *t = TL_TENSOR(self);
    if (t->device.type != TL_DEV_CPU) {
        PyErr_Format(PyExc_TypeError, "can't convert %s device type tensor to numpy. Use Tensor.cpu() to copy the tensor to "
                                      "host memory first.", tl_device_type_names[t->device.type]);
        return NULL;
    }
    if (t->layout != TL_LAYOUT_STRIDED) {
        PyErr_SetString(PyExc_TypeError, "can't convert a sparse tensor to numpy: call to_dense() first");
        return NULL;
    }
    PyArray_Descr *d = numpy_descr((tl_dtype)t->dtype);
    if (!d) return NULL;
    npy_intp dims[TL_MAX_DIMS], strides[TL_MAX_DIMS];
    int isz = tl_itemsize(t);
    for (int i = 0; i < t->ndim; i++) {
        dims[i] = t->sizes[i];
        strides[i] = t->strides[i] * isz;
    }
    int flags = t->storage->readonly ? 0 : NPY_ARRAY_WRITEABLE;
    PyObject *arr = PyArray_NewFromDescr(&PyArray_Type, d, t->ndim, dims, strides, tl_data(t), flags, NULL);
    if (!arr) return NULL;
    PyObject *base = new_export(t->storage);
    if (!base || PyArray_SetBaseObject((PyArrayObject *)arr, base) < 0) {
        Py_XDECREF(base);
        Py_DECREF(arr);
        return NULL;
    }
    return arr;
}

/* ---- buffer protocol ---- */

static int t_getbuffer(PyObject *self, Py_buffer *view, int flags)
{
    const tl_tensor *t = TL_TENSOR(self);
    const char *fmt = tl_dtype_infos[t->dtype].buffer_format;
    view->obj = NULL;
    if (t->device.type != TL_DEV_CPU || t->layout != TL_LAYOUT_STRIDED) {
        PyErr_SetString(PyExc_BufferError, "only dense CPU tensors export the buffer protocol");
        return -1;
    }
    if (!fmt[0]) {
        if (flags & PyBUF_FORMAT) {
            PyErr_Format(PyExc_BufferError, "dtype %s has no buffer-protocol format code", tl_dtype_infos[t->dtype].name);
            return -1;
        }
    }
    if ((flags & PyBUF_WRITABLE) == PyBUF_WRITABLE && t->storage->readonly) {
        PyErr_SetString(PyExc_BufferError, "tensor shares memory with a read-only buffer");
        return -1;
    }
    bool contiguous = tl_is_contiguous(t);
    if ((flags & PyBUF_STRIDES) != PyBUF_STRIDES && !contiguous) {
        PyErr_SetString(PyExc_BufferError, "tensor is not contiguous: request a strided buffer");
        return -1;
    }
    if ((flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS && !contiguous) {
        PyErr_SetString(PyExc_BufferError, "tensor is not C-contiguous");
        return -1;
    }
    if ((flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS && t->ndim > 1) {
        PyErr_SetString(PyExc_BufferError, "tensor is not Fortran-contiguous");
        return -1;
    }
    if ((flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS && !contiguous) {
        PyErr_SetString(PyExc_BufferError, "tensor is not contiguous");
        return -1;
    }
    Py_ssize_t *shape = PyMem_Malloc(sizeof(Py_ssize_t) * 2 * (t->ndim + 1));
    if (!shape) { tl_no_memory(); return -1; }
    int isz = tl_itemsize(t);
    for (int i = 0; i < t->ndim; i++) {
        shape[i] = t->sizes[i];
        shape[t->ndim + 1 + i] = t->strides[i] * isz;
    }
    view->buf = tl_data(t);
    view->len = tl_numel(t) * isz;
    view->itemsize = isz;
    view->readonly = t->storage->readonly;
    view->format = (flags & PyBUF_FORMAT) ? (char *)(fmt[0] ? fmt : "B") : NULL;
    view->ndim = t->ndim;
    view->shape = (flags & PyBUF_ND) == PyBUF_ND ? shape : NULL;
    view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? shape + t->ndim + 1 : NULL;
    view->suboffsets = NULL;
    view->internal = shape;
    view->obj = self;
    Py_INCREF(self);
    t->storage->exports++;
    return 0;
}

static void t_releasebuffer(PyObject *self, Py_buffer *view)
{
    TL_TENSOR(self)->storage->exports--;
    PyMem_Free(view->internal);
}

PyBufferProcs tl_tensor_as_buffer = {(getbufferproc)t_getbuffer, (releasebufferproc)t_releasebuffer};

/* frombuffer(buffer, dtype, count=-1, offset=0): a 1-D tensor sharing a buffer's memory. */
static PyObject *frombuffer(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"buffer", "dtype", "count", "offset", "requires_grad", NULL};
    PyObject *a[5];
    tl_dtype dt = TL_FLOAT32;
    int64_t count = -1, offset = 0;
    if (tl_parse_args(args, nargs, kwnames, "frombuffer", names, 1, 1, a) < 0) return NULL;
    if (!a[1]) {
        PyErr_SetString(PyExc_TypeError, "frombuffer() missing required keyword argument 'dtype'");
        return NULL;
    }
    if (tl_conv_dtype(a[1], &dt) < 0) return NULL;
    if ((a[2] && tl_conv_int64(a[2], &count, "count") < 0) || (a[3] && tl_conv_int64(a[3], &offset, "offset") < 0)) return NULL;
    if (!PyObject_CheckBuffer(a[0])) {
        PyErr_SetString(PyExc_ValueError, "object does not implement Python buffer protocol.");
        return NULL;
    }
    /* The memoryview holds the export for as long as the storage lives. */
    PyObject *mv = PyMemoryView_FromObject(a[0]);
    if (!mv) return NULL;
    Py_buffer *mvb = PyMemoryView_GET_BUFFER(mv);
    int writable = !mvb->readonly;
    int isz = tl_dtype_itemsize(dt);
    Py_ssize_t len = mvb->len;
    if (!PyBuffer_IsContiguous(mvb, 'C')) {
        Py_DECREF(mv);
        PyErr_SetString(PyExc_ValueError, "frombuffer: the buffer must be contiguous");
        return NULL;
    }
    if (offset < 0 || (len > 0 && offset > len - 1) || (len == 0 && offset > 0)) {
        Py_DECREF(mv);
        PyErr_Format(PyExc_ValueError, "offset (%lld bytes) must be non-negative and no greater than buffer length (%zd bytes) minus 1",
                     (long long)offset, len);
        return NULL;
    }
    if (count < 0 && (len - offset) % isz) {
        Py_DECREF(mv);
        PyErr_Format(PyExc_ValueError, "buffer length (%zd bytes) after offset (%lld bytes) must be a multiple of element size (%d)",
                     len - (Py_ssize_t)offset, (long long)offset, isz);
        return NULL;
    }
    if (count < 0) count = (len - offset) / isz;
    if (count == 0) {
        Py_DECREF(mv);
        PyErr_Format(PyExc_ValueError, "both buffer length (%zd) and count (%lld) must not be 0", len, (long long)count);
        return NULL;
    }
    if (offset + count * isz > len) {
        Py_DECREF(mv);
        PyErr_Format(PyExc_ValueError, "requested buffer length (%lld * %d bytes) after offset (%lld bytes) must not be greater "
                                       "than actual buffer length (%zd bytes)", (long long)count, isz, (long long)offset, len);
        return NULL;
    }
    tl_storage *s = tl_storage_new_foreign((char *)mvb->buf + offset, count * isz, (tl_device){TL_DEV_CPU, -1}, mv,
                                           release_pyobject, !writable);
    if (!s) { Py_DECREF(mv); return tl_raise(); }
    TensorObject *r = tl_tensor_alloc();
    if (!r) { tl_storage_release(s); return NULL; }
    int rc = tl_tensor_init(&r->t, s, 0, 1, &count, NULL, dt);
    tl_storage_release(s);
    if (rc < 0) { Py_DECREF(r); return tl_raise(); }
    return (PyObject *)r;
}

PyMethodDef tl_module_methods_interop[] = {
    {"from_numpy", (PyCFunction)from_numpy, METH_O,
     "from_numpy(ndarray) -> Tensor\n\nA tensor sharing the array's memory; writes show through both ways."},
    {"frombuffer", (PyCFunction)(void (*)(void))frombuffer, METH_FASTCALL | METH_KEYWORDS,
     "frombuffer(buffer, *, dtype, count=-1, offset=0) -> Tensor\n\nA 1-D tensor sharing a buffer-protocol object's memory."},
    {NULL},
};

PyMethodDef tl_tensor_methods_interop[] = {
    {"numpy", (PyCFunction)(void (*)(void))t_numpy, METH_FASTCALL | METH_KEYWORDS,
     "numpy(force=False) -> ndarray sharing this tensor's memory."},
    {NULL},
};
