/* factory.c - module-level factories: empty, zeros, ones, full, empty_strided and the
 * primitives the Python layer composes arange/linspace/logspace/eye from. */
#include "python/binding.h"

#include <string.h>

#include "backend/backend.h"
#include "named/unify.h"
#include "core/promote.h"
#include "kernels/cast.h"
#include "ops/copy.h"
#include "ops/factory.h"
#include "ops/view.h"

typedef struct {
    tl_dtype dtype;
    tl_device device;
    tl_memory_format fmt;
    PyObject *names;
    int pin;
} factory_opts;

/* Parses the keyword options every factory shares. `kw` holds dtype, layout, device,
 * pin_memory, requires_grad, names, memory_format in that order (NULL when absent). */
static int parse_opts(PyObject **kw, factory_opts *o, tl_dtype default_dtype)
{
    o->dtype = default_dtype;
    o->device = tl_default_device;
    o->fmt = TL_MEMFMT_CONTIGUOUS;
    o->names = kw[5];
    if (tl_conv_dtype(kw[0], &o->dtype) < 0) return -1;
    if (kw[1] && kw[1] != Py_None && kw[1] != tl_layout_objs[TL_LAYOUT_STRIDED]) {
        PyErr_SetString(PyExc_RuntimeError, "factories create strided tensors; use the sparse constructors for other layouts");
        return -1;
    }
    if (tl_conv_device(kw[2], &o->device) < 0) return -1;
    int grad = 0;
    o->pin = 0;
    if (kw[3] && tl_conv_flag(kw[3], &o->pin) < 0) return -1;
    if (kw[4] && tl_conv_flag(kw[4], &grad) < 0) return -1;
    if (grad) {
        PyErr_SetString(PyExc_RuntimeError, "tensorlib has no autograd yet: requires_grad=True is not supported");
        return -1;
    }
    if (tl_conv_memfmt(kw[6], &o->fmt) < 0) return -1;
    if (o->fmt == TL_MEMFMT_PRESERVE) {
        PyErr_SetString(PyExc_RuntimeError, "preserve_format is only meaningful for *_like factories and clone");
        return -1;
    }
    if (o->device.type == TL_DEV_CPU) o->device.index = -1; /* CPU tensors carry no index */
    return tl_py_device_ready(&o->device);
}

/* Allocates per opts (memory format, names). */
static TensorObject *alloc_with(const int64_t *sz, int n, factory_opts *o, bool zero)
{
    TensorObject *r = tl_tensor_alloc();
    if (!r) return NULL;
    int rc;
    if (o->fmt == TL_MEMFMT_CONTIGUOUS) {
        rc = tl_tensor_empty(&r->t, n, sz, o->dtype, o->device, zero);
    } else {
        tl_tensor proto = {0};
        proto.sizes = (int64_t *)sz;
        proto.ndim = n;
        proto.device = o->device;
        rc = tl_check_shape(sz, n);
        if (rc == 0) rc = tl_tensor_empty_like(&r->t, &proto, o->dtype, o->fmt);
        if (rc == 0 && zero) rc = tl_fill_(&r->t, tl_scalar_int(0));
    }
    if (rc < 0) { Py_DECREF(r); return (TensorObject *)tl_raise(); }
    if (o->names && o->names != Py_None) {
        int32_t ids[TL_MAX_DIMS];
        if (tl_conv_names(o->names, n, ids) < 0 || tl_tensor_set_names(&r->t, ids) < 0) {
            Py_DECREF(r);
            return PyErr_Occurred() ? NULL : (TensorObject *)tl_raise();
        }
    }
    return r;
}

/* pin_memory=True: the CPU result moves to pinned memory (torch's error without a pinned
 * allocator); meta results ignore it, as torch's. Steals r. */
