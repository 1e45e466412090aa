/* random.c (binding) - tensorlib.Generator, the default generator, seeding functions and
 * the in-place samplers as Tensor methods. Factories (rand, randn, ...) are composed in
 * tensorlib/_random.py from empty() and these samplers. */
#include "python/binding.h"

#include <string.h>

#include "ops/random.h"

typedef struct {
    PyObject_HEAD
    tl_generator own;
    tl_generator *g; /* &own, or the process default for default_generator */
} GeneratorObject;

static PyTypeObject Generator_Type;

#define FASTARGS PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames
#define GEN(o) (((GeneratorObject *)(o))->g)

/* generator= keyword: None gives NULL, the default generator of the tensor's device (the
 * core picks it, and checks a given generator's device type). */
static int conv_generator(PyObject *o, tl_generator **out)
{
    if (!o || o == Py_None) { *out = NULL; return 0; }
    if (!PyObject_TypeCheck(o, &Generator_Type)) {
        PyErr_Format(PyExc_TypeError, "generator must be a tensorlib.Generator, not %s", Py_TYPE(o)->tp_name);
        return -1;
    }
    *out = GEN(o);
    return 0;
}

static int conv_seed(PyObject *o, uint64_t *out)
{
    if (!PyLong_Check(o) || PyBool_Check(o)) {
        PyErr_Format(PyExc_TypeError, "manual_seed expected an int, got %s", Py_TYPE(o)->tp_name);
        return -1;
    }
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (!overflow) { *out = (uint64_t)v; return 0; }
    unsigned long long u = PyLong_AsUnsignedLongLong(o);
    if (PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "Overflow when unpacking long long");
        return -1;
    }
    *out = u;
    return 0;
}

static PyObject *gen_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"device", "kind", NULL};
    PyObject *dev = NULL;
    const char *kind = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O$z:Generator", kwlist, &dev, &kind)) return NULL;
    tl_device d = {TL_DEV_CPU, -1};
    if (tl_conv_device(dev, &d) < 0) return NULL;
    if (d.type != TL_DEV_CPU && d.type != TL_DEV_CUDA) {
        PyErr_Format(PyExc_RuntimeError, "tensorlib: no generator for device type '%s'", tl_device_type_names[d.type]);
        return NULL;
    }
    /* CUDA generators are Philox (the CPU's Philox numbers, on the device), made after the
     * CUDA backend initialises, as torch's */
    if (d.type == TL_DEV_CUDA && tl_py_device_ready(&d) < 0) return NULL;
    tl_rng_kind k;
    if (!kind) kind = d.type == TL_DEV_CUDA ? "philox" : "mt19937";
    if (strcmp(kind, "mt19937") == 0 && d.type == TL_DEV_CPU) k = TL_RNG_MT19937;
    else if (strcmp(kind, "philox") == 0) k = TL_RNG_PHILOX;
    else {
        PyErr_Format(PyExc_ValueError, "Generator: kind must be %s, not '%s'",
                     d.type == TL_DEV_CUDA ? "'philox' for a cuda generator" : "'mt19937' or 'philox'", kind);
        return NULL;
    }
    GeneratorObject *o = (GeneratorObject *)type->tp_alloc(type, 0);
    if (!o) return NULL;
    tl_generator_init(&o->own, k, 67280421310721ull);
    o->own.device = d;
    o->g = &o->own;
    return (PyObject *)o;
}

static PyObject *gen_manual_seed(PyObject *self, PyObject *seed)
{
    uint64_t s;
    if (conv_seed(seed, &s) < 0) return NULL;
    tl_generator_manual_seed(GEN(self), s);
    Py_INCREF(self);
    return self;
}

static PyObject *gen_seed(PyObject *self, PyObject *u) { return PyLong_FromUnsignedLongLong(tl_generator_seed(GEN(self))); }
static PyObject *gen_initial_seed(PyObject *self, PyObject *u) { return PyLong_FromUnsignedLongLong(GEN(self)->seed); }

