/* types.c - the small value types: dtype, layout, memory_format, device and Size. */
#include "python/binding.h"

#include "core/device.h"
#include "core/layout.h"

PyObject *tl_dtype_objs[TL_NUM_DTYPES];
PyObject *tl_layout_objs[TL_NUM_LAYOUTS];
PyObject *tl_memfmt_objs[TL_NUM_MEMFMTS];
tl_device tl_default_device = {TL_DEV_CPU, -1};

/* ---- dtype ---- */

static PyObject *dtype_repr(DtypeObject *self) { return PyUnicode_FromFormat("tensorlib.%s", tl_dtype_infos[self->dtype].name); }
static PyObject *dtype_reduce(DtypeObject *self, PyObject *unused) { return PyUnicode_FromString(tl_dtype_infos[self->dtype].name); }
static PyObject *dtype_is_fp(DtypeObject *self, void *c) { return PyBool_FromLong(tl_dtype_is_float(self->dtype)); }
static PyObject *dtype_is_complex(DtypeObject *self, void *c) { return PyBool_FromLong(tl_dtype_is_complex(self->dtype)); }
static PyObject *dtype_is_signed(DtypeObject *self, void *c) { return PyBool_FromLong(tl_dtype_infos[self->dtype].is_signed); }
static PyObject *dtype_itemsize(DtypeObject *self, void *c) { return PyLong_FromLong(tl_dtype_itemsize(self->dtype)); }
static PyObject *dtype_is_shell(DtypeObject *self, void *c) { return PyBool_FromLong(tl_dtype_is_shell(self->dtype)); }
static PyObject *dtype_typemeta(DtypeObject *self, void *c) { return PyUnicode_FromString(tl_dtype_typemeta(self->dtype)); }
static PyObject *dtype_cname(DtypeObject *self, void *c) { return PyUnicode_FromString(tl_dtype_infos[self->dtype].cname); }
static PyObject *dtype_numpy(DtypeObject *self, void *c) { return tl_dtype_as_numpy(self->dtype); }
static PyObject *dtype_to_real(DtypeObject *self, PyObject *u) { return tl_dtype_obj(tl_dtype_to_real(self->dtype)); }
static PyObject *dtype_to_complex(DtypeObject *self, PyObject *u)
{
    tl_dtype d = self->dtype;
    if (d != TL_FLOAT16 && d != TL_BFLOAT16 && d != TL_FLOAT32 && d != TL_FLOAT64 && !tl_dtype_is_complex(d)) {
        PyErr_Format(PyExc_RuntimeError, "Unknown Complex ScalarType for %s", tl_dtype_infos[d].cname);
        return NULL;
    }
    return tl_dtype_obj(tl_dtype_to_complex(self->dtype));
}

static PyGetSetDef dtype_getset[] = {
    {"is_floating_point", (getter)dtype_is_fp, NULL, "True for floating point dtypes", NULL},
    {"is_complex", (getter)dtype_is_complex, NULL, "True for complex dtypes", NULL},
    {"is_signed", (getter)dtype_is_signed, NULL, "True for signed dtypes", NULL},
    {"itemsize", (getter)dtype_itemsize, NULL, "bytes per element", NULL},
    {"_is_shell", (getter)dtype_is_shell, NULL, "shell dtype: no arithmetic", NULL},
    {"_typemeta", (getter)dtype_typemeta, NULL, "C++ spelling torch uses in some messages (\"long int\")", NULL},
    {"_cname", (getter)dtype_cname, NULL, "torch's ScalarType name (\"Long\")", NULL},
    {"__numpy_dtype__", (getter)dtype_numpy, NULL, "the NumPy dtype np.dtype() converts this to", NULL},
    {"dtype", (getter)dtype_numpy, NULL, "the NumPy dtype (read by np.dtype() before NumPy 2.4)", NULL},
    {NULL},
};
static PyMethodDef dtype_methods[] = {
    {"__reduce__", (PyCFunction)dtype_reduce, METH_NOARGS, NULL},
    {"to_real", (PyCFunction)dtype_to_real, METH_NOARGS, "The real dtype of a complex dtype."},
    {"to_complex", (PyCFunction)dtype_to_complex, METH_NOARGS, "The complex dtype with these components."},
    {NULL},
};
/* Attributes tensorlib's dtype lacks come from its NumPy dtype (kind, char, type, str, ...):
 * code written for NumPy (dask reads meta.dtype.kind) works with ours. Private names and
 * dtypes without a NumPy equivalent keep the AttributeError. */