static PyObject *pinned_if_asked(TensorObject *r, const factory_opts *o)
{
    if (!r || !o->pin || r->t.device.type == TL_DEV_META) return (PyObject *)r;
    if (r->t.device.type != TL_DEV_CPU) {
        Py_DECREF(r);
        PyErr_SetString(PyExc_RuntimeError, "Only dense CPU tensors can be pinned");
        return NULL;
    }
    if (tl_py_pinned_ready() < 0) {
        Py_DECREF(r);
        return NULL;
    }
    TensorObject *p = tl_tensor_alloc();
    if (p && tl_backend_pin(&p->t, &r->t, true) < 0) {
        Py_DECREF(p);
        p = (TensorObject *)tl_raise();
    }
    Py_DECREF(r);
    return (PyObject *)p;
}

static const char *const kw_names[] = {"dtype", "layout", "device", "pin_memory", "requires_grad", "names",
                                       "memory_format", "out", "size", "fill_value", NULL};

/* Splits (args, kwnames) into the positional size and the keyword options. */
static int split_factory_args(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                              int npos_extra, PyObject **kw, int64_t *sz, int *n)
{
    for (int i = 0; i < 10; i++) kw[i] = NULL;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        const char *key = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
        int found = -1;
        if (!key) return -1;
        for (int i = 0; kw_names[i]; i++)
            if (!strcmp(kw_names[i], key)) found = i;
        if (found < 0 || (found == 9 && !npos_extra)) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%s'", fname, key);
            return -1;
        }
        kw[found] = args[nargs + k];
    }
    if (kw[7] == Py_None) kw[7] = NULL;
    if (kw[7] && !tl_is_tensor(kw[7])) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'out' must be Tensor, not %s", fname, Py_TYPE(kw[7])->tp_name);
        return -1;
    }
    Py_ssize_t npos = nargs;
    if (npos_extra && !kw[9]) {
        if (nargs < 2) {
            PyErr_Format(PyExc_TypeError, "%s() missing required arguments 'size' and 'fill_value'", fname);
            return -1;
        }
        kw[9] = args[nargs - 1];
        npos = nargs - 1;
    }
    if (kw[8]) {
        if (npos) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument 'size'", fname);
            return -1;
        }
        return tl_conv_size_args(&kw[8], 1, sz, n, fname);
    }
    if (npos == 0 && !npos_extra) {
        PyErr_Format(PyExc_TypeError, "%s() missing 1 required positional argument: 'size'", fname);
        return -1;
    }
    return tl_conv_size_args(args, npos, sz, n, fname);
}

/* out= of empty/zeros/ones/full: a given dtype or device type must be out's (torch's
 * messages); the result is made on out's device. */
static int out_options(PyObject *out, factory_opts *o, bool device_given)
{
    const tl_tensor *t = TL_TENSOR(out);
    if (o->dtype != (tl_dtype)t->dtype) {
        PyErr_Format(PyExc_RuntimeError, "dtype %s does not match dtype of out parameter (%s)",
                     tl_dtype_infos[o->dtype].cname, tl_dtype_infos[t->dtype].cname);
        return -1;
    }
    if (device_given && o->device.type != t->device.type) {
        PyErr_Format(PyExc_RuntimeError, "device type %s does not match device type of out parameter (%s)",
                     tl_device_type_names[o->device.type], tl_device_type_names[t->device.type]);
        return -1;
    }
    o->device = t->device;
    return 0;
}

/* out resized to the size when it differs (as torch's resize_: no warning; names checked),
 * its values left as they are. */
static PyObject *resize_out(PyObject *out, const int64_t *sz, int n)
{
    tl_tensor *t = TL_TENSOR(out);
    if (tl_check_writable(t) < 0) return tl_raise();
    bool same = t->ndim == n;
    for (int i = 0; same && i < n; i++) same = t->sizes[i] == sz[i];
    if (!same && (tl_names_check_out(t, n, sz, NULL) < 0 ||
                  tl_tensor_empty(t, n, sz, (tl_dtype)t->dtype, t->device, false) < 0))
        return tl_raise();
    Py_INCREF(out);
    return out;
}