static PyObject *gen_get_state(PyObject *self, PyObject *u)
{
    int64_t n = TL_RNG_STATE_BYTES;
    TL_NEW_TENSOR(r, tl_tensor_empty(&r->t, 1, &n, TL_UINT8, (tl_device){TL_DEV_CPU, -1}, false));
    tl_generator_get_state(GEN(self), (uint8_t *)tl_data(&r->t));
    return (PyObject *)r;
}

static PyObject *gen_set_state(PyObject *self, PyObject *state)
{
    if (!tl_is_tensor(state)) {
        PyErr_Format(PyExc_TypeError, "set_state(): argument 'new_state' must be Tensor, not %s", Py_TYPE(state)->tp_name);
        return NULL;
    }
    tl_tensor *t = TL_TENSOR(state);
    if (t->dtype != TL_UINT8) {
        PyErr_Format(PyExc_TypeError, "expected a torch.ByteTensor, but got %s", tl_dtype_infos[t->dtype].name);
        return NULL;
    }
    if (tl_numel(t) != TL_RNG_STATE_BYTES) {
        PyErr_Format(PyExc_RuntimeError, "Expected a CPUGeneratorImplState of size %d but found the input RNG state size "
                                         "to be %lld", TL_RNG_STATE_BYTES, (long long)tl_numel(t));
        return NULL;
    }
    static uint8_t buf[TL_RNG_STATE_BYTES]; /* under the GIL */
    int64_t st = t->ndim ? t->strides[0] : 1;
    for (int i = 0; i < TL_RNG_STATE_BYTES; i++) buf[i] = (uint8_t)tl_data(t)[i * st];
    if (tl_generator_set_state(GEN(self), buf) < 0) return tl_raise();
    Py_INCREF(self);
    return self;
}

static PyObject *gen_device(PyObject *self, void *c) { return tl_device_obj(GEN(self)->device); }
static PyObject *gen_kind(PyObject *self, void *c)
{
    return PyUnicode_FromString(GEN(self)->kind == TL_RNG_PHILOX ? "philox" : "mt19937");
}

static PyObject *gen_repr(PyObject *self) { return PyUnicode_FromFormat("<tensorlib.Generator object at %p>", self); }

static PyMethodDef gen_methods[] = {
    {"manual_seed", gen_manual_seed, METH_O, "manual_seed(seed) -> Generator\n\nSets the seed and rewinds the counter."},
    {"seed", gen_seed, METH_NOARGS, "seed() -> int\n\nSeeds from the OS entropy source and returns the seed."},
    {"initial_seed", gen_initial_seed, METH_NOARGS, "initial_seed() -> int\n\nThe seed the generator was last seeded with."},
    {"get_state", gen_get_state, METH_NOARGS, "get_state() -> Tensor\n\nThe state as a uint8 tensor (kind, seed, Philox offset, MT19937 words)."},
    {"set_state", gen_set_state, METH_O, "set_state(new_state) -> Generator\n\nRestores a state from get_state()."},
    {NULL},
};

static PyGetSetDef gen_getset[] = {
    {"device", gen_device, NULL, "The generator's device (cpu, or cuda:N for a CUDA generator).", NULL},
    {"kind", gen_kind, NULL, "'mt19937' (torch's stream, the default) or 'philox' (counter-based, parallel).", NULL},
    {NULL}};

