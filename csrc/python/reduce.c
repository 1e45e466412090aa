/* reduce.c (binding) - positional primitives for reductions, scans, sorting and
 * searching. tensorlib/_reduce.py gives them torch's signatures (keywords, overloads,
 * out=, return types); here arguments are only converted and the core called. */
#include "python/binding.h"

#include "ops/reduce.h"
#include "ops/sort.h"
#include "kernels/reduce_kernels.h"

static int get_tensor(PyObject *o, const char *fname, tl_tensor **t)
{
    if (!tl_is_tensor(o)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'input' must be Tensor, not %s", fname, Py_TYPE(o)->tp_name);
        return -1;
    }
    *t = TL_TENSOR(o);
    return 0;
}

static int check_nargs(Py_ssize_t nargs, Py_ssize_t want, const char *fname)
{
    if (nargs == want) return 0;
    PyErr_Format(PyExc_TypeError, "%s expects %zd arguments, got %zd", fname, want, nargs);
    return -1;
}

/* dims: None (every dim), an int or name, or a sequence of them (empty = every dim). */
static int conv_dims(PyObject *o, const tl_tensor *t, tl_red_op op, int dtype, uint64_t *mask, bool *full)
{
    int64_t dims[TL_MAX_DIMS];
    int n = 0;
    *full = o == Py_None;
    if (o != Py_None) {
        if (PyTuple_Check(o) || PyList_Check(o)) {
            Py_ssize_t len = PySequence_Fast_GET_SIZE(o);
            if (len > TL_MAX_DIMS) {
                PyErr_SetString(PyExc_RuntimeError, "too many dims");
                return -1;
            }
            for (Py_ssize_t i = 0; i < len; i++)
                if (tl_conv_dim(PySequence_Fast_GET_ITEM(o, i), t, &dims[n++]) < 0) return -1;
            *full = len == 0;
        } else if (tl_conv_dim(o, t, &dims[n++]) < 0) {
            return -1;
        }
    }
    return tl_reduce_mask(t, op, dtype, dims, n, mask) < 0 ? tl_raise_int() : 0;
}

static int conv_opt_dtype(PyObject *o, int *out)
{
    *out = -1;
    if (o == Py_None) return 0;
    tl_dtype d = TL_FLOAT32;
    if (tl_conv_dtype(o, &d) < 0) return -1;
    *out = d;
    return 0;
}

static PyObject *pair(TensorObject *a, TensorObject *b) { return PyTuple_Pack(2, (PyObject *)a, (PyObject *)b); }

/* x reduced by op over dims (None, an int or name, or a sequence), keepdim and dtype as given. */
static PyObject *reduce_call(tl_tensor *x, tl_red_op op, PyObject *dims, PyObject *keepdim_o, PyObject *dtype_o,
                             double param)
{
    uint64_t mask;
    bool full;
    int dtype, keepdim;
    if (conv_opt_dtype(dtype_o, &dtype) < 0 || conv_dims(dims, x, op, dtype, &mask, &full) < 0 ||
        tl_conv_flag(keepdim_o, &keepdim) < 0)
        return NULL;
    TL_NEW_TENSOR(r, tl_reduce(&r->t, x, op, mask, full, keepdim, dtype, param));
    return (PyObject *)r;
}

/* _reduce(x, op, dims, keepdim, dtype, param) */
static PyObject *m_reduce(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    tl_tensor *x;
    if (check_nargs(nargs, 6, "_reduce") < 0 || get_tensor(args[0], "reduce", &x) < 0) return NULL;
    long op = PyLong_AsLong(args[1]);
    if (op == -1 && PyErr_Occurred()) return NULL;
    if (op < 0 || op >= TL_RED_NUM) return PyErr_Format(PyExc_ValueError, "bad reduction op %ld", op);
    double param = PyFloat_AsDouble(args[5]);
    if (param == -1 && PyErr_Occurred()) return NULL;
    return reduce_call(x, (tl_red_op)op, args[2], args[3], args[4], param);
}

