"""The docstrings of tensorlib's public functions and Tensor methods (tensorlib/_docstrings.py):
every one has its signature line, summary, Args (when it takes arguments), Returns and an Example,
every example runs as a doctest printing what the docstring says, and the composed strings
(tensorlib/_docgen.py, by scripts/gen_docs.py) and the name rules taken from the spec
(scripts/doc_rules.tsv) are current."""
import doctest
import importlib.util
import inspect
import os
import pydoc
import re

import pytest

import tensorlib as tl
from tensorlib import _docgen, _docstrings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _gen_docs():
    spec = importlib.util.spec_from_file_location("gen_docs", os.path.join(ROOT, "scripts", "gen_docs.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


GEN = _gen_docs()
COLUMNS = GEN.Columns()  # the signatures and the rules (the examples run below)
DOCUMENTED = GEN.documented()
DOC = {(owner + "." if owner else "") + name: doc for owner, docs in _docgen.DOC.items() for name, doc in docs.items()}


def test_every_public_callable_has_a_composed_docstring():
    """Each public function and Tensor method (a method that is the function object itself
    aside) is in _docgen.DOC, and DOC holds nothing else."""
    assert sorted(q for q, _ in DOCUMENTED) == sorted(DOC)
    assert len(DOC) > 900


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


def _examples():
    """Each entry's example once (a shared entry is tested on the first callable using it)."""
    seen, out = set(), []
    for qual, obj in DOCUMENTED:
        key = _docstrings.entry(qual)[0]
        if key not in seen:
            seen.add(key)
            out.append((qual, obj))
    return out


EXAMPLES = _examples()


@pytest.mark.parametrize("qual,obj", EXAMPLES, ids=[q for q, _ in EXAMPLES])
def test_docstring_example_runs(qual, obj):
    test = doctest.DocTestParser().get_doctest(obj.__doc__, {"tl": tl}, qual, None, 0)
    assert test.examples
    tl.manual_seed(0)  # as scripts/gen_docs.py does before running an example
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    try:
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
    with open(GEN.OUT_PATH) as f:
        assert f.read() == GEN.generate(report), "run .venv/bin/python scripts/gen_docs.py"
    assert report == []


@pytest.mark.skipif(not os.path.exists(_gen_docs().DEFAULT_SPEC), reason="the spec (../shared) is not beside the repo")
def test_name_rules_follow_the_spec():
    with open(GEN.RULES_PATH) as f:
        assert f.read() == GEN.rules_text(GEN.DEFAULT_SPEC), "run .venv/bin/python scripts/gen_docs.py"
