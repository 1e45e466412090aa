/* index.c - thin bindings for the indexing and joining ops (ops/index.h, ops/join.h).
 * Private module functions (_C._gather, ...) with positional arguments already resolved
 * by tensorlib/_index.py (dims as ints, names looked up, keys translated). */
#include "python/binding.h"

#include "ops/index.h"
#include "ops/join.h"
#include "ops/view.h"

#define T(o) TL_TENSOR(o)
#define TT &TensorBase_Type

static PyObject *ret_self_none(int rc) { if (rc < 0) return tl_raise(); Py_RETURN_NONE; }

/* Converts a tuple of (tensor or None) into pointers; returns the count or -1. */
static int conv_index_tuple(PyObject *tup, const tl_tensor **out)
{
    if (!PyTuple_Check(tup)) { PyErr_SetString(PyExc_TypeError, "indices must be a tuple"); return -1; }
    Py_ssize_t n = PyTuple_GET_SIZE(tup);
    if (n > TL_MAX_DIMS) { PyErr_SetString(PyExc_IndexError, "too many indices"); return -1; }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = PyTuple_GET_ITEM(tup, i);
        if (o == Py_None) out[i] = NULL;
        else if (tl_is_tensor(o)) out[i] = T(o);
        else { PyErr_SetString(PyExc_TypeError, "indices must be tensors or None"); return -1; }
    }
    return (int)n;
}

static PyObject *f_index(PyObject *m, PyObject *args)
{
    PyObject *t, *tup;
    if (!PyArg_ParseTuple(args, "O!O", TT, &t, &tup)) return NULL;
    const tl_tensor *ix[TL_MAX_DIMS];
    int n = conv_index_tuple(tup, ix);
    if (n < 0) return NULL;
    TL_NEW_TENSOR(r, tl_index(&r->t, T(t), ix, n, 0));
    return (PyObject *)r;
}

static PyObject *f_index_put_(PyObject *m, PyObject *args)
{
    PyObject *t, *tup, *v;
    int acc, flags = 0;
    if (!PyArg_ParseTuple(args, "O!OOp|i", TT, &t, &tup, &v, &acc, &flags)) return NULL;
    const tl_tensor *ix[TL_MAX_DIMS];
    int n = conv_index_tuple(tup, ix);
    if (n < 0) return NULL;
    if (tl_is_tensor(v)) return ret_self_none(tl_index_put_(T(t), ix, n, T(v), NULL, acc, flags));
    tl_scalar s;
    if (tl_conv_scalar(v, &s) < 0) return NULL;
    return ret_self_none(tl_index_put_(T(t), ix, n, NULL, &s, acc, flags));
}

static PyObject *f_gather(PyObject *m, PyObject *args)
{
    PyObject *t, *ix;
    long long dim;
    if (!PyArg_ParseTuple(args, "O!LO!", TT, &t, &dim, TT, &ix)) return NULL;
    TL_NEW_TENSOR(r, tl_gather(&r->t, T(t), dim, T(ix)));
    return (PyObject *)r;
}

static PyObject *f_scatter_(PyObject *m, PyObject *args)
{
    PyObject *t, *ix, *src;
    long long dim;
    int op, include_self;
    const char *name;
    if (!PyArg_ParseTuple(args, "O!LO!Oips", TT, &t, &dim, TT, &ix, &src, &op, &include_self, &name)) return NULL;
    if (tl_is_tensor(src)) return ret_self_none(tl_scatter_(T(t), dim, T(ix), T(src), NULL, (tl_reduce_op)op, include_self, name));
    tl_scalar s;
    if (tl_conv_scalar(src, &s) < 0) return NULL;
    return ret_self_none(tl_scatter_(T(t), dim, T(ix), NULL, &s, (tl_reduce_op)op, include_self, name));
}

static PyObject *f_index_select(PyObject *m, PyObject *args)
{
    PyObject *t, *ix;
    long long dim;
    if (!PyArg_ParseTuple(args, "O!LO!", TT, &t, &dim, TT, &ix)) return NULL;
    TL_NEW_TENSOR(r, tl_index_select(&r->t, T(t), dim, T(ix)));
    return (PyObject *)r;
}

static PyObject *f_take(PyObject *m, PyObject *args)
{
    PyObject *t, *ix;
    if (!PyArg_ParseTuple(args, "O!O!", TT, &t, TT, &ix)) return NULL;
    TL_NEW_TENSOR(r, tl_take(&r->t, T(t), T(ix)));
    return (PyObject *)r;
}

static PyObject *f_put_(PyObject *m, PyObject *args)
{
    PyObject *t, *ix, *src;
    int acc;
    if (!PyArg_ParseTuple(args, "O!O!O!p", TT, &t, TT, &ix, TT, &src, &acc)) return NULL;
    return ret_self_none(tl_put_(T(t), T(ix), T(src), acc));
}

