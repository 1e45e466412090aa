/* args.c - argument parsing and conversion of Python values to core values. */
#include "python/binding.h"

#include <string.h>

#include "kernels/cast.h"
#include "ops/copy.h"

int tl_parse_args(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, const char *fname,
                  const char *const *names, int nrequired, int npositional, PyObject **out)
{
    int n = 0;
    while (names[n]) n++;
    for (int i = 0; i < n; i++) out[i] = NULL;
    if (nargs > npositional) {
        PyErr_Format(PyExc_TypeError, "%s() takes %d positional argument%s but %zd were given", fname, npositional,
                     npositional == 1 ? "" : "s", nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) out[i] = args[i];
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        const char *key = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
        if (!key) return -1;
        int found = -1;
        for (int i = 0; i < n; i++)
            if (strcmp(names[i], key) == 0) { found = i; break; }
        if (found < 0) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%s'", fname, key);
            return -1;
        }
        if (out[found]) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", fname, key);
            return -1;
        }
        out[found] = args[nargs + k];
    }
    for (int i = 0; i < nrequired; i++) {
        if (!out[i]) {
            PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s' (pos %d)", fname, names[i], i + 1);
            return -1;
        }
    }
    return 0;
}

int tl_conv_dtype(PyObject *o, tl_dtype *out)
{
    if (!o || o == Py_None) return 0;
    if (PyObject_TypeCheck(o, &Dtype_Type)) {
        *out = ((DtypeObject *)o)->dtype;
        return 0;
    }
    if (PyType_Check(o)) { /* Python's float/int/bool/complex as dtype, like torch */
        if (o == (PyObject *)&PyFloat_Type) { *out = TL_FLOAT64; return 0; }
        if (o == (PyObject *)&PyBool_Type) { *out = TL_BOOL; return 0; }
        if (o == (PyObject *)&PyLong_Type) { *out = TL_INT64; return 0; }
        if (o == (PyObject *)&PyComplex_Type) { *out = TL_COMPLEX128; return 0; }
    }
    PyErr_Format(PyExc_TypeError, "expected a tensorlib.dtype, got '%s'", Py_TYPE(o)->tp_name);
    return -1;
}

int tl_conv_device(PyObject *o, tl_device *out)
{
    if (!o || o == Py_None) return 0;
    if (PyObject_TypeCheck(o, &Device_Type)) {
        *out = ((DeviceObject *)o)->device;
        return 0;
    }
    if (PyUnicode_Check(o)) {
        const char *s = PyUnicode_AsUTF8(o);
        if (!s) return -1;
        if (tl_device_parse(s, out) < 0) return tl_raise_int();
        return 0;
    }
    if (PyLong_Check(o) && !PyBool_Check(o)) {
        long v = PyLong_AsLong(o);
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v < 0) {
            PyErr_SetString(PyExc_RuntimeError, "Device index must not be negative");
            return -1;
        }
        PyErr_SetString(PyExc_RuntimeError, "Cannot access accelerator device when none is available.");
        return -1;
    }
    PyErr_Format(PyExc_TypeError, "expected a tensorlib.device, a string or an int, got '%s'", Py_TYPE(o)->tp_name);
    return -1;
}

int tl_conv_memfmt(PyObject *o, tl_memory_format *out)
{
    if (!o || o == Py_None) return 0;
    if (PyObject_TypeCheck(o, &MemFmt_Type)) {
        *out = ((MemFmtObject *)o)->fmt;
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "expected a tensorlib.memory_format, got '%s'", Py_TYPE(o)->tp_name);
    return -1;
}

int tl_conv_int64(PyObject *o, int64_t *out, const char *what)
{
    if (PyLong_CheckExact(o)) {
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) {
            PyErr_SetString(PyExc_ValueError, "Overflow when unpacking long long");
            return -1;
        }
        if (v == -1 && PyErr_Occurred()) return -1;
        *out = v;
        return 0;
    }
    if (PyFloat_Check(o) || PyComplex_Check(o) || PyUnicode_Check(o) || o == Py_None ||
        (tl_is_tensor(o) && (TL_TENSOR(o)->ndim != 0 || !tl_dtype_is_integral(TL_TENSOR(o)->dtype)))) {
        PyErr_Format(PyExc_TypeError, "%s must be int, not %s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    PyObject *i = PyNumber_Index(o);
    if (!i) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s must be int, not %s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(i, &overflow);
    Py_DECREF(i);
    if (overflow) {
        PyErr_SetString(PyExc_ValueError, "Overflow when unpacking long long");
        return -1;
    }
    *out = v;
    return 0;
}

/* torch's parser reports an int list element beyond 64 bits as a TypeError. */
static int list_item_overflow(const char *what, Py_ssize_t pos)
{
    if (!PyErr_ExceptionMatches(PyExc_ValueError)) return -1;
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "argument '%s' failed to unpack the object at pos %zd with error "
                                  "\"Overflow when unpacking long long\"", what, pos);
    return -1;
}

