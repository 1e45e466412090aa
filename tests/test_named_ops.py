"""Named tensors on the reductions/indexing/joining/linear-algebra ops (issue 4), for the
differences scripts/difftorch/sweep8_names.py found against torch 1.13 (the last torch with
named tensors). Expected names are derived from seed 003's rules (keeps input names, removes
dims, unifies names from inputs, contracts away dims), not copied from an oracle run."""
import pytest

import tensorlib as tl

NAMES = ("N", "C", "H")


def x3(names=NAMES):
    return tl.arange(24, dtype=tl.float32).reshape(2, 3, 4).refine_names(*names)


def removes(names, dims, keepdim=False):
    """'removes dimensions': the names of the dims reduced over disappear unless keepdim."""
    idx = {names.index(d) if isinstance(d, str) else d % len(names) for d in dims}
    return tuple(n for i, n in enumerate(names) if keepdim or i not in idx)


# ---- reductions that refused names although torch 1.13 supports them ----------------------

@pytest.mark.parametrize("op", ["cummax", "cummin"])
@pytest.mark.parametrize("names", [NAMES, ("N", None, "H")])
@pytest.mark.parametrize("dim", [1, -1, "H"])
def test_cummax_cummin_keep_input_names(op, names, dim):
    x = x3(names)
    for r in (getattr(x, op)(dim), getattr(tl, op)(x, dim)):
        assert r.values.names == names and r.indices.names == names
    out = (tl.empty(2, 3, 4), tl.empty(2, 3, 4, dtype=tl.int64))
    getattr(tl, op)(x, dim, out=out)
    assert out[0].names == names and out[1].names == names


def test_cummax_missing_name():
    with pytest.raises(RuntimeError, match=r"Name 'Z' not found in Tensor\['N', 'C', 'H'\]"):
        x3().cummax("Z")


@pytest.mark.parametrize("op", ["std_mean", "var_mean"])
@pytest.mark.parametrize("dims,keepdim", [((1,), False), (("C",), True), (("N", "H"), False), ((), False)])
def test_std_var_mean_remove_dims(op, dims, keepdim):
    x = x3()
    dim = dims if len(dims) != 1 else dims[0]
    r = getattr(tl, op)(x, dim, keepdim=keepdim) if dims else getattr(tl, op)(x)
    expect = removes(NAMES, dims, keepdim) if dims else ()
    assert r[0].names == expect and r[1].names == expect
    idims = tuple(NAMES.index(d) if isinstance(d, str) else d for d in dims)
    plain = getattr(tl, op)(x.rename(None), idims, keepdim=keepdim) if dims else getattr(tl, op)(x.rename(None))
    assert r[0].shape == plain[0].shape


def test_std_mean_missing_name():
    with pytest.raises(RuntimeError, match=r"Name 'C' not found in Tensor\['N', None, 'H'\]"):
        tl.std_mean(x3(("N", None, "H")), ("N", "C"))