/* ---- Tensor.sum / nansum / mean / nanmean: their common calls without a Python frame ----
 * x.sum(), x.mean(1), x.sum(dim=(0, 1), keepdim=True, dtype=tl.float64) on a strided CPU
 * tensor run here. Every other form (out=, NumPy's axis=/keepdims=, dims given by name,
 * arguments of other types, named tensors, sparse and device tensors)
 * calls the Python method tensorlib/_reduce.py registers through _set_reduce_methods, which
 * holds torch's whole set of rules; this path only skips its frames for the calls whose
 * answer it gives the same way (tests/test_reduce_fast.py compares the two). */
enum { FAST_SUM, FAST_NANSUM, FAST_MEAN, FAST_NANMEAN, FAST_N };
static const struct { const char *name; tl_red_op op; } fast_ops[FAST_N] = {
    [FAST_SUM] = {"sum", TL_RED_SUM},
    [FAST_NANSUM] = {"nansum", TL_RED_NANSUM},
    [FAST_MEAN] = {"mean", TL_RED_MEAN},
    [FAST_NANMEAN] = {"nanmean", TL_RED_NANMEAN},
};
static PyObject *fast_fallback[FAST_N];

static bool plain_dims(PyObject *o)
{
    if (o == Py_None || PyLong_CheckExact(o)) return true;
    if (!PyTuple_CheckExact(o) && !PyList_CheckExact(o)) return false;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(o); i++)
        if (!PyLong_CheckExact(PySequence_Fast_GET_ITEM(o, i))) return false;
    return true;
}

/* The Python method, called with self in front of the arguments as given. */
static PyObject *fast_fall(int k, PyObject *self, PyObject *const *args, Py_ssize_t n, PyObject *kwnames)
{
    if (!fast_fallback[k]) return PyErr_Format(PyExc_RuntimeError, "Tensor.%s is not ready", fast_ops[k].name);
    Py_ssize_t total = n + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
    PyObject *small[8], **a = total < 8 ? small : PyMem_Malloc(sizeof(PyObject *) * (size_t)(total + 1));
    if (!a) return PyErr_NoMemory();
    a[0] = self;
    for (Py_ssize_t i = 0; i < total; i++) a[i + 1] = args[i];
    PyObject *r = PyObject_Vectorcall(fast_fallback[k], a, (size_t)(n + 1), kwnames);
    if (a != small) PyMem_Free(a);
    return r;
}

static PyObject *fast_reduce(int k, PyObject *self, PyObject *const *args, Py_ssize_t n, PyObject *kwnames)
{
    tl_tensor *x = TL_TENSOR(self);
    PyObject *v[3] = {Py_None, Py_False, Py_None}; /* dim, keepdim, dtype */
    /* named tensors take the Python form, the one place that knows each op's name rule */
    bool plain = n <= 2 && x->layout == TL_LAYOUT_STRIDED && x->device.type == TL_DEV_CPU && !x->names;
    for (Py_ssize_t i = 0; plain && i < n; i++) v[i] = args[i];
    for (Py_ssize_t i = 0; plain && kwnames && i < PyTuple_GET_SIZE(kwnames); i++) {
        PyObject *kw = PyTuple_GET_ITEM(kwnames, i);
        int j = PyUnicode_CompareWithASCIIString(kw, "dim") == 0 ? 0 : PyUnicode_CompareWithASCIIString(kw, "keepdim")
                == 0 ? 1 : PyUnicode_CompareWithASCIIString(kw, "dtype") == 0 ? 2 : -1;
        plain = j >= n; /* a known keyword, not also given by position */
        if (plain) v[j] = args[n + i];
    }
    plain = plain && plain_dims(v[0]) && PyBool_Check(v[1]) && (v[2] == Py_None || Py_TYPE(v[2]) == &Dtype_Type);
    if (!plain) return fast_fall(k, self, args, n, kwnames);
    return reduce_call(x, fast_ops[k].op, v[0], v[1], v[2], 0.0);
}