int tl_conv_int_list(PyObject *o, int64_t *out, int *n, const char *what)
{
    if (PyLong_Check(o) || (tl_is_tensor(o) && TL_TENSOR(o)->ndim == 0)) {
        *n = 1;
        return tl_conv_int64(o, out, what) < 0 ? list_item_overflow(what, 1) : 0;
    }
    if (!PyTuple_Check(o) && !PyList_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be tuple of ints, not %s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    Py_ssize_t len = PySequence_Fast_GET_SIZE(o);
    if (len > TL_MAX_DIMS) {
        PyErr_Format(PyExc_RuntimeError, "tensorlib supports at most %d dimensions, got %zd", TL_MAX_DIMS, len);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(o);
    for (Py_ssize_t i = 0; i < len; i++)
        if (tl_conv_int64(items[i], &out[i], what) < 0) return list_item_overflow(what, i + 1);
    *n = (int)len;
    return 0;
}

int tl_conv_size_args(PyObject *const *args, Py_ssize_t nargs, int64_t *sizes, int *n, const char *fname)
{
    if (nargs == 1 && (PyTuple_Check(args[0]) || PyList_Check(args[0])))
        return tl_conv_int_list(args[0], sizes, n, "size");
    if (nargs > TL_MAX_DIMS) {
        PyErr_Format(PyExc_RuntimeError, "tensorlib supports at most %d dimensions, got %zd", TL_MAX_DIMS, nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        if (PyBool_Check(args[i])) {
            PyErr_Format(PyExc_TypeError, "%s(): argument 'size' (position 1) must be tuple of ints, not bool", fname);
            return -1;
        }
        if (tl_conv_int64(args[i], &sizes[i], "size") < 0) {
            if (PyErr_ExceptionMatches(PyExc_ValueError)) {
                PyErr_Clear();
                PyErr_Format(PyExc_TypeError, "%s(): argument 'size' failed to unpack the object at pos %zd with error "
                                              "\"Overflow when unpacking long long\"", fname, i + 1);
            } else if (PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Clear();
                PyErr_Format(PyExc_TypeError, "%s(): argument 'size' must be tuple of ints, but found element of type %s at pos %zd",
                             fname, Py_TYPE(args[i])->tp_name, i);
            }
            return -1;
        }
    }
    *n = (int)nargs;
    return 0;
}

int tl_conv_dim(PyObject *o, const tl_tensor *t, int64_t *out)
{
    if (PyUnicode_Check(o)) {
        Py_ssize_t len;
        const char *s = PyUnicode_AsUTF8AndSize(o, &len);
        if (!s) return -1;
        int32_t id = tl_name_intern(s, len);
        if (id < 0) return tl_raise_int();
        for (int i = 0; t->names && i < t->ndim; i++)
            if (t->names[i] == id) { *out = i; return 0; }
        PyObject *tup = tl_names_tuple(t), *names = tup ? PySequence_List(tup) : NULL;
        Py_XDECREF(tup);
        if (!names) return -1;
        PyErr_Format(PyExc_RuntimeError, "Name '%s' not found in Tensor%S.", s, names);  /* Tensor['N', None] */
        Py_DECREF(names);
        return -1;
    }
    return tl_conv_int64(o, out, "dim");
}

int tl_conv_pyint(PyObject *o, tl_scalar *out)
{
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow) {
        /* [2**63, 2**64) is a uint64 scalar in torch; beyond, its parser's OverflowError */
        unsigned long long u = PyLong_AsUnsignedLongLong(o);
        if (u == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            PyErr_SetString(PyExc_OverflowError, overflow < 0 ? "can't convert negative int to unsigned"
                                                              : "int too big to convert");
            return -1;
        }
        v = (long long)u;
    }
    *out = tl_scalar_int(v);
    return 0;
}

int tl_conv_scalar(PyObject *o, tl_scalar *out)
{
    if (PyBool_Check(o)) { *out = tl_scalar_bool(o == Py_True); return 0; }
    if (PyLong_Check(o)) return tl_conv_pyint(o, out);
    if (PyFloat_Check(o)) { *out = tl_scalar_double(PyFloat_AS_DOUBLE(o)); return 0; }
    if (PyComplex_Check(o)) {
        Py_complex c = PyComplex_AsCComplex(o);
        *out = tl_scalar_complex(CMPLX(c.real, c.imag));
        return 0;
    }
    if (tl_is_tensor(o) && tl_numel(TL_TENSOR(o)) == 1) {
        const tl_tensor *t = TL_TENSOR(o);
        if (t->device.type != TL_DEV_CPU) { /* item() reads a host copy, or raises torch's error (meta) */
            PyObject *v = PyObject_CallMethod(o, "item", NULL);
            int rc = v ? tl_conv_scalar(v, out) : -1;
            Py_XDECREF(v);
            return rc;
        }
        *out = tl_scalar_from_bytes(tl_data(t), (tl_dtype)t->dtype);
        return 0;
    }
    /* NumPy scalars (and anything with .item() giving a Python number) */
    if (PyNumber_Check(o) && PyObject_HasAttrString(o, "dtype")) {
        PyObject *item = PyObject_CallMethod(o, "item", NULL);
        if (item && (PyBool_Check(item) || PyLong_Check(item) || PyFloat_Check(item) || PyComplex_Check(item))) {
            int rc = tl_conv_scalar(item, out);
            Py_DECREF(item);
            return rc;
        }
        Py_XDECREF(item);
        PyErr_Clear();
    }
    PyErr_Format(PyExc_TypeError, "expected a number, got '%s'", Py_TYPE(o)->tp_name);
    return -1;
}

int tl_conv_flag(PyObject *o, int *out)
{
    int r = PyObject_IsTrue(o);
    if (r < 0) return -1;
    *out = r;
    return 0;
}

PyObject *tl_scalar_to_py(tl_scalar s)
{
    switch (s.kind) {
    case TL_KIND_BOOL: return PyBool_FromLong((long)s.v.i);
    case TL_KIND_INT: return PyLong_FromLongLong(s.v.i);
    case TL_KIND_FLOAT: return PyFloat_FromDouble(s.v.d);
    default: return PyComplex_FromDoubles(creal(s.v.c), cimag(s.v.c));
    }
}

/* Raises msg (a format with one %R) with the names printed as torch prints them: a list. */
static int names_error(PyObject *seq, const char *msg)
{
    PyObject *l = PySequence_List(seq);
    if (l) PyErr_Format(PyExc_RuntimeError, msg, l);
    Py_XDECREF(l);
    Py_DECREF(seq);
    return -1;
}

int tl_conv_name(PyObject *o, int32_t *id)
{
    PyObject *one = PyTuple_Pack(1, o);
    if (!one) return -1;
    int rc = tl_conv_names(one, 1, id);
    Py_DECREF(one);
    return rc;
}

int tl_conv_names(PyObject *o, int n, int32_t *ids)
{
    PyObject *seq = PySequence_Fast(o, "names must be a sequence of str or None");
    if (!seq) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len != n) {
        char msg[160];
        snprintf(msg, sizeof msg, "Number of names (%zd) and number of dimensions in tensor (%d) do not match. "
                                  "Attempted to create a tensor with names %%R", len, n);
        return names_error(seq, msg);
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *it = PySequence_Fast_GET_ITEM(seq, i);
        if (it == Py_None) { ids[i] = TL_NAME_NONE; continue; }
        if (!PyUnicode_Check(it)) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_TypeError, "names must contain str or None, got %s", Py_TYPE(it)->tp_name);
            return -1;
        }
        Py_ssize_t sl;
        const char *s = PyUnicode_AsUTF8AndSize(it, &sl);
        if (!s) { Py_DECREF(seq); return -1; }
        if (sl == 1 && s[0] == '*') {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_RuntimeError, "Invalid name: '*' is a wildcard and cannot be used as a dimension name");
            return -1;
        }
        int32_t id = tl_name_intern(s, sl);
        if (id < 0) { Py_DECREF(seq); return tl_raise_int(); }
        for (Py_ssize_t j = 0; j < i; j++) {
            if (ids[j] == id) return names_error(seq, "Cannot construct a tensor with duplicate names. Got names: %R.");
        }
        ids[i] = id;
    }
    Py_DECREF(seq);
    return 0;
}

