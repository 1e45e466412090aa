/* lapack.c (binding) - the private entry points of the LAPACK primitives (ops/lapack.c):
 * positional arguments, tuples of fresh tensors back. tensorlib/_linalg_lapack.py composes
 * torch.linalg from them and raises torch's errors from the info tensors. */
#include "python/binding.h"

#include "ops/lapack.h"

/* Tensor arguments (O) are checked here; the rest by the format. */
static int tensors_ok(int n, PyObject **t)
{
    for (int i = 0; i < n; i++)
        if (!tl_is_tensor(t[i])) {
            PyErr_Format(PyExc_TypeError, "expected a Tensor, got %s", Py_TYPE(t[i])->tp_name);
            return -1;
        }
    return 0;
}

/* Runs call (status < 0: error) over n fresh outputs, returns them (one: bare, else a tuple). */
#define LP_OUTS(n, call)                                                                         \
    TensorObject *o[n] = {0};                                                                    \
    for (int i = 0; i < n; i++)                                                                  \
        if (!(o[i] = tl_tensor_alloc())) goto fail;                                              \
    if ((call) < 0) {                                                                            \
        tl_raise();                                                                              \
        goto fail;                                                                               \
    }                                                                                            \
    if (n == 1) return (PyObject *)o[0];                                                         \
    PyObject *tup = PyTuple_New(n);                                                              \
    if (!tup) goto fail;                                                                         \
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(tup, i, (PyObject *)o[i]);                      \
    return tup;                                                                                  \
fail:                                                                                            \
    for (int i = 0; i < n; i++) Py_XDECREF(o[i]);                                                \
    return NULL

#define T(i) TL_TENSOR(t[i])
#define OT(i) (&o[i]->t)

static PyObject *f_getrf(PyObject *self, PyObject *args)
{
    PyObject *t[1];
    if (!PyArg_ParseTuple(args, "O", &t[0]) || tensors_ok(1, t) < 0) return NULL;
    LP_OUTS(3, tl_lapack_getrf(OT(0), OT(1), OT(2), T(0)));
}

static PyObject *f_getrs(PyObject *self, PyObject *args)
{
    PyObject *t[3];
    int trans;
    if (!PyArg_ParseTuple(args, "OOOC", &t[0], &t[1], &t[2], &trans) || tensors_ok(3, t) < 0) return NULL;
    LP_OUTS(1, tl_lapack_getrs(OT(0), T(0), T(1), T(2), (char)trans));
}

static PyObject *f_perm(PyObject *self, PyObject *args)
{
    PyObject *t[1];
    long long m;
    if (!PyArg_ParseTuple(args, "OL", &t[0], &m) || tensors_ok(1, t) < 0) return NULL;
    LP_OUTS(1, tl_lapack_pivots_to_perm(OT(0), T(0), (int64_t)m));
}

static PyObject *f_potrf(PyObject *self, PyObject *args)
{
    PyObject *t[1];
    int upper;
    if (!PyArg_ParseTuple(args, "Op", &t[0], &upper) || tensors_ok(1, t) < 0) return NULL;
    LP_OUTS(2, tl_lapack_potrf(OT(0), OT(1), T(0), upper));
}

static PyObject *f_geqrf(PyObject *self, PyObject *args)
{
    PyObject *t[1];
    if (!PyArg_ParseTuple(args, "O", &t[0]) || tensors_ok(1, t) < 0) return NULL;
    LP_OUTS(2, tl_lapack_geqrf(OT(0), OT(1), T(0)));
}

static PyObject *f_orgqr(PyObject *self, PyObject *args)
{
    PyObject *t[2];
    if (!PyArg_ParseTuple(args, "OO", &t[0], &t[1]) || tensors_ok(2, t) < 0) return NULL;
    LP_OUTS(1, tl_lapack_orgqr(OT(0), T(0), T(1)));
}

static PyObject *f_syevd(PyObject *self, PyObject *args)
{
    PyObject *t[1];
    int upper, vectors;
    if (!PyArg_ParseTuple(args, "Opp", &t[0], &upper, &vectors) || tensors_ok(1, t) < 0) return NULL;
    LP_OUTS(3, tl_lapack_syevd(OT(0), OT(1), OT(2), T(0), upper, vectors));
}