static PyObject *make_filled(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int mode)
{
    PyObject *kw[10];
    int64_t sz[TL_MAX_DIMS];
    int n;
    factory_opts o;
    if (split_factory_args(fname, args, nargs, kwnames, mode == 3, kw, sz, &n) < 0) return NULL;
    for (int i = 0; mode == 1 && i < n; i++)
        if (sz[i] < 0) { /* zeros has a message of its own in torch */
            PyErr_SetString(PyExc_RuntimeError, "zeros: Dimension size must be non-negative.");
            return NULL;
        }
    tl_scalar fill = tl_scalar_int(mode == 2);
    tl_dtype def = tl_default_float();
    if (mode == 3) {
        if (tl_conv_scalar(kw[9], &fill) < 0) return NULL;
        /* full() infers its dtype from the fill value like torch */
        def = fill.kind == TL_KIND_BOOL ? TL_BOOL : fill.kind == TL_KIND_INT ? TL_INT64
            : fill.kind == TL_KIND_COMPLEX ? tl_dtype_to_complex(tl_default_float()) : tl_default_float();
    }
    PyObject *out = kw[7];
    if (out && (!kw[0] || kw[0] == Py_None)) def = (tl_dtype)TL_TENSOR(out)->dtype;
    if (parse_opts(kw, &o, def) < 0) return NULL;
    if (out && out_options(out, &o, kw[2] && kw[2] != Py_None) < 0) return NULL;
    if (mode == 3 && !tl_is_tensor(kw[9]) && tl_scalar_check_fits(fill, o.dtype) < 0) return tl_raise();
    if (out) { /* as torch's *.out: out resized when its shape differs, then filled in place */
        if (o.names && o.names != Py_None) {
            PyErr_Format(PyExc_TypeError, "%s(): names= and out= cannot be used together", fname);
            return NULL;
        }
        PyObject *res = resize_out(out, sz, n);
        if (res && mode != 0 && tl_fill_(TL_TENSOR(res), fill) < 0) {
            Py_DECREF(res);
            return tl_raise();
        }
        return res;
    }
    TensorObject *r = alloc_with(sz, n, &o, mode == 1);
    if (!r) return NULL;
    if ((mode == 2 || mode == 3) && tl_fill_(&r->t, fill) < 0) { Py_DECREF(r); return tl_raise(); }
    return pinned_if_asked(r, &o);
}

static PyObject *f_empty(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *k) { return make_filled("empty", a, n, k, 0); }
static PyObject *f_zeros(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *k) { return make_filled("zeros", a, n, k, 1); }
static PyObject *f_ones(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *k) { return make_filled("ones", a, n, k, 2); }
static PyObject *f_full(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *k) { return make_filled("full", a, n, k, 3); }

static PyObject *f_empty_strided(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"size", "stride", "dtype", "layout", "device", "pin_memory", "requires_grad", NULL};
    PyObject *a[7], *kw[7] = {0};
    int64_t sz[TL_MAX_DIMS], st[TL_MAX_DIMS];
    int n, m2;
    factory_opts o;
    if (tl_parse_args(args, nargs, kwnames, "empty_strided", names, 2, 2, a) < 0) return NULL;
    if (tl_conv_int_list(a[0], sz, &n, "size") < 0 || tl_conv_int_list(a[1], st, &m2, "stride") < 0) return NULL;
    if (tl_check_shape(sz, n) < 0) return tl_raise();
    if (n != m2) {
        PyErr_Format(PyExc_RuntimeError, "dimensionality of sizes (%d) must match dimensionality of strides (%d)", n, m2);
        return NULL;
    }
    kw[0] = a[2]; kw[1] = a[3]; kw[2] = a[4]; kw[3] = a[5]; kw[4] = a[6];
    if (parse_opts(kw, &o, tl_default_float()) < 0) return NULL;
    TL_NEW_TENSOR(r, tl_tensor_empty_strided(&r->t, n, sz, st, o.dtype, o.device));
    return pinned_if_asked(r, &o);
}