static PyObject *f_masked_select(PyObject *m, PyObject *args)
{
    PyObject *t, *mask;
    if (!PyArg_ParseTuple(args, "O!O!", TT, &t, TT, &mask)) return NULL;
    TL_NEW_TENSOR(r, tl_masked_select(&r->t, T(t), T(mask)));
    return (PyObject *)r;
}

static PyObject *f_masked_scatter_(PyObject *m, PyObject *args)
{
    PyObject *t, *mask, *src;
    if (!PyArg_ParseTuple(args, "O!O!O!", TT, &t, TT, &mask, TT, &src)) return NULL;
    return ret_self_none(tl_masked_scatter_(T(t), T(mask), T(src)));
}

static PyObject *f_nonzero(PyObject *m, PyObject *t)
{
    if (!tl_is_tensor(t)) { PyErr_SetString(PyExc_TypeError, "nonzero expects a tensor"); return NULL; }
    TL_NEW_TENSOR(r, tl_nonzero(&r->t, T(t)));
    return (PyObject *)r;
}

static PyObject *f_cat(PyObject *m, PyObject *args)
{
    PyObject *seq;
    long long dim;
    if (!PyArg_ParseTuple(args, "OL", &seq, &dim)) return NULL;
    PyObject *fast = PySequence_Fast(seq, "cat(): argument 'tensors' must be tuple of Tensors");
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    const tl_tensor **ts = PyMem_Malloc(sizeof(*ts) * (n ? n : 1));
    if (!ts) { Py_DECREF(fast); return tl_no_memory(); }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = PySequence_Fast_GET_ITEM(fast, i);
        if (!tl_is_tensor(o)) {
            PyErr_Format(PyExc_TypeError, "expected Tensor as element %zd in argument 0, but got %s", i, Py_TYPE(o)->tp_name);
            PyMem_Free(ts);
            Py_DECREF(fast);
            return NULL;
        }
        ts[i] = T(o);
    }
    TensorObject *r = tl_tensor_alloc();
    int rc = r ? tl_cat(&r->t, ts, (int)n, dim) : -1;
    PyMem_Free(ts);
    Py_DECREF(fast);
    if (!r) return NULL;
    if (rc < 0) { Py_DECREF(r); return tl_raise(); }
    return (PyObject *)r;
}

static PyObject *f_flip(PyObject *m, PyObject *args)
{
    PyObject *t, *dims;
    if (!PyArg_ParseTuple(args, "O!O", TT, &t, &dims)) return NULL;
    int64_t d[TL_MAX_DIMS];
    int n;
    if (tl_conv_int_list(dims, d, &n, "dims") < 0) return NULL;
    TL_NEW_TENSOR(r, tl_flip(&r->t, T(t), d, n));
    return (PyObject *)r;
}

static PyObject *f_view_as_real(PyObject *m, PyObject *t)
{
    if (!tl_is_tensor(t)) return PyErr_Format(PyExc_TypeError, "_view_as_real(): expected a Tensor");
    TL_NEW_TENSOR(r, tl_view_as_real(&r->t, T(t)));
    return (PyObject *)r;
}

static PyObject *f_view_as_complex(PyObject *m, PyObject *t)
{
    if (!tl_is_tensor(t)) return PyErr_Format(PyExc_TypeError, "_view_as_complex(): expected a Tensor");
    TL_NEW_TENSOR(r, tl_view_as_complex(&r->t, T(t)));
    return (PyObject *)r;
}

static PyObject *f_repeat(PyObject *m, PyObject *args)
{
    PyObject *t, *reps;
    if (!PyArg_ParseTuple(args, "O!O", TT, &t, &reps)) return NULL;
    int64_t d[TL_MAX_DIMS];
    int n;
    if (tl_conv_int_list(reps, d, &n, "repeats") < 0) return NULL;
    TL_NEW_TENSOR(r, tl_repeat(&r->t, T(t), d, n));
    return (PyObject *)r;
}

static PyObject *f_tril_(PyObject *m, PyObject *args)
{
    PyObject *t;
    long long k;
    int upper;
    if (!PyArg_ParseTuple(args, "O!Lp", TT, &t, &k, &upper)) return NULL;
    return ret_self_none(tl_tril_(T(t), k, upper));
}

static PyObject *f_trace(PyObject *m, PyObject *t)
{
    if (!tl_is_tensor(t)) { PyErr_SetString(PyExc_TypeError, "trace expects a tensor"); return NULL; }
    TL_NEW_TENSOR(r, tl_trace(&r->t, T(t)));
    return (PyObject *)r;
}

