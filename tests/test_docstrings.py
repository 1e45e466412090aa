"""The examples in the public docstrings run as doctests (tensorlib's printing) and each
documented function's docstring is a real one (signature line and more than a stub)."""
import doctest

import pytest

import tensorlib as tl

DOCUMENTED = [tl.sum, tl.prod, tl.mean, tl.cat, tl.stack, tl.arange, tl.linspace, tl.zeros_like, tl.ones_like,
              tl.full_like, tl.eye, tl.flip, tl.clamp, tl.where, tl.masked_fill, tl.allclose, tl.var, tl.std,
              tl.amax, tl.amin, tl.argmax, tl.cumsum, tl.svd_lowrank, tl.pca_lowrank, tl.lobpcg]


@pytest.mark.parametrize("fn", DOCUMENTED, ids=lambda f: f.__name__)
def test_docstring_examples_run(fn):
    doc = fn.__doc__ or ""
    assert doc.startswith(fn.__name__ + "(") and len(doc) > 200, doc
    tests = doctest.DocTestFinder().find(fn, fn.__name__, globs={"tl": tl})
    examples = sum(len(t.examples) for t in tests)
    assert examples >= 1
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for t in tests:
        runner.run(t)
    assert runner.failures == 0 and runner.tries == examples