#define FAST_METHOD(k, fn)                                                                                 \
    static PyObject *fn(PyObject *self, PyObject *const *args, Py_ssize_t n, PyObject *kwnames)           \
    {                                                                                                      \
        return fast_reduce(k, self, args, n, kwnames);                                                     \
    }
FAST_METHOD(FAST_SUM, t_sum)
FAST_METHOD(FAST_NANSUM, t_nansum)
FAST_METHOD(FAST_MEAN, t_mean)
FAST_METHOD(FAST_NANMEAN, t_nanmean)
#undef FAST_METHOD

/* _set_reduce_methods({name: python_method}): the fallbacks above, once at import. */
static PyObject *m_set_reduce_methods(PyObject *m, PyObject *d)
{
    if (!PyDict_Check(d)) return PyErr_Format(PyExc_TypeError, "_set_reduce_methods expects a dict");
    for (int k = 0; k < FAST_N; k++) {
        PyObject *f = PyDict_GetItemString(d, fast_ops[k].name);
        if (!f) return PyErr_Format(PyExc_KeyError, "%s", fast_ops[k].name);
        Py_XSETREF(fast_fallback[k], Py_NewRef(f));
    }
    Py_RETURN_NONE;
}

/* Installed on TensorBase outside the gate (tl_init_tensor): sparse and device tensors
 * take the fallback, which reaches the gated primitive. */
PyMethodDef tl_tensor_methods_reduce_fast[] = {
    {"sum", (PyCFunction)(void (*)(void))t_sum, METH_FASTCALL | METH_KEYWORDS, NULL},
    {"nansum", (PyCFunction)(void (*)(void))t_nansum, METH_FASTCALL | METH_KEYWORDS, NULL},
    {"mean", (PyCFunction)(void (*)(void))t_mean, METH_FASTCALL | METH_KEYWORDS, NULL},
    {"nanmean", (PyCFunction)(void (*)(void))t_nanmean, METH_FASTCALL | METH_KEYWORDS, NULL},
    {NULL},
};

/* _reduce_index(x, op, dim, keepdim, k) -> (values, indices) */
static PyObject *m_reduce_index(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    tl_tensor *x;
    int64_t dim, k;
    if (check_nargs(nargs, 5, "_reduce_index") < 0 || get_tensor(args[0], "reduce", &x) < 0) return NULL;
    long op = PyLong_AsLong(args[1]);
    if ((op == -1 && PyErr_Occurred()) || tl_conv_dim(args[2], x, &dim) < 0 || tl_conv_int64(args[4], &k, "k") < 0)
        return NULL;
    if (op < TL_IDX_MAX || op > TL_IDX_MODE) return PyErr_Format(PyExc_ValueError, "bad op %ld", op);
    int keepdim;
    if (tl_conv_flag(args[3], &keepdim) < 0) return NULL;
    TensorObject *v = tl_tensor_alloc(), *i = tl_tensor_alloc();
    PyObject *res = NULL;
    if (v && i) {
        if (tl_reduce_index(&v->t, &i->t, x, (tl_idx_op)op, dim, keepdim, k) < 0) tl_raise();
        else res = pair(v, i);
    }
    Py_XDECREF(v);
    Py_XDECREF(i);
    return res;
}

/* _sort(x, dim, descending) / _topk(x, k, dim, largest) -> (values, indices) */
static PyObject *m_sort(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    tl_tensor *x;
    int64_t dim;
    int desc;
    if (check_nargs(nargs, 3, "_sort") < 0 || get_tensor(args[0], "sort", &x) < 0 || tl_conv_dim(args[1], x, &dim) < 0 ||
        tl_conv_flag(args[2], &desc) < 0)
        return NULL;
    TensorObject *v = tl_tensor_alloc(), *i = tl_tensor_alloc();
    PyObject *res = NULL;
    if (v && i) {
        const tl_tensor *ts[1] = {x};
        tl_nogil g;
        tl_nogil_begin(&g, ts, 1);
        int rc = tl_sort(&v->t, &i->t, ts[0], dim, desc);
        tl_nogil_end(&g);
        if (rc < 0) tl_raise();
        else res = pair(v, i);
    }
    Py_XDECREF(v);
    Py_XDECREF(i);
    return res;
}