/* The device of the filled factories (_arange, _linspace, _eye): the CPU (None) or meta, where
 * the fill functions only shape the result. */
static int host_or_meta(PyObject *o, tl_device *d)
{
    *d = (tl_device){TL_DEV_CPU, -1};
    if (o == Py_None) return 0;
    if (tl_conv_device(o, d) < 0) return -1;
    if (d->type == TL_DEV_CPU) d->index = -1;
    else if (d->type != TL_DEV_META) {
        /* the Python factories refuse other devices before they call (tensorlib/_factories.py) */
        PyErr_SetString(PyExc_ValueError, "the filled factories' primitives take the CPU or meta device only");
        return -1;
    }
    return 0;
}

/* _arange(start, end, step, dtype[, device]) -> 1-D tensor (dtype already resolved by Python). */
static PyObject *f_arange(PyObject *m, PyObject *args)
{
    PyObject *s, *e, *st, *dt, *dv = Py_None;
    tl_scalar a, b, c;
    tl_dtype dtype;
    tl_device dev;
    int64_t n;
    if (!PyArg_ParseTuple(args, "OOOO|O", &s, &e, &st, &dt, &dv)) return NULL;
    if (tl_conv_scalar(s, &a) < 0 || tl_conv_scalar(e, &b) < 0 || tl_conv_scalar(st, &c) < 0 || tl_conv_dtype(dt, &dtype) < 0 ||
        host_or_meta(dv, &dev) < 0)
        return NULL;
    if (tl_arange_numel(a, b, c, dtype, &n) < 0) return tl_raise();
    TL_NEW_TENSOR(r, tl_tensor_empty(&r->t, 1, &n, dtype, dev, false));
    if (tl_arange_fill(&r->t, a, c) < 0) { Py_DECREF(r); return tl_raise(); }
    return (PyObject *)r;
}

/* _linspace(start, end, steps, dtype, base) -> 1-D tensor; base 0 means linspace. */
static PyObject *f_linspace(PyObject *m, PyObject *args)
{
    PyObject *s, *e, *dt, *dv = Py_None;
    long long steps;
    double base;
    tl_scalar a, b;
    tl_dtype dtype;
    tl_device dev;
    if (!PyArg_ParseTuple(args, "OOLOd|O", &s, &e, &steps, &dt, &base, &dv)) return NULL;
    if (tl_conv_scalar(s, &a) < 0 || tl_conv_scalar(e, &b) < 0 || tl_conv_dtype(dt, &dtype) < 0 ||
        host_or_meta(dv, &dev) < 0)
        return NULL;
    if (steps < 0) {
        PyErr_SetString(PyExc_RuntimeError, "number of steps must be non-negative");
        return NULL;
    }
    int64_t n = steps;
    TL_NEW_TENSOR(r, tl_tensor_empty(&r->t, 1, &n, dtype, dev, false));
    if (tl_linspace_fill(&r->t, a, b, base) < 0) { Py_DECREF(r); return tl_raise(); }
    return (PyObject *)r;
}

static PyObject *f_eye(PyObject *m, PyObject *args)
{
    long long n, k;
    PyObject *dt, *dv = Py_None;
    tl_dtype dtype;
    tl_device dev;
    if (!PyArg_ParseTuple(args, "LLO|O", &n, &k, &dt, &dv) || tl_conv_dtype(dt, &dtype) < 0 || host_or_meta(dv, &dev) < 0)
        return NULL;
    if (n < 0 || k < 0) {
        PyErr_Format(PyExc_RuntimeError, "%s must be greater or equal to 0, got %lld", n < 0 ? "n" : "m", n < 0 ? n : k);
        return NULL;
    }
    int64_t sz[2] = {n, k};
    TL_NEW_TENSOR(r, tl_tensor_empty(&r->t, 2, sz, dtype, dev, false));
    if (tl_eye_fill(&r->t) < 0) { Py_DECREF(r); return tl_raise(); }
    return (PyObject *)r;
}

