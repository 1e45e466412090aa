/* debug.c - TL_DEBUG_CHECKS builds (TENSORLIB_DEBUG=1 and the sanitizer build): TensorBase's
 * slots and getters/setters are wrapped so that one returning a value while a Python exception
 * is set, or an error without setting one, aborts at once with its name. CPython turns this
 * into a SystemError for functions and methods, but release builds do not check slots: there
 * the exception stays pending and surfaces in a later, unrelated call. tensorlib._C.
 * _debug_checks says whether the build has them. */
#include "python/binding.h"

#include <stdio.h>
#include <stdlib.h>

#ifdef TL_DEBUG_CHECKS

static void fail(const char *what, int returned_value)
{
    fprintf(stderr, "tensorlib debug check: %s returned %s\n", what,
            returned_value ? "a value with a Python exception set" : "an error without setting an exception");
    abort();
}
static PyObject *checked(PyObject *r, const char *what)
{
    if ((r != NULL) == (PyErr_Occurred() != NULL)) fail(what, r != NULL);
    return r;
}
static Py_ssize_t checked_n(Py_ssize_t r, const char *what)
{
    if ((r >= 0) == (PyErr_Occurred() != NULL)) fail(what, r >= 0);
    return r;
}

#define NB_BINARY(X) X(nb_add) X(nb_inplace_add) X(nb_subtract) X(nb_inplace_subtract) X(nb_multiply) \
    X(nb_inplace_multiply) X(nb_true_divide) X(nb_inplace_true_divide) X(nb_floor_divide) \
    X(nb_inplace_floor_divide) X(nb_remainder) X(nb_inplace_remainder) X(nb_and) X(nb_inplace_and) X(nb_or) \
    X(nb_inplace_or) X(nb_xor) X(nb_inplace_xor) X(nb_lshift) X(nb_inplace_lshift) X(nb_rshift) \
    X(nb_inplace_rshift) X(nb_matrix_multiply) X(nb_inplace_matrix_multiply)
#define NB_UNARY(X) X(nb_negative) X(nb_positive) X(nb_absolute) X(nb_invert) X(nb_int) X(nb_float) X(nb_index)
#define NB_TERNARY(X) X(nb_power) X(nb_inplace_power)

#define WRAP_B(s) static binaryfunc orig_##s; \
    static PyObject *chk_##s(PyObject *a, PyObject *b) { return checked(orig_##s(a, b), #s); }
#define WRAP_U(s) static unaryfunc orig_##s; \
    static PyObject *chk_##s(PyObject *a) { return checked(orig_##s(a), #s); }
#define WRAP_T(s) static ternaryfunc orig_##s; \
    static PyObject *chk_##s(PyObject *a, PyObject *b, PyObject *c) { return checked(orig_##s(a, b, c), #s); }
NB_BINARY(WRAP_B) NB_UNARY(WRAP_U) NB_TERNARY(WRAP_T)

static inquiry orig_nb_bool;
static int chk_nb_bool(PyObject *a) { return (int)checked_n(orig_nb_bool(a), "nb_bool"); }
static binaryfunc orig_mp_subscript;
static PyObject *chk_mp_subscript(PyObject *a, PyObject *k) { return checked(orig_mp_subscript(a, k), "mp_subscript"); }
static objobjargproc orig_mp_ass_subscript;
static int chk_mp_ass_subscript(PyObject *a, PyObject *k, PyObject *v)
{
    return (int)checked_n(orig_mp_ass_subscript(a, k, v), "mp_ass_subscript");
}
static lenfunc orig_mp_length, orig_sq_length;
static Py_ssize_t chk_mp_length(PyObject *a) { return checked_n(orig_mp_length(a), "mp_length"); }
static Py_ssize_t chk_sq_length(PyObject *a) { return checked_n(orig_sq_length(a), "sq_length"); }
static richcmpfunc orig_richcompare;
static PyObject *chk_richcompare(PyObject *a, PyObject *b, int op) { return checked(orig_richcompare(a, b, op), "tp_richcompare"); }

/* A getter/setter's closure becomes this record of the original. */
typedef struct { getter get; setter set; void *closure; const char *name; } getset_orig;
static PyObject *chk_get(PyObject *self, void *c)
{
    const getset_orig *g = c;
    return checked(g->get(self, g->closure), g->name);
}
static int chk_set(PyObject *self, PyObject *v, void *c)
{
    const getset_orig *g = c;
    return (int)checked_n(g->set(self, v, g->closure), g->name);
}

#define SWAP(tab, s) if ((tab) && (tab)->s) { orig_##s = (tab)->s; (tab)->s = chk_##s; }
#define SWAP_NB(s) SWAP(nb, s)

int tl_debug_wrap_type(PyTypeObject *t)
{
    PyNumberMethods *nb = t->tp_as_number;
    NB_BINARY(SWAP_NB) NB_UNARY(SWAP_NB) NB_TERNARY(SWAP_NB)
    SWAP(nb, nb_bool)
    SWAP(t->tp_as_mapping, mp_subscript) SWAP(t->tp_as_mapping, mp_ass_subscript) SWAP(t->tp_as_mapping, mp_length)
    SWAP(t->tp_as_sequence, sq_length)
    if (t->tp_richcompare) { orig_richcompare = t->tp_richcompare; t->tp_richcompare = chk_richcompare; }
    for (PyGetSetDef *d = t->tp_getset; d && d->name; d++) {
        getset_orig *g = malloc(sizeof *g);  /* lives as long as the type: never freed */
        if (!g) { PyErr_NoMemory(); return -1; }
        *g = (getset_orig){d->get, d->set, d->closure, d->name};
        d->closure = g;
        if (d->get) d->get = chk_get;
        if (d->set) d->set = chk_set;
    }
    return 0;
}
const int tl_debug_checks = 1;

#else
int tl_debug_wrap_type(PyTypeObject *t) { return 0; }
const int tl_debug_checks = 0;
#endif