PyObject *tl_names_tuple(const tl_tensor *t)
{
    PyObject *r = PyTuple_New(t->ndim);
    if (!r) return NULL;
    for (int i = 0; i < t->ndim; i++) {
        PyObject *v;
        if (t->names && t->names[i]) v = PyUnicode_FromString(tl_name_str(t->names[i]));
        else { v = Py_None; Py_INCREF(v); }
        if (!v) { Py_DECREF(r); return NULL; }
        PyTuple_SET_ITEM(r, i, v);
    }
    return r;
}

int tl_warn_out_resized(const char *old_shape, const char *new_shape)
{
    return PyErr_WarnFormat(PyExc_UserWarning, 1,
                            "An output with one or more elements was resized since it had shape %s, which does not match "
                            "the required output shape %s. This behavior is deprecated, and in a future PyTorch release "
                            "outputs will not be resized unless they have zero elements. You can explicitly reuse an out "
                            "tensor t by resizing it, inplace, to zero elements with t.resize_(0).",
                            old_shape, new_shape);
}

PyObject *tl_finish_out(TensorObject *r, PyObject *out, const char *fname, bool exact_dtype)
{
    if (!out || out == Py_None) return (PyObject *)r;
    if (!tl_is_tensor(out)) {
        Py_DECREF(r);
        return PyErr_Format(PyExc_TypeError, "%s(): argument 'out' must be Tensor, not %s", fname, Py_TYPE(out)->tp_name);
    }
    char old[256], want[256];
    tl_tensor *o = TL_TENSOR(out);
    tl_shape_str(o->sizes, o->ndim, old, sizeof old);
    tl_shape_str(r->t.sizes, r->t.ndim, want, sizeof want);
    int resized;
    int rc = tl_write_out(o, &r->t, exact_dtype, &resized);
    Py_DECREF(r);
    if (rc < 0) return tl_raise();
    if (resized && tl_warn_out_resized(old, want) < 0) return NULL;
    Py_INCREF(out);
    return out;
}