static PyObject *m_topk(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    tl_tensor *x;
    int64_t dim, k;
    int largest, sorted;
    if (check_nargs(nargs, 5, "_topk") < 0 || get_tensor(args[0], "topk", &x) < 0 || tl_conv_int64(args[1], &k, "k") < 0 ||
        tl_conv_dim(args[2], x, &dim) < 0 || tl_conv_flag(args[3], &largest) < 0 || tl_conv_flag(args[4], &sorted) < 0)
        return NULL;
    TensorObject *v = tl_tensor_alloc(), *i = tl_tensor_alloc();
    PyObject *res = NULL;
    if (v && i) {
        if (tl_topk(&v->t, &i->t, x, k, dim, largest, sorted) < 0) tl_raise();
        else res = pair(v, i);
    }
    Py_XDECREF(v);
    Py_XDECREF(i);
    return res;
}

/* _scan(x, op, dim, dtype) -> tensor (cumsum, cumprod) or (values, indices) */
static PyObject *m_scan(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    tl_tensor *x;
    int64_t dim;
    int dtype;
    if (check_nargs(nargs, 4, "_scan") < 0 || get_tensor(args[0], "scan", &x) < 0) return NULL;
    long op = PyLong_AsLong(args[1]);
    if ((op == -1 && PyErr_Occurred()) || tl_conv_dim(args[2], x, &dim) < 0 || conv_opt_dtype(args[3], &dtype) < 0)
        return NULL;
    if (op < TL_SCAN_CUMSUM || op > TL_SCAN_LOGCUMSUMEXP) return PyErr_Format(PyExc_ValueError, "bad op %ld", op);
    bool two = op == TL_SCAN_CUMMAX || op == TL_SCAN_CUMMIN;
    TensorObject *v = tl_tensor_alloc(), *i = two ? tl_tensor_alloc() : NULL;
    PyObject *res = NULL;
    if (v && (i || !two)) {
        if (tl_scan(&v->t, i ? &i->t : NULL, x, (tl_scan_op)op, dim, dtype) < 0) tl_raise();
        else if (two) res = pair(v, i);
        else res = (PyObject *)v, Py_INCREF(v);
    }
    Py_XDECREF(v);
    Py_XDECREF(i);
    return res;
}

/* _unique(x, return_inverse, return_counts) -> (values, inverse or None, counts or None) */
static PyObject *m_unique(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    tl_tensor *x;
    int wi, wc;
    if (check_nargs(nargs, 3, "_unique") < 0 || get_tensor(args[0], "unique", &x) < 0 || tl_conv_flag(args[1], &wi) < 0 ||
        tl_conv_flag(args[2], &wc) < 0)
        return NULL;
    TensorObject *v = tl_tensor_alloc(), *i = wi ? tl_tensor_alloc() : NULL, *c = wc ? tl_tensor_alloc() : NULL;
    PyObject *res = NULL;
    if (v && (i || !wi) && (c || !wc)) {
        if (tl_unique(&v->t, i ? &i->t : NULL, c ? &c->t : NULL, x, wi, wc) < 0) tl_raise();
        else res = PyTuple_Pack(3, (PyObject *)v, i ? (PyObject *)i : Py_None, c ? (PyObject *)c : Py_None);
    }
    Py_XDECREF(v);
    Py_XDECREF(i);
    Py_XDECREF(c);
    return res;
}

/* _searchsorted(sorted, values, sorter or None, right, out_int32) */
static PyObject *m_searchsorted(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    tl_tensor *s, *v, *so = NULL;
    if (check_nargs(nargs, 5, "_searchsorted") < 0 || get_tensor(args[0], "searchsorted", &s) < 0 ||
        get_tensor(args[1], "searchsorted", &v) < 0)
        return NULL;
    int right, i32;
    if ((args[2] != Py_None && get_tensor(args[2], "searchsorted", &so) < 0) || tl_conv_flag(args[3], &right) < 0 ||
        tl_conv_flag(args[4], &i32) < 0)
        return NULL;
    TL_NEW_TENSOR(r, tl_searchsorted(&r->t, s, v, so, right, i32));
    return (PyObject *)r;
}