static PyTypeObject Generator_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tensorlib.Generator",
    .tp_basicsize = sizeof(GeneratorObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Generator(device='cpu', *, kind=None): a random number generator: MT19937 (torch's CPU stream, the CPU "
              "default) or the counter-based Philox4x32-10 (kind='philox'; always for device='cuda', the same numbers "
              "on both devices).",
    .tp_new = gen_new,
    .tp_methods = gen_methods,
    .tp_getset = gen_getset,
    .tp_repr = gen_repr,
};

/* ---- in-place samplers: x.uniform_(a, b, *, generator=None) etc. ---- */

static int conv_double(PyObject *o, double *out)
{
    if (!o || o == Py_None) return 0;
    tl_scalar s;
    if (tl_conv_scalar(o, &s) < 0) return -1;
    *out = s.kind == TL_KIND_FLOAT ? s.v.d : s.kind == TL_KIND_COMPLEX ? creal(s.v.c) : (double)s.v.i;
    return 0;
}

static PyObject *sample2(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, const char *fname,
                         const char *const *names, double a, double b, tl_dist dist)
{
    PyObject *v[3];
    tl_generator *g;
    if (tl_parse_args(args, nargs, kwnames, fname, names, 0, 2, v) < 0) return NULL;
    if (conv_double(v[0], &a) < 0 || conv_double(v[1], &b) < 0 || conv_generator(v[2], &g) < 0) return NULL;
    if (tl_random_dist_(TL_TENSOR(self), g, dist, a, b) < 0) return tl_raise();
    Py_INCREF(self);
    return self;
}

#define SAMPLER(pyname, n0, n1, d0, d1, dist)                                             \
    static PyObject *m_##pyname(FASTARGS)                                                 \
    {                                                                                     \
        static const char *const names[] = {n0, n1, "generator", NULL};                   \
        return sample2(self, args, nargs, kwnames, #pyname, names, d0, d1, dist);         \
    }
SAMPLER(uniform_, "from", "to", 0.0, 1.0, TL_DIST_UNIFORM)
SAMPLER(normal_, "mean", "std", 0.0, 1.0, TL_DIST_NORMAL)
SAMPLER(cauchy_, "median", "sigma", 0.0, 1.0, TL_DIST_CAUCHY)
SAMPLER(log_normal_, "mean", "std", 1.0, 2.0, TL_DIST_LOG_NORMAL)

static PyObject *sample1(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, const char *fname,
                         const char *arg, int required, double a, tl_dist dist)
{
    const char *names[] = {arg, "generator", NULL};
    PyObject *v[2];
    tl_generator *g;
    if (tl_parse_args(args, nargs, kwnames, fname, names, required, 1, v) < 0) return NULL;
    if (conv_double(v[0], &a) < 0 || conv_generator(v[1], &g) < 0) return NULL;
    if (tl_random_dist_(TL_TENSOR(self), g, dist, a, 0.0) < 0) return tl_raise();
    Py_INCREF(self);
    return self;
}

static PyObject *m_exponential_(FASTARGS) { return sample1(self, args, nargs, kwnames, "exponential_", "lambd", 0, 1.0, TL_DIST_EXPONENTIAL); }
static PyObject *m_geometric_(FASTARGS) { return sample1(self, args, nargs, kwnames, "geometric_", "p", 1, 0.5, TL_DIST_GEOMETRIC); }

static PyObject *m_bernoulli_(FASTARGS)
{
    static const char *const names[] = {"p", "generator", NULL};
    PyObject *v[2];
    tl_generator *g;
    if (tl_parse_args(args, nargs, kwnames, "bernoulli_", names, 0, 1, v) < 0) return NULL;
    if (conv_generator(v[1], &g) < 0) return NULL;
    int rc;
    if (v[0] && tl_is_tensor(v[0])) {
        rc = tl_bernoulli_tensor_(TL_TENSOR(self), TL_TENSOR(v[0]), g);
    } else {
        double p = 0.5;
        if (conv_double(v[0], &p) < 0) return NULL;
        rc = tl_random_dist_(TL_TENSOR(self), g, TL_DIST_BERNOULLI, p, 0.0);
    }
    if (rc < 0) return tl_raise();
    Py_INCREF(self);
    return self;
}

/* random_(), random_(to), random_(from, to); to=None means the dtype's maximum. */
static PyObject *m_random_(FASTARGS)
{
    static const char *const names[] = {"from", "to", "generator", NULL};
    PyObject *v[3];
    tl_generator *g;
    if (tl_parse_args(args, nargs, kwnames, "random_", names, 0, 2, v) < 0) return NULL;
    if (conv_generator(v[2], &g) < 0) return NULL;
    int64_t from = 0, to = 0;
    bool has_from = false, has_to = false;
    if (nargs == 1 && !v[1]) { /* random_(to) */
        if (tl_conv_int64(v[0], &to, "to") < 0) return NULL;
        has_to = true;
        has_from = true;
    } else {
        if (v[0] && v[0] != Py_None) { if (tl_conv_int64(v[0], &from, "from") < 0) return NULL; has_from = true; }
        if (v[1] && v[1] != Py_None) { if (tl_conv_int64(v[1], &to, "to") < 0) return NULL; has_to = true; }
        if (v[1] && v[1] == Py_None && !has_from) has_from = true;
    }
    if (tl_random_int_(TL_TENSOR(self), g, has_from, from, has_to, to) < 0) return tl_raise();
    Py_INCREF(self);
    return self;
}

/* ---- module functions ---- */

static PyObject *default_gen_obj;

/* As torch's: the CPU default generator and every CUDA default generator take the seed. */
static PyObject *f_manual_seed(PyObject *m, PyObject *seed)
{
    PyObject *r = gen_manual_seed(default_gen_obj, seed);
    if (r) tl_device_generators_seed(GEN(default_gen_obj)->seed);
    return r;
}
static PyObject *f_seed(PyObject *m, PyObject *u)
{
    uint64_t s = tl_generator_seed(GEN(default_gen_obj));
    tl_device_generators_seed(s);
    return PyLong_FromUnsignedLongLong(s);
}

/* _device_generator(index): the default Generator of cuda:index (one object per index). */
static PyObject *device_gen_objs[TL_MAX_DEVICE_GENERATORS];
static PyObject *f_device_generator(PyObject *m, PyObject *arg)
{
    long i = PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    tl_generator *g = i >= 0 && i < TL_MAX_DEVICE_GENERATORS ? tl_device_generator((tl_device){TL_DEV_CUDA, (int16_t)i}) : NULL;
    if (!g) return PyErr_Format(PyExc_RuntimeError, "Invalid device index %ld: tensorlib keeps CUDA generators for "
                                "indices 0 to %d", i, TL_MAX_DEVICE_GENERATORS - 1);
    if (!device_gen_objs[i]) {
        GeneratorObject *o = (GeneratorObject *)Generator_Type.tp_alloc(&Generator_Type, 0);
        if (!o) return NULL;
        o->g = g;
        device_gen_objs[i] = (PyObject *)o;
    }
    Py_INCREF(device_gen_objs[i]);
    return device_gen_objs[i];
}

static PyObject *f_device_manual_seed_all(PyObject *m, PyObject *seed)
{
    uint64_t s;
    if (conv_seed(seed, &s) < 0) return NULL;
    tl_device_generators_seed(s);
    Py_RETURN_NONE;
}
static PyObject *f_initial_seed(PyObject *m, PyObject *u) { return gen_initial_seed(default_gen_obj, u); }
static PyObject *f_get_rng_state(PyObject *m, PyObject *u) { return gen_get_state(default_gen_obj, u); }
static PyObject *f_set_rng_state(PyObject *m, PyObject *s)
{
    PyObject *r = gen_set_state(default_gen_obj, s);
    if (!r) return NULL;
    Py_DECREF(r);
    Py_RETURN_NONE;
}

/* _normal(mean, std, generator): mean/std each a tensor or a number. */
static PyObject *f_normal(FASTARGS)
{
    static const char *const names[] = {"mean", "std", "generator", NULL};
    PyObject *v[3];
    tl_generator *g;
    if (tl_parse_args(args, nargs, kwnames, "normal", names, 2, 3, v) < 0) return NULL;
    if (conv_generator(v[2], &g) < 0) return NULL;
    double ms = 0, ss = 1;
    const tl_tensor *mt = NULL, *st = NULL;
    if (tl_is_tensor(v[0])) mt = TL_TENSOR(v[0]);
    else if (conv_double(v[0], &ms) < 0) return NULL;
    if (tl_is_tensor(v[1])) st = TL_TENSOR(v[1]);
    else if (conv_double(v[1], &ss) < 0) return NULL;
    TL_NEW_TENSOR(r, tl_normal_tensor(&r->t, mt, ms, st, ss, g));
    return (PyObject *)r;
}

static PyObject *f_randperm_(FASTARGS)
{
    static const char *const names[] = {"out", "generator", NULL};
    PyObject *v[2];
    tl_generator *g;
    if (tl_parse_args(args, nargs, kwnames, "_randperm_", names, 1, 2, v) < 0) return NULL;
    if (!tl_is_tensor(v[0]) || conv_generator(v[1], &g) < 0) return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_TypeError, "expected a tensor");
    if (tl_randperm_(TL_TENSOR(v[0]), g) < 0) return tl_raise();
    Py_INCREF(v[0]);
    return v[0];
}

static PyObject *f_multinomial(FASTARGS)
{
    static const char *const names[] = {"input", "num_samples", "replacement", "generator", NULL};
    PyObject *v[4];
    tl_generator *g;
    int64_t n;
    if (tl_parse_args(args, nargs, kwnames, "multinomial", names, 2, 4, v) < 0) return NULL;
    if (!tl_is_tensor(v[0])) return PyErr_Format(PyExc_TypeError, "multinomial(): argument 'input' must be Tensor");
    if (tl_conv_int64(v[1], &n, "num_samples") < 0 || conv_generator(v[3], &g) < 0) return NULL;
    int repl = v[2] ? PyObject_IsTrue(v[2]) : 0;
    if (repl < 0) return NULL;
    TL_NEW_TENSOR(r, tl_multinomial(&r->t, TL_TENSOR(v[0]), n, repl, g));
    return (PyObject *)r;
}

/* _poisson(rates, generator=None), _binomial(count, prob, generator=None) */
static PyObject *f_poisson(FASTARGS)
{
    static const char *const names[] = {"input", "generator", NULL};
    PyObject *v[2];
    tl_generator *g;
    if (tl_parse_args(args, nargs, kwnames, "poisson", names, 1, 2, v) < 0) return NULL;
    if (!tl_is_tensor(v[0]))
        return PyErr_Format(PyExc_TypeError, "poisson(): argument 'input' (position 1) must be Tensor, not %s",
                            Py_TYPE(v[0])->tp_name);
    if (conv_generator(v[1], &g) < 0) return NULL;
    TL_NEW_TENSOR(r, tl_poisson(&r->t, TL_TENSOR(v[0]), g));
    return (PyObject *)r;
}

static PyObject *f_binomial(FASTARGS)
{
    static const char *const names[] = {"count", "prob", "generator", NULL};
    PyObject *v[3];
    tl_generator *g;
    if (tl_parse_args(args, nargs, kwnames, "binomial", names, 2, 3, v) < 0) return NULL;
    for (int i = 0; i < 2; i++)
        if (!tl_is_tensor(v[i]))
            return PyErr_Format(PyExc_TypeError, "binomial(): argument '%s' (position %d) must be Tensor, not %s",
                                names[i], i + 1, Py_TYPE(v[i])->tp_name);
    if (conv_generator(v[2], &g) < 0) return NULL;
    TL_NEW_TENSOR(r, tl_binomial(&r->t, TL_TENSOR(v[0]), TL_TENSOR(v[1]), g));
    return (PyObject *)r;
}

/* _philox(seed, first_block, nblocks) -> list of words: known-answer tests of the core. */
static PyObject *f_philox(PyObject *m, PyObject *args)
{
    unsigned long long seed, first;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "KKn", &seed, &first, &n) || n < 0 || n > 4096) return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_ValueError, "bad n");
    uint32_t w[4 * 4096];
    tl_philox_blocks(seed, first, n, w);
    PyObject *l = PyList_New(4 * n);
    for (Py_ssize_t i = 0; l && i < 4 * n; i++) PyList_SET_ITEM(l, i, PyLong_FromUnsignedLong(w[i]));
    return l;
}