/* _empty_like(t, dtype, memory_format) */
static PyObject *f_empty_like(PyObject *m, PyObject *args)
{
    PyObject *src, *dt, *mf;
    if (!PyArg_ParseTuple(args, "O!OO", &TensorBase_Type, &src, &dt, &mf)) return NULL;
    tl_dtype dtype = (tl_dtype)TL_TENSOR(src)->dtype;
    tl_memory_format fmt = TL_MEMFMT_PRESERVE;
    if (tl_conv_dtype(dt, &dtype) < 0 || tl_conv_memfmt(mf, &fmt) < 0) return NULL;
    TL_NEW_TENSOR(r, tl_tensor_empty_like(&r->t, TL_TENSOR(src), dtype, fmt));
    if (tl_tensor_copy_names(&r->t, TL_TENSOR(src)) < 0) { Py_DECREF(r); return tl_raise(); }
    return (PyObject *)r;
}

static PyObject *f_get_default_dtype(PyObject *m, PyObject *u) { return tl_dtype_obj(tl_default_float()); }
static PyObject *f_set_default_dtype(PyObject *m, PyObject *d)
{
    tl_dtype dt;
    if (!PyObject_TypeCheck(d, &Dtype_Type)) {
        PyErr_Format(PyExc_TypeError, "set_default_dtype(): argument 'd' must be tensorlib.dtype, not %s", Py_TYPE(d)->tp_name);
        return NULL;
    }
    dt = ((DtypeObject *)d)->dtype;
    if (dt != TL_FLOAT32 && dt != TL_FLOAT64 && dt != TL_FLOAT16 && dt != TL_BFLOAT16) {
        PyErr_Format(PyExc_TypeError, "only floating-point types are supported as the default type");
        return NULL;
    }
    tl_set_default_float(dt);
    Py_RETURN_NONE;
}
static PyObject *f_get_default_device(PyObject *m, PyObject *u) { return tl_device_obj(tl_default_device); }
static PyObject *f_set_default_device(PyObject *m, PyObject *d)
{
    tl_device dev = {TL_DEV_CPU, -1};
    if (d != Py_None && tl_conv_device(d, &dev) < 0) return NULL;
    tl_default_device = dev;
    Py_RETURN_NONE;
}

#define FAST(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL | METH_KEYWORDS, doc}
PyMethodDef tl_module_methods_factory[] = {
    FAST("empty", f_empty, "empty(*size, dtype=None, device=None, names=None, memory_format=contiguous_format) -> Tensor\n\n"
                           "A tensor with uninitialized elements."),
    FAST("zeros", f_zeros, "zeros(*size, dtype=None, device=None, names=None, memory_format=contiguous_format) -> Tensor"),
    FAST("ones", f_ones, "ones(*size, dtype=None, device=None, names=None, memory_format=contiguous_format) -> Tensor"),
    FAST("full", f_full, "full(size, fill_value, dtype=None, device=None, names=None) -> Tensor\n\n"
                         "The dtype is inferred from fill_value when not given (bool, int64, default float, complex)."),
    FAST("empty_strided", f_empty_strided, "empty_strided(size, stride, dtype=None, device=None) -> Tensor"),
    {"_arange", f_arange, METH_VARARGS, NULL},
    {"_linspace", f_linspace, METH_VARARGS, NULL},
    {"_eye", f_eye, METH_VARARGS, NULL},
    {"_empty_like", f_empty_like, METH_VARARGS, NULL},
    {"get_default_dtype", f_get_default_dtype, METH_NOARGS, "The dtype of Python floats and of float factories (float32 initially)."},
    {"set_default_dtype", f_set_default_dtype, METH_O, "Sets the default floating point dtype (float32, float64, float16 or bfloat16)."},
    {"_get_default_device", f_get_default_device, METH_NOARGS, NULL},
    {"set_default_device", f_set_default_device, METH_O, "Sets the device factories use when none is given."},
    {NULL},
};