static PyObject *dtype_getattro(PyObject *self, PyObject *name)
{
    PyObject *r = PyObject_GenericGetAttr(self, name);
    if (r || !PyErr_ExceptionMatches(PyExc_AttributeError)) return r;
    const char *n = PyUnicode_AsUTF8(name);
    if (!n || n[0] == '_') return NULL;
    PyObject *t, *v, *tb;
    PyErr_Fetch(&t, &v, &tb);
    PyObject *np = tl_dtype_as_numpy(((DtypeObject *)self)->dtype);
    r = np ? PyObject_GetAttr(np, name) : NULL;
    Py_XDECREF(np);
    if (r) {
        Py_XDECREF(t);
        Py_XDECREF(v);
        Py_XDECREF(tb);
        return r;
    }
    PyErr_Clear();
    PyErr_Restore(t, v, tb);
    return NULL;
}

PyTypeObject Dtype_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tensorlib.dtype",
    .tp_basicsize = sizeof(DtypeObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_repr = (reprfunc)dtype_repr,
    .tp_getattro = dtype_getattro,
    .tp_getset = dtype_getset,
    .tp_methods = dtype_methods,
    .tp_doc = "The element type of a tensor (tensorlib.float32, tensorlib.int64, ...).",
};

PyObject *tl_dtype_obj(tl_dtype d)
{
    Py_INCREF(tl_dtype_objs[d]);
    return tl_dtype_objs[d];
}

/* ---- layout and memory_format ---- */

static const char *const layout_names[] = {
#define TL_X_LN(ID, s) s,
    TL_LAYOUT_LIST(TL_X_LN)
#undef TL_X_LN
};
static const char *const memfmt_names[] = {
#define TL_X_MN(ID, s) s,
    TL_MEMFMT_LIST(TL_X_MN)
#undef TL_X_MN
};
static PyObject *layout_repr(LayoutObject *s) { return PyUnicode_FromFormat("tensorlib.%s", layout_names[s->layout]); }
static PyObject *layout_reduce(LayoutObject *s, PyObject *u) { return PyUnicode_FromString(layout_names[s->layout]); }
static PyObject *memfmt_repr(MemFmtObject *s) { return PyUnicode_FromFormat("tensorlib.%s", memfmt_names[s->fmt]); }
static PyObject *memfmt_reduce(MemFmtObject *s, PyObject *u) { return PyUnicode_FromString(memfmt_names[s->fmt]); }
static PyMethodDef layout_methods[] = {{"__reduce__", (PyCFunction)layout_reduce, METH_NOARGS, NULL}, {NULL}};
static PyMethodDef memfmt_methods[] = {{"__reduce__", (PyCFunction)memfmt_reduce, METH_NOARGS, NULL}, {NULL}};
PyTypeObject Layout_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tensorlib.layout",
    .tp_basicsize = sizeof(LayoutObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_repr = (reprfunc)layout_repr,
    .tp_methods = layout_methods,
    .tp_doc = "The memory layout of a tensor: strided or one of the sparse layouts.",
};
PyTypeObject MemFmt_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tensorlib.memory_format",
    .tp_basicsize = sizeof(MemFmtObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_repr = (reprfunc)memfmt_repr,
    .tp_methods = memfmt_methods,
    .tp_doc = "The order in which a dense tensor's elements are laid out in memory.",
};

