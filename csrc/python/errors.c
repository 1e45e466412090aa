/* errors.c - the core's error slot to Python exceptions. */
#include "python/binding.h"

static PyObject *exc_for(tl_errkind k)
{
    switch (k) {
    case TL_ERR_TYPE: return PyExc_TypeError;
    case TL_ERR_INDEX: return PyExc_IndexError;
    case TL_ERR_VALUE: return PyExc_ValueError;
    case TL_ERR_MEMORY: return PyExc_MemoryError;
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