static PyObject *f_cross(PyObject *m, PyObject *args)
{
    PyObject *a, *b;
    long long dim;
    if (!PyArg_ParseTuple(args, "O!O!L", TT, &a, TT, &b, &dim)) return NULL;
    TL_NEW_TENSOR(r, tl_cross(&r->t, T(a), T(b), dim));
    return (PyObject *)r;
}

static PyObject *f_renorm(PyObject *m, PyObject *args)
{
    PyObject *t;
    double p, maxnorm;
    long long dim;
    if (!PyArg_ParseTuple(args, "O!dLd", TT, &t, &p, &dim, &maxnorm)) return NULL;
    TL_NEW_TENSOR(r, tl_renorm(&r->t, T(t), p, dim, maxnorm));
    return (PyObject *)r;
}

static PyObject *f_resize_(PyObject *m, PyObject *args)
{
    PyObject *t, *sizes;
    if (!PyArg_ParseTuple(args, "O!O", TT, &t, &sizes)) return NULL;
    int64_t d[TL_MAX_DIMS];
    int n;
    if (tl_conv_int_list(sizes, d, &n, "size") < 0) return NULL;
    return ret_self_none(tl_resize_(T(t), d, n));
}

static PyObject *f_resize_as_(PyObject *m, PyObject *args)
{
    PyObject *t, *tmpl;
    if (!PyArg_ParseTuple(args, "O!O!", TT, &t, TT, &tmpl)) return NULL;
    return ret_self_none(tl_resize_as_(T(t), T(tmpl)));
}

static PyObject *f_repeat_interleave_index(PyObject *m, PyObject *args)
{
    PyObject *rep;
    long long size;
    if (!PyArg_ParseTuple(args, "O!L", TT, &rep, &size)) return NULL;
    TL_NEW_TENSOR(r, tl_repeat_interleave_index(&r->t, T(rep), size));
    return (PyObject *)r;
}

static PyObject *f_scale_(PyObject *m, PyObject *args)
{
    PyObject *t, *v;
    if (!PyArg_ParseTuple(args, "O!O", TT, &t, &v)) return NULL;
    tl_scalar s;
    if (tl_conv_scalar(v, &s) < 0) return NULL;
    return ret_self_none(tl_scale_(T(t), s));
}

PyMethodDef tl_module_methods_index[] = {
    {"_scale_", f_scale_, METH_VARARGS, "_scale_(t, s): t *= s in place."},
    {"_index", f_index, METH_VARARGS, "_index(t, indices): advanced-index gather (indices: tuple of int tensors/None)."},
    {"_index_put_", f_index_put_, METH_VARARGS, "_index_put_(t, indices, values, accumulate[, flags])."},
    {"_gather", f_gather, METH_VARARGS, "_gather(t, dim, index)."},
    {"_scatter_", f_scatter_, METH_VARARGS, "_scatter_(t, dim, index, src_or_value, reduce_op, include_self, opname)."},
    {"_index_select", f_index_select, METH_VARARGS, "_index_select(t, dim, index)."},
    {"_take", f_take, METH_VARARGS, "_take(t, index)."},
    {"_put_", f_put_, METH_VARARGS, "_put_(t, index, source, accumulate)."},
    {"_masked_select", f_masked_select, METH_VARARGS, "_masked_select(t, mask)."},
    {"_masked_scatter_", f_masked_scatter_, METH_VARARGS, "_masked_scatter_(t, mask, source)."},
    {"_nonzero", f_nonzero, METH_O, "_nonzero(t): [n, ndim] int64 coordinates."},
    {"_cat", f_cat, METH_VARARGS, "_cat(tensors, dim)."},
    {"_flip", f_flip, METH_VARARGS, "_flip(t, dims)."},
    {"_view_as_real", f_view_as_real, METH_O, "_view_as_real(t): the (re, im) pairs of a complex t as a view."},
    {"_view_as_complex", f_view_as_complex, METH_O, "_view_as_complex(t): a last dim of (re, im) pairs as a complex view."},
    {"_repeat", f_repeat, METH_VARARGS, "_repeat(t, repeats)."},
    {"_tril_", f_tril_, METH_VARARGS, "_tril_(t, diagonal, upper): in-place tril (upper=False) or triu."},
    {"_trace", f_trace, METH_O, "_trace(t)."},
    {"_cross", f_cross, METH_VARARGS, "_cross(a, b, dim)."},
    {"_renorm", f_renorm, METH_VARARGS, "_renorm(t, p, dim, maxnorm)."},
    {"_resize_", f_resize_, METH_VARARGS, "_resize_(t, sizes)."},
    {"_resize_as_", f_resize_as_, METH_VARARGS, "_resize_as_(t, template): resize_ to template's shape, names by the out= rule."},
    {"_repeat_interleave_index", f_repeat_interleave_index, METH_VARARGS, "_repeat_interleave_index(repeats, output_size)."},
    {NULL},
};
