/* unique.c (binding) - _unique_dim: the entry point of unique(dim=...) and
 * unique_consecutive. The work is in ops/unique.c; argument forms are in tensorlib. */
#include "python/binding.h"

#include "ops/sort.h"

/* _unique_dim(x, dim or None, consecutive, return_inverse, return_counts)
 *   -> (values, inverse or None, counts or None); dim None: of the flattened elements. */
static PyObject *m_unique_dim(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    (void)m;
    if (nargs != 5) {
        PyErr_Format(PyExc_TypeError, "_unique_dim expects 5 arguments, got %zd", nargs);
        return NULL;
    }
    if (!tl_is_tensor(args[0])) {
        PyErr_Format(PyExc_TypeError, "unique(): argument 'input' must be Tensor, not %s", Py_TYPE(args[0])->tp_name);
        return NULL;
    }
    tl_tensor *x = TL_TENSOR(args[0]);
    int64_t dim = 0;
    bool flat = args[1] == Py_None;
    if (!flat && tl_conv_int64(args[1], &dim, "dim") < 0) return NULL;
    int cons, wi, wc;  /* one at a time: none may run with the previous one's exception set */
    if (tl_conv_flag(args[2], &cons) < 0 || tl_conv_flag(args[3], &wi) < 0 || tl_conv_flag(args[4], &wc) < 0)
        return NULL;
    TensorObject *v = tl_tensor_alloc(), *i = wi ? tl_tensor_alloc() : NULL, *c = wc ? tl_tensor_alloc() : NULL;
    PyObject *res = NULL;
    if (v && (i || !wi) && (c || !wc)) {
        if (tl_unique_dim(&v->t, i ? &i->t : NULL, c ? &c->t : NULL, x, dim, flat, cons) < 0) tl_raise();
        else res = PyTuple_Pack(3, (PyObject *)v, i ? (PyObject *)i : Py_None, c ? (PyObject *)c : Py_None);
    }
    Py_XDECREF(v);
    Py_XDECREF(i);
    Py_XDECREF(c);
    return res;
}

PyMethodDef tl_module_methods_unique[] = {
    {"_unique_dim", (PyCFunction)(void (*)(void))m_unique_dim, METH_FASTCALL,
     "_unique_dim(x, dim, consecutive, return_inverse, return_counts) -> (values, inverse, counts)."},
    {NULL},
};
