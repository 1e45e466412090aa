/* errors.c - the core's error slot to Python exceptions. */
#include "python/binding.h"

PyObject *tl_exc_oom;

int tl_init_errors(PyObject *m)
{
    /* torch raises RuntimeError when an allocation fails, Python code expects MemoryError:
     * tensorlib.OutOfMemoryError is both */
    PyObject *bases = PyTuple_Pack(2, PyExc_RuntimeError, PyExc_MemoryError);
    if (!bases) return -1;
    tl_exc_oom = PyErr_NewExceptionWithDoc("tensorlib.OutOfMemoryError",
                                           "An allocation failed; both a RuntimeError (as torch raises) and a MemoryError.",
                                           bases, NULL);
    Py_DECREF(bases);
    if (!tl_exc_oom) return -1;
    Py_INCREF(tl_exc_oom);
    return PyModule_AddObject(m, "OutOfMemoryError", tl_exc_oom);
}

PyObject *tl_no_memory(void)
{
    PyErr_SetString(tl_exc_oom, "out of memory");
    return NULL;
}

static PyObject *exc_for(tl_errkind k)
{
    switch (k) {
    case TL_ERR_TYPE: return PyExc_TypeError;
    case TL_ERR_INDEX: return PyExc_IndexError;
    case TL_ERR_VALUE: return PyExc_ValueError;
    case TL_ERR_MEMORY: return tl_exc_oom;
    case TL_ERR_NOTIMPL: return PyExc_NotImplementedError;
    default: return PyExc_RuntimeError;
    }
}

PyObject *tl_raise(void)
{
    if (PyErr_Occurred()) return NULL;
    tl_errkind k = tl_err_kind();
    if (k == TL_ERR_NONE) PyErr_SetString(PyExc_RuntimeError, "tensorlib: internal error without a message");
    else PyErr_SetString(exc_for(k), tl_err_msg());
    tl_err_clear();
    return NULL;
}

int tl_raise_int(void)
{
    tl_raise();
    return -1;
}