#define FAST(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL | METH_KEYWORDS, doc}

/* Module functions: seeding and the samplers composed by tensorlib/_random.py. */
PyMethodDef tl_module_methods_random[] = {
    {"manual_seed", f_manual_seed, METH_O, "manual_seed(seed) -> Generator\n\nSeeds the default generator and every CUDA default generator."},
    {"seed", f_seed, METH_NOARGS, "seed() -> int\n\nSeeds the default generator (and the CUDA ones) nondeterministically."},
    {"initial_seed", f_initial_seed, METH_NOARGS, "initial_seed() -> int\n\nThe default generator's seed."},
    {"get_rng_state", f_get_rng_state, METH_NOARGS, "get_rng_state() -> Tensor\n\nThe default generator's state."},
    {"set_rng_state", f_set_rng_state, METH_O, "set_rng_state(new_state)\n\nRestores the default generator's state."},
    FAST("_normal", f_normal, "_normal(mean, std, generator=None): normal samples for tensor/number mean and std."),
    FAST("_randperm_", f_randperm_, "_randperm_(out, generator=None): fills a 1-D tensor with a permutation."),
    FAST("_multinomial", f_multinomial, "_multinomial(input, num_samples, replacement=False, generator=None)."),
    FAST("_poisson", f_poisson, "_poisson(input, generator=None): Poisson samples of the rates."),
    FAST("_binomial", f_binomial, "_binomial(count, prob, generator=None): binomial samples."),
    {"_device_generator", f_device_generator, METH_O, "_device_generator(index): the default Generator of cuda:index."},
    {"_device_manual_seed_all", f_device_manual_seed_all, METH_O, "_device_manual_seed_all(seed): seeds every CUDA default generator."},
    {"_philox", f_philox, METH_VARARGS, "_philox(seed, first_block, n): raw Philox4x32-10 words (testing)."},
    {NULL},
};