/* ---- device ---- */

PyObject *tl_device_obj(tl_device d)
{
    DeviceObject *o = PyObject_New(DeviceObject, &Device_Type);
    if (o) o->device = d;
    return (PyObject *)o;
}

static PyObject *device_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"type", "index", NULL};
    PyObject *a = NULL, *idx = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:device", kwlist, &a, &idx)) return NULL;
    tl_device d;
    if (PyObject_TypeCheck(a, &Device_Type) && idx == Py_None) {
        Py_INCREF(a);
        return a;
    }
    if (PyLong_Check(a) && !PyBool_Check(a) && idx == Py_None) {
        long v = PyLong_AsLong(a);
        if (v == -1 && PyErr_Occurred()) return NULL;
        if (v < 0) {
            PyErr_Format(PyExc_RuntimeError, "Device index must not be negative");
            return NULL;
        }
        PyErr_SetString(PyExc_RuntimeError, "Cannot access accelerator device when none is available.");
        return NULL;
    }
    if (!PyUnicode_Check(a)) {
        PyErr_Format(PyExc_TypeError, "device() received an invalid combination of arguments - got (%s)",
                     Py_TYPE(a)->tp_name);
        return NULL;
    }
    const char *s = PyUnicode_AsUTF8(a);
    if (!s || tl_device_parse(s, &d) < 0) return s ? tl_raise() : NULL;
    /* torch's keyword form counts the index as given even when it is None */
    if (idx == Py_None && d.index >= 0 && kwds && PyDict_GetItemString(kwds, "type")) {
        PyErr_Format(PyExc_RuntimeError, "type (string) must not include an index because index was passed explicitly: %s", s);
        return NULL;
    }
    if (idx != Py_None) {
        if (!PyLong_Check(idx) || PyBool_Check(idx)) {
            PyErr_Format(PyExc_TypeError, "device(): argument 'index' must be int, not %s", Py_TYPE(idx)->tp_name);
            return NULL;
        }
        if (d.index >= 0) {
            PyErr_Format(PyExc_RuntimeError, "type (string) must not include an index because index was passed explicitly: %s", s);
            return NULL;
        }
        long v = PyLong_AsLong(idx);
        if (v == -1 && PyErr_Occurred()) return NULL;
        if (v < 0 || v > INT16_MAX) {
            PyErr_Format(PyExc_RuntimeError, "Device index must not be negative");
            return NULL;
        }
        d.index = (int16_t)v;
    }
    DeviceObject *o = (DeviceObject *)type->tp_alloc(type, 0);
    if (o) o->device = d;
    return (PyObject *)o;
}

static PyObject *device_repr(DeviceObject *self)
{
    const char *t = tl_device_type_names[self->device.type];
    if (self->device.index < 0) return PyUnicode_FromFormat("device(type='%s')", t);
    return PyUnicode_FromFormat("device(type='%s', index=%d)", t, (int)self->device.index);
}
static PyObject *device_str(DeviceObject *self)
{
    const char *t = tl_device_type_names[self->device.type];
    if (self->device.index < 0) return PyUnicode_FromString(t);
    return PyUnicode_FromFormat("%s:%d", t, (int)self->device.index);
}
static PyObject *device_type_get(DeviceObject *self, void *c) { return PyUnicode_FromString(tl_device_type_names[self->device.type]); }
static PyObject *device_index_get(DeviceObject *self, void *c)
{
    if (self->device.index < 0) Py_RETURN_NONE;
    return PyLong_FromLong(self->device.index);
}
static Py_hash_t device_hash(DeviceObject *self) { return (Py_hash_t)(self->device.type * 1000003 + self->device.index + 2); }
static PyObject *device_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!PyObject_TypeCheck(a, &Device_Type) || !PyObject_TypeCheck(b, &Device_Type) || (op != Py_EQ && op != Py_NE))
        Py_RETURN_NOTIMPLEMENTED;
    int eq = tl_device_eq(((DeviceObject *)a)->device, ((DeviceObject *)b)->device);
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}
static PyObject *device_reduce(DeviceObject *self, PyObject *u)
{
    const char *t = tl_device_type_names[self->device.type];
    if (self->device.index < 0) return Py_BuildValue("(O(s))", (PyObject *)Py_TYPE(self), t);
    return Py_BuildValue("(O(si))", (PyObject *)Py_TYPE(self), t, (int)self->device.index);
}

