"""The docstrings of tensorlib's public functions, classes, Tensor methods, operators and properties
(tensorlib/_docstrings.py), in tensorlib and its submodules (linalg, fft, sparse, nn.functional,
testing, cuda, array_api and its linalg and fft): every function has its signature line, summary,
Args (when it takes arguments), Returns and an Example, every class its constructor's call, summary
and Example, every property one line, its type and an Example; every example runs as a doctest
printing what the docstring says (the tl.cuda ones as a build without CUDA, on any machine), and
the composed strings (tensorlib/_docgen.py, by scripts/gen_docs.py) and the name rules taken from
the spec (scripts/doc_rules.tsv) are current."""
import doctest
import importlib.util
import inspect
import os
import pydoc
import re

import pytest

import tensorlib as tl
from tensorlib import _docgen, _docgen_lazy, _docstrings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _gen_docs():
    spec = importlib.util.spec_from_file_location("gen_docs", os.path.join(ROOT, "scripts", "gen_docs.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


GEN = _gen_docs()
COLUMNS = GEN.Columns()  # the signatures and the rules (the examples run below)
DOCUMENTED = GEN.documented()
CLASSES = GEN.public_classes()
PROPERTIES = GEN.public_properties()
DOC = {(owner + "." if owner else "") + name: doc for owner, docs in [*_docgen.DOC.items(), *_docgen_lazy.DOC.items()]
       for name, doc in docs.items()}
import tensorlib.array_api  # noqa: E402  (loads on first use; its docstrings attach then)
import tensorlib.cuda  # noqa: E402

MODULES = ["tensorlib", "tensorlib.linalg", "tensorlib.fft", "tensorlib.special", "tensorlib.sparse", "tensorlib.nn.functional",
           "tensorlib.signal.windows",
           "tensorlib.testing", "tensorlib.cuda", "tensorlib.array_api", "tensorlib.array_api.linalg",
           "tensorlib.array_api.fft"]


def test_every_public_callable_has_a_composed_docstring():
    """Each public function and Tensor method (a method that is the function object itself
    aside), class and Tensor property is in _docgen.DOC, and DOC holds nothing else."""
    assert sorted(q for q, _ in DOCUMENTED + CLASSES + PROPERTIES) == sorted(DOC)
    assert len(DOC) > 1250
    assert {"cuda.is_available", "array_api.sum", "array_api.linalg.solve", "array_api.fft.fft", "Tensor.__add__",
            "Tensor.shape", "Size", "cuda.device"} <= set(DOC)


def _public_objects():
    """(name, object) of every public function and class of each module in MODULES (its __all__, or
    what it binds), every public method, property and documented operator of Tensor: listed here
    directly, not by scripts/gen_docs.py, so that what its filters miss fails too."""
    out = []
    for modname in MODULES:
        mod = importlib.import_module(modname)
        names = getattr(mod, "__all__", None) or [n for n in vars(mod) if not n.startswith("_")]
        for name in names:
            obj = getattr(mod, name)
            if callable(obj) and not isinstance(obj, (tl.dtype, type(tl))):
                out.append(("%s.%s" % (modname, name), obj))
    T = tl.Tensor
    for name in sorted(dir(T)) + GEN.TENSOR_DUNDERS:
        if name.startswith("_") and name not in GEN.TENSOR_DUNDERS:
            continue
        out.append(("Tensor." + name, inspect.getattr_static(T, name)))
    # the public members of the other classes, but for the context-manager protocol (the class's
    # example shows it) and the fields of the named tuples (their class's docstring lists them)
    for qual, obj in [(m, o) for m, o in out if isinstance(o, type) and o is not T and not issubclass(o, BaseException)
                      and not (issubclass(o, tuple) and hasattr(o, "_fields"))]:
        for klass in obj.__mro__:
            if klass.__module__.startswith("tensorlib"):
                out += [("%s.%s" % (qual, n), m) for n, m in vars(klass).items()
                        if not n.startswith("_") and n not in GEN.CLASS_PROTOCOL]
    return out


def test_every_public_name_has_a_docstring_with_an_example():
    missing = [name for name, obj in _public_objects() if "\nExample:\n    >>> " not in (obj.__doc__ or "")]
    assert missing == []
    assert len(_public_objects()) > 1300
    assert {"tensorlib.Generator.manual_seed", "tensorlib.finfo.eps", "tensorlib.dtype.is_complex"} <= {
        n for n, _ in _public_objects()}
    assert {"__add__", "__getitem__", "__len__"} <= set(GEN.TENSOR_DUNDERS)


@pytest.mark.parametrize("qual,obj", DOCUMENTED, ids=[q for q, _ in DOCUMENTED])
def test_docstring_has_every_part(qual, obj):
    doc = obj.__doc__ or ""
    assert doc == DOC.get(qual), "no entry in tensorlib/_docstrings.py for %s" % qual
    sig, params = COLUMNS.SIG[qual]
    assert doc.startswith(sig + "\n\n")
    summary = doc.split("\n")[2]
    assert len(summary) > 15 and summary.endswith("."), summary
    if params:
        args = doc.split("\nArgs:\n", 1)[1].split("\n\n", 1)[0].split("\n")
        assert [a.split(":")[0].strip() for a in args] == [p.lstrip("*") for p in params]
        assert all(len(a.split(":", 1)[1].strip()) > 5 for a in args), args
    else:
        assert "\nArgs:" not in doc
    assert re.search(r"\nReturns:\n    \S", doc), doc
    assert "\nExample:\n    >>> " in doc, doc
    name = qual.rsplit(".", 1)[-1]
    twin = name if qual.startswith("Tensor.") else "Tensor." + name if qual == name else None
    assert ("\nNamed tensors: " in doc) == bool(COLUMNS.RULE.get(qual) or COLUMNS.RULE.get(twin))
    assert ("\nSparse: " in doc) == bool(COLUMNS.SPARSE.get(qual) or COLUMNS.SPARSE.get(twin))


@pytest.mark.parametrize("qual,cls", CLASSES, ids=[q for q, _ in CLASSES])
def test_class_docstring_has_every_part(qual, cls):
    doc = cls.__doc__ or ""
    assert doc == DOC.get(qual), "no entry in tensorlib/_docstrings.py for %s" % qual
    sig, summary, _code, args = _docstrings.CLASSES[qual]
    name = qual.rsplit(".", 1)[-1]
    assert sig.startswith((name + "(", "class tensorlib.")) and doc.startswith(sig + "\n\n")
    assert len(summary) > 15 and summary.endswith("."), summary
    if sig.startswith(name + "(") and sig != name + "()" and "(*args, **kwargs)" not in sig:
        params = [p.split("=")[0].strip().lstrip("*") for p in sig[len(name) + 1:sig.rindex(")")].split(",")]
        assert [p for p in params if p not in ("", "/")] == list(a.lstrip("*") for a in args), qual
    assert "\nExample:\n    >>> " in doc, doc


@pytest.mark.parametrize("qual,prop", PROPERTIES, ids=[q for q, _ in PROPERTIES])
def test_property_docstring_has_every_part(qual, prop):
    doc = prop.__doc__ or ""
    assert doc == DOC.get(qual), "no entry in tensorlib/_docstrings.py for %s" % qual
    summary = doc.split("\n")[0]
    assert len(summary) > 15 and summary.endswith("."), summary
    assert re.search(r"\n\nType:\n    \S", doc) and "\nExample:\n    >>> " in doc, doc


def _examples():
    """(entry key, qualname, object) of each entry's example once (a shared entry is tested on the
    first callable using it)."""
    seen, out = set(), []
    for qual, obj in DOCUMENTED:
        key = (_docstrings.entry(qual) or (qual,))[0]  # none: test_docstring_has_every_part fails
        if key not in seen:
            seen.add(key)
            out.append((key, qual, obj))
    return out + [(q, q, obj) for q, obj in CLASSES + PROPERTIES]


EXAMPLES = _examples()


@pytest.mark.parametrize("key,qual,obj", EXAMPLES, ids=[q for _, q, _ in EXAMPLES])
def test_docstring_example_runs(key, qual, obj):
    test = doctest.DocTestParser().get_doctest(obj.__doc__, GEN.example_globals(), qual, None, 0)
    assert test.examples
    tl.manual_seed(0)  # as scripts/gen_docs.py does before running an example
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    try:
        with GEN.example_state(key):  # tl.cuda's examples: a build without CUDA, as gen_docs runs them
            runner.run(test)
    finally:
        tl.set_printoptions(profile="default")  # what the examples of the global settings change
        tl.set_default_dtype(tl.float32)
        tl.set_default_device(None)
    assert runner.failures == 0 and runner.tries == len(test.examples)


def test_sparse_notes_hold():
    """An op documented to work on every sparse layout does, keeping the layout."""
    x = tl.tensor([[0.0, 0.5], [0.25, 0.0]])
    checked = 0
    for qual, obj in DOCUMENTED:
        doc = obj.__doc__
        layouts = ("to_sparse", "to_sparse_csr", "to_sparse_csc") if "on every sparse layout" in doc else (
            ("to_sparse_csr", "to_sparse_csc") if "on the compressed layouts" in doc else ())
        for make in layouts:
            s = getattr(x, make)()
            y = obj(s)
            assert y.layout == s.layout, (qual, make)
            checked += 1
    assert checked > 50


def test_help_prints_the_docstring():
    text = pydoc.render_doc(tl.add, renderer=pydoc.plaintext)  # what help(tl.add) prints
    assert "Args:" in text and "alpha" in text and ">>> tl.add(" in text and len(text) > 400
    assert tl.Tensor.numel.__doc__.startswith("numel()")


def test_c_functions_have_an_inspect_signature():
    """The gated C functions expose __text_signature__ (from their docstring's first line)."""
    assert type(tl.add).__name__ == "builtin_function"
    assert str(inspect.signature(tl.add)) == "(input, other, *, alpha=1, out=None)"
    assert list(inspect.signature(tl.Tensor.add).parameters) == ["self", "other", "alpha"]
    assert list(inspect.signature(tl.ones(2).add).parameters) == ["other", "alpha"]


def test_return_types_print_as_torch():
    """Multi-result ops print as torch's structseqs: qualified name, one field a line."""
    torch = pytest.importorskip("torch")
    for fn in (lambda m: m.sort(m.tensor([[3, 1], [2, 5]])), lambda m: m.linalg.slogdet(m.tensor([[0., 2.], [3., 0.]]))):
        assert repr(fn(tl)) == repr(fn(torch)).replace("torch.", "tensorlib.")


def test_operators_properties_and_classes_carry_their_docstrings():
    """_C._add_docstr reaches an operator slot (its own copy: int's and object's slots keep theirs,
    inspect still reads CPython's signature), a C property and a C class; help() shows them."""
    assert tl.Tensor.__add__.__doc__.startswith("__add__(other) -> Tensor\n\nImplements ``self + other``")
    assert str(inspect.signature(tl.Tensor.__add__)) == "(self, value, /)"
    assert int.__add__.__doc__ == "Return self+value." and object.__eq__.__doc__ == "Return self==value."
    assert tl.Tensor.shape.__doc__.startswith("The size of each dim.\n\nType:\n    tensorlib.Size")
    assert tl.Size.__doc__.startswith("Size(sizes=())\n\n") and tl.dtype.__doc__.startswith("class tensorlib.dtype")
    text = pydoc.render_doc(tl.Tensor, renderer=pydoc.plaintext)
    assert ">>> x[x > 3]" in text and "Type:" in text
    assert "Example:" in pydoc.render_doc(tl.cuda.current_device, renderer=pydoc.plaintext)
    with pytest.raises(TypeError):
        tl._C._add_docstr(tl.finfo, "x")  # a Python class: set its __doc__


def test_cuda_examples_run_as_a_build_without_cuda():
    """The examples' tl.cuda state is a build without the backend, whatever this machine has, and
    it is restored after."""
    import tensorlib.cuda as c
    before = c._module(), c._looked, c._initialized
    with GEN.example_state("cuda.current_device"):
        assert not c.is_available() and not c.is_built()
        with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
            c.current_device()
    assert (c._backend, c._looked, c._initialized) == before


def test_add_docstr_refuses_what_is_not_a_c_function():
    with pytest.raises(TypeError):
        tl._C._add_docstr(lambda: None, "x")
    with pytest.raises(TypeError):
        tl._C._add_docstr(tl.mm, 3)


def test_generated_docstrings_are_current():
    """_docgen.py equals what scripts/gen_docs.py composes now (the examples re-run with tensorlib;
    the name rules from scripts/doc_rules.tsv, or from the spec when it is beside the repository),
    and no example prints other than torch does."""
    report = []
    for path, text in GEN.generate(report).items():
        with open(path) as f:
            assert f.read() == text, "run .venv/bin/python scripts/gen_docs.py"
    assert report == []


@pytest.mark.skipif(not os.path.exists(_gen_docs().DEFAULT_SPEC), reason="the spec (../shared) is not beside the repo")
def test_name_rules_follow_the_spec():
    with open(GEN.RULES_PATH) as f:
        assert f.read() == GEN.rules_text(GEN.DEFAULT_SPEC), "run .venv/bin/python scripts/gen_docs.py"