/* Tensor methods: in-place samplers. */
PyMethodDef tl_tensor_methods_random[] = {
    FAST("uniform_", m_uniform_, "uniform_(from=0, to=1, *, generator=None) -> Tensor\n\nFills with U[from, to)."),
    FAST("normal_", m_normal_, "normal_(mean=0, std=1, *, generator=None) -> Tensor\n\nFills with N(mean, std^2)."),
    FAST("cauchy_", m_cauchy_, "cauchy_(median=0, sigma=1, *, generator=None) -> Tensor\n\nFills with Cauchy samples."),
    FAST("log_normal_", m_log_normal_, "log_normal_(mean=1, std=2, *, generator=None) -> Tensor\n\nFills with exp(N(mean, std^2))."),
    FAST("exponential_", m_exponential_, "exponential_(lambd=1, *, generator=None) -> Tensor\n\nFills with Exp(lambd)."),
    FAST("geometric_", m_geometric_, "geometric_(p, *, generator=None) -> Tensor\n\nFills with Geometric(p) on 1, 2, ..."),
    FAST("bernoulli_", m_bernoulli_, "bernoulli_(p=0.5, *, generator=None) -> Tensor\n\nFills with 0/1 draws (p a number or tensor)."),
    FAST("random_", m_random_, "random_(from=0, to=None, *, generator=None) -> Tensor\n\nFills with integers in [from, to)."),
    {NULL},
};

int tl_random_init(PyObject *m)
{
    if (PyType_Ready(&Generator_Type) < 0) return -1;
    Py_INCREF(&Generator_Type);
    if (PyModule_AddObject(m, "Generator", (PyObject *)&Generator_Type) < 0) return -1;
    GeneratorObject *d = (GeneratorObject *)Generator_Type.tp_alloc(&Generator_Type, 0);
    if (!d) return -1;
    d->g = tl_default_generator();
    default_gen_obj = (PyObject *)d;
    Py_INCREF(default_gen_obj);
    return PyModule_AddObject(m, "default_generator", default_gen_obj);
}