/* The context manager keeps a stack of previous defaults. */
static PyObject *device_stack;
static PyObject *device_enter(DeviceObject *self, PyObject *u)
{
    if (!device_stack && !(device_stack = PyList_New(0))) return NULL;
    PyObject *prev = tl_device_obj(tl_default_device);
    if (!prev || PyList_Append(device_stack, prev) < 0) { Py_XDECREF(prev); return NULL; }
    Py_DECREF(prev);
    tl_default_device = self->device;
    Py_INCREF(self);
    return (PyObject *)self;
}
static PyObject *device_exit(DeviceObject *self, PyObject *args)
{
    Py_ssize_t n = device_stack ? PyList_GET_SIZE(device_stack) : 0;
    if (n > 0) {
        tl_default_device = ((DeviceObject *)PyList_GET_ITEM(device_stack, n - 1))->device;
        if (PyList_SetSlice(device_stack, n - 1, n, NULL) < 0) return NULL;
    }
    Py_RETURN_FALSE;
}

static PyGetSetDef device_getset[] = {
    {"type", (getter)device_type_get, NULL, "device type: 'cpu', 'cuda', ...", NULL},
    {"index", (getter)device_index_get, NULL, "device ordinal, or None", NULL},
    {NULL},
};
static PyMethodDef device_methods[] = {
    {"__reduce__", (PyCFunction)device_reduce, METH_NOARGS, NULL},
    {"__enter__", (PyCFunction)device_enter, METH_NOARGS, NULL},
    {"__exit__", (PyCFunction)device_exit, METH_VARARGS, NULL},
    {NULL},
};
PyTypeObject Device_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tensorlib.device",
    .tp_basicsize = sizeof(DeviceObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = device_new,
    .tp_repr = (reprfunc)device_repr,
    .tp_str = (reprfunc)device_str,
    .tp_hash = (hashfunc)device_hash,
    .tp_richcompare = device_richcompare,
    .tp_getset = device_getset,
    .tp_methods = device_methods,
    .tp_doc = "device(type, index=None): where a tensor is or will be allocated ('cpu', 'cuda:0', ...).\n"
              "Usable as a context manager that sets the default device of factories.",
};

/* ---- Size ---- */