static PyObject *f_gesdd(PyObject *self, PyObject *args)
{
    PyObject *t[1];
    int jobz;
    if (!PyArg_ParseTuple(args, "OC", &t[0], &jobz) || tensors_ok(1, t) < 0) return NULL;
    LP_OUTS(4, tl_lapack_gesdd(OT(0), OT(1), OT(2), OT(3), T(0), (char)jobz));
}

static PyObject *f_geev(PyObject *self, PyObject *args)
{
    PyObject *t[1];
    int vectors;
    if (!PyArg_ParseTuple(args, "Op", &t[0], &vectors) || tensors_ok(1, t) < 0) return NULL;
    LP_OUTS(3, tl_lapack_geev(OT(0), OT(1), OT(2), T(0), vectors));
}

static PyObject *f_gels(PyObject *self, PyObject *args)
{
    PyObject *t[2];
    int driver;
    double rcond;
    if (!PyArg_ParseTuple(args, "OOid", &t[0], &t[1], &driver, &rcond) || tensors_ok(2, t) < 0) return NULL;
    LP_OUTS(4, tl_lapack_gels(OT(0), OT(1), OT(2), OT(3), T(0), T(1), driver, rcond));
}

static PyObject *f_trsm(PyObject *self, PyObject *args)
{
    PyObject *t[2];
    int left, upper, unit;
    if (!PyArg_ParseTuple(args, "OOppp", &t[0], &t[1], &left, &upper, &unit) || tensors_ok(2, t) < 0) return NULL;
    LP_OUTS(1, tl_lapack_trsm(OT(0), T(0), T(1), left, upper, unit));
}

static PyObject *f_sytrf(PyObject *self, PyObject *args)
{
    PyObject *t[1];
    int herm;
    if (!PyArg_ParseTuple(args, "Op", &t[0], &herm) || tensors_ok(1, t) < 0) return NULL;
    LP_OUTS(3, tl_lapack_sytrf(OT(0), OT(1), OT(2), T(0), herm));
}

static PyObject *f_sytrs(PyObject *self, PyObject *args)
{
    PyObject *t[3];
    int herm;
    if (!PyArg_ParseTuple(args, "OOOp", &t[0], &t[1], &t[2], &herm) || tensors_ok(3, t) < 0) return NULL;
    LP_OUTS(1, tl_lapack_sytrs(OT(0), T(0), T(1), T(2), herm));
}

PyMethodDef tl_module_methods_lapack[] = {
    {"_lapack_getrf", f_getrf, METH_VARARGS, "_lapack_getrf(A) -> (LU, pivots, info)"},
    {"_lapack_getrs", f_getrs, METH_VARARGS, "_lapack_getrs(LU, pivots, B, trans) -> X"},
    {"_lapack_perm", f_perm, METH_VARARGS, "_lapack_perm(pivots, m) -> perm (int64)"},
    {"_lapack_potrf", f_potrf, METH_VARARGS, "_lapack_potrf(A, upper) -> (L, info)"},
    {"_lapack_geqrf", f_geqrf, METH_VARARGS, "_lapack_geqrf(A) -> (QR, tau)"},
    {"_lapack_orgqr", f_orgqr, METH_VARARGS, "_lapack_orgqr(A, tau) -> Q"},
    {"_lapack_syevd", f_syevd, METH_VARARGS, "_lapack_syevd(A, upper, vectors) -> (w, V, info)"},
    {"_lapack_gesdd", f_gesdd, METH_VARARGS, "_lapack_gesdd(A, jobz) -> (U, S, Vh, info)"},
    {"_lapack_geev", f_geev, METH_VARARGS, "_lapack_geev(A, vectors) -> (w, V, info)"},
    {"_lapack_gels", f_gels, METH_VARARGS, "_lapack_gels(A, B, driver, rcond) -> (X, rank, sv, info)"},
    {"_lapack_sytrf", f_sytrf, METH_VARARGS, "_lapack_sytrf(A, hermitian) -> (LD, pivots, info)"},
    {"_lapack_sytrs", f_sytrs, METH_VARARGS, "_lapack_sytrs(LD, pivots, B, hermitian) -> X"},
    {"_lapack_trsm", f_trsm, METH_VARARGS, "_lapack_trsm(A, B, left, upper, unit) -> X"},
    {NULL},
};