/* _histc(x, bins, min, max) */
static PyObject *m_histc(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    tl_tensor *x;
    int64_t bins;
    if (check_nargs(nargs, 4, "_histc") < 0 || get_tensor(args[0], "histc", &x) < 0 || tl_conv_int64(args[1], &bins, "bins") < 0)
        return NULL;
    double lo = PyFloat_AsDouble(args[2]), hi = PyFloat_AsDouble(args[3]);
    if (PyErr_Occurred()) return NULL;
    TL_NEW_TENSOR(r, tl_histc(&r->t, x, bins, lo, hi));
    return (PyObject *)r;
}

#define FC(f) (PyCFunction)(void (*)(void))(f)
/* _reduce_op_codes() -> {"SUM": code, ..., "IDX_MAX": code, ..., "CUMSUM": code, ...} */
static PyObject *m_reduce_op_codes(PyObject *m, PyObject *u)
{
    PyObject *d = PyDict_New();
    if (!d) return NULL;
#define PUT(key, code)                                                         \
    {                                                                          \
        PyObject *v = PyLong_FromLong(code);                                   \
        if (!v || PyDict_SetItemString(d, key, v) < 0) {                       \
            Py_XDECREF(v);                                                     \
            Py_DECREF(d);                                                      \
            return NULL;                                                       \
        }                                                                      \
        Py_DECREF(v);                                                          \
    }
#define RED(code, name) PUT(#code, TL_RED_##code)
#define IDX(code) PUT("IDX_" #code, TL_IDX_##code)
#define SCAN(code) PUT(#code, TL_SCAN_##code)
    TL_RED_OPS(RED) TL_IDX_OPS(IDX) TL_SCAN_OPS(SCAN)
#undef RED
#undef IDX
#undef SCAN
#undef PUT
    return d;
}

/* _argext_set_avx512(on) -> previous (tests compare the arg-extreme row searches) */
static PyObject *m_argext_set_avx512(PyObject *m, PyObject *o)
{
    int64_t on;
    if (tl_conv_int64(o, &on, "on") < 0) return NULL;
    return PyLong_FromLong(tl_argext_set_avx512(on != 0));
}

PyMethodDef tl_module_methods_reduce[] = {
    {"_argext_set_avx512", m_argext_set_avx512, METH_O, "_argext_set_avx512(on) -> previous: pin the argmax/argmin row search."},
    {"_reduce_op_codes", m_reduce_op_codes, METH_NOARGS, "Codes of the reduction, index-reduction and scan ops by name."},
    {"_reduce", FC(m_reduce), METH_FASTCALL, "_reduce(x, op, dims, keepdim, dtype, param): reduction primitive."},
    {"_set_reduce_methods", m_set_reduce_methods, METH_O, "Python forms of Tensor.sum/nansum/mean/nanmean (fallbacks)."},
    {"_reduce_index", FC(m_reduce_index), METH_FASTCALL, "_reduce_index(x, op, dim, keepdim, k) -> (values, indices)."},
    {"_sort", FC(m_sort), METH_FASTCALL, "_sort(x, dim, descending) -> (values, indices); stable."},
    {"_topk", FC(m_topk), METH_FASTCALL, "_topk(x, k, dim, largest, sorted) -> (values, indices)."},
    {"_scan", FC(m_scan), METH_FASTCALL, "_scan(x, op, dim, dtype) -> cumulative result (and indices)."},
    {"_unique", FC(m_unique), METH_FASTCALL, "_unique(x, return_inverse, return_counts) -> (values, inverse, counts)."},
    {"_searchsorted", FC(m_searchsorted), METH_FASTCALL, "_searchsorted(sorted, values, sorter, right, out_int32)."},
    {"_histc", FC(m_histc), METH_FASTCALL, "_histc(x, bins, min, max) -> histogram."},
    {NULL},
};