PyObject *tl_size_new(const int64_t *sizes, int n)
{
    PyObject *t = Size_Type.tp_alloc(&Size_Type, n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLongLong(sizes[i]);
        if (!v) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static PyObject *size_repr(PyObject *self)
{
    PyObject *lst = PySequence_List(self);
    if (!lst) return NULL;
    PyObject *r = PyUnicode_FromFormat("tensorlib.Size(%R)", lst);
    Py_DECREF(lst);
    return r;
}
static PyObject *size_numel(PyObject *self, PyObject *u)
{
    long long n = 1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(self); i++) {
        long long v = PyLong_AsLongLong(PyTuple_GET_ITEM(self, i));
        if (v == -1 && PyErr_Occurred()) return NULL;
        if (__builtin_mul_overflow(n, v, &n)) {
            PyErr_SetString(PyExc_RuntimeError, "numel: integer multiplication overflow");
            return NULL;
        }
    }
    return PyLong_FromLongLong(n);
}
static PyObject *size_subscript(PyObject *self, PyObject *key)
{
    PyObject *r = PyTuple_Type.tp_as_mapping->mp_subscript(self, key);
    if (r && PySlice_Check(key)) {
        PyObject *s = PyObject_CallOneArg((PyObject *)&Size_Type, r);
        Py_DECREF(r);
        return s;
    }
    return r;
}
static PyObject *size_reduce(PyObject *self, PyObject *u)
{
    PyObject *t = PySequence_Tuple(self);
    if (!t) return NULL;
    PyObject *r = Py_BuildValue("(O(N))", (PyObject *)&Size_Type, t);
    return r;
}
static PyObject *size_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    PyObject *seq = NULL;
    if (!PyArg_ParseTuple(args, "|O:Size", &seq)) return NULL;
    PyObject *tup = seq ? PySequence_Tuple(seq) : PyTuple_New(0);
    if (!tup) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(tup);
    PyObject *r = type->tp_alloc(type, n);
    for (Py_ssize_t i = 0; r && i < n; i++) {
        PyObject *v = PyTuple_GET_ITEM(tup, i);
        PyObject *iv = PyNumber_Index(v);
        if (!iv) {
            PyErr_Format(PyExc_TypeError, "Size() takes an iterable of 'int' (item %zd is '%s')", i, Py_TYPE(v)->tp_name);
            Py_CLEAR(r);
            break;
        }
        PyTuple_SET_ITEM(r, i, iv);
    }
    Py_DECREF(tup);
    return r;
}
static PyMappingMethods size_as_mapping = {.mp_subscript = size_subscript};
static PyMethodDef size_methods[] = {
    {"numel", (PyCFunction)size_numel, METH_NOARGS, "Number of elements of a tensor of this shape."},
    {"__reduce__", (PyCFunction)size_reduce, METH_NOARGS, NULL},
    {NULL},
};
PyTypeObject Size_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tensorlib.Size",
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_TUPLE_SUBCLASS,
    .tp_repr = size_repr,
    .tp_as_mapping = &size_as_mapping,
    .tp_methods = size_methods,
    .tp_new = size_new,
    .tp_doc = "The shape of a tensor: a tuple of ints.",
};

int tl_init_types(PyObject *m)
{
    Size_Type.tp_base = &PyTuple_Type;
    PyTypeObject *types[] = {&Dtype_Type, &Layout_Type, &MemFmt_Type, &Device_Type, &Size_Type};
    const char *names[] = {"dtype", "layout", "memory_format", "device", "Size"};
    for (int i = 0; i < 5; i++) {
        if (PyType_Ready(types[i]) < 0) return -1;
        Py_INCREF(types[i]);
        if (PyModule_AddObject(m, names[i], (PyObject *)types[i]) < 0) return -1;
    }
    for (int i = 0; i < TL_NUM_DTYPES; i++) {
        DtypeObject *o = PyObject_New(DtypeObject, &Dtype_Type);
        if (!o) return -1;
        o->dtype = (tl_dtype)i;
        tl_dtype_objs[i] = (PyObject *)o;
        Py_INCREF(o);
        if (PyModule_AddObject(m, tl_dtype_infos[i].name, (PyObject *)o) < 0) return -1;
    }
    for (int i = 0; i < TL_NUM_LAYOUTS; i++) {
        LayoutObject *o = PyObject_New(LayoutObject, &Layout_Type);
        if (!o) return -1;
        o->layout = (tl_layout)i;
        tl_layout_objs[i] = (PyObject *)o;
        Py_INCREF(o);
        if (PyModule_AddObject(m, layout_names[i], (PyObject *)o) < 0) return -1;
    }
    for (int i = 0; i < TL_NUM_MEMFMTS; i++) {
        MemFmtObject *o = PyObject_New(MemFmtObject, &MemFmt_Type);
        if (!o) return -1;
        o->fmt = (tl_memory_format)i;
        tl_memfmt_objs[i] = (PyObject *)o;
        Py_INCREF(o);
        if (PyModule_AddObject(m, memfmt_names[i], (PyObject *)o) < 0) return -1;
    }
    return 0;
}
