"""Named tensors, second part (seed 003; torch 1.13 checked by hand where it supports the op):
out= and resize_as_ name checks, unflatten forms, rsub, argmax/argmin without a dim, and the
name rules of flip/roll/rot90/repeat/tile/tril/triu/trace/gather/scatter/put_/renorm/cross/
addr/addbmm. Values are compared with the same op on unnamed tensors."""
import collections
import re

import numpy as np
import pytest

import tensorlib as tl

MISMATCH = "Name mismatch: specified out tensor with names {} are not the same as the computed output names {}."


def named(*names, shape=None, dtype=tl.float32):
    shape = shape or tuple(range(2, 2 + len(names)))
    return tl.tensor(np.random.default_rng(len(names)).standard_normal(shape), dtype=dtype).refine_names(*names)


def same_values(a, b):
    assert a.shape == b.shape and a.dtype == b.dtype
    np.testing.assert_array_equal(a.rename(None).numpy(), b.rename(None).numpy())


# ---- out= and resize_as_ ----------------------------------------------------------------------

OUT_OPS = {
    "add": lambda x, y, out: tl.add(x, y, out=out),
    "abs": lambda x, y, out: tl.abs(x, out=out),
    "clamp": lambda x, y, out: tl.clamp(x, -0.5, 0.5, out=out),
    "where": lambda x, y, out: tl.where(x > 0, x, y, out=out),
    "mm": lambda x, y, out: tl.mm(x, y.t(), out=out),
    "cat": lambda x, y, out: tl.cat([x[:1], x[1:]], out=out),
    "sum": lambda x, y, out: tl.sum(x.unsqueeze(2), 2, out=out),
    "cumsum": lambda x, y, out: tl.cumsum(x, 0, out=out),
    "tril": lambda x, y, out: tl.tril(x, out=out),
    "outer": lambda x, y, out: tl.outer(x[:, 0], y[0], out=out),
    "rand": lambda x, y, out: tl.rand(3, 3, out=out),
    "eye": lambda x, y, out: tl.eye(3, out=out),
}


@pytest.mark.parametrize("op", sorted(OUT_OPS))
def test_named_out_must_match_unnamed_result(op):
    """seed 003: a named out must carry exactly the computed names; an unnamed result computes
    (None, None), so it does not match (tensorlib used to keep out's names)."""
    x, y = tl.rand(3, 3), tl.rand(3, 3)
    out = tl.full((3, 3), 7.0, names=("P", "Q"))
    with pytest.raises(RuntimeError, match=re.escape(MISMATCH.format("['P', 'Q']", "[None, None]"))):
        OUT_OPS[op](x, y, out)
    assert out.names == ("P", "Q") and (out == 7).all()  # nothing written
    free = tl.full((3, 3), 7.0)
    OUT_OPS[op](x, y, free)
    assert free.names == (None, None)


def test_named_out_names_differ_from_result():
    x = named("A", "B", shape=(2, 3))
    out = tl.zeros(2, 3, names=("A", "C"))
    with pytest.raises(RuntimeError, match=re.escape(MISMATCH.format("['A', 'C']", "['A', 'B']"))):
        tl.add(x, x, out=out)
    with pytest.raises(RuntimeError, match=re.escape(MISMATCH.format("['A', 'C']", "['A', 'B']"))):
        tl.sum(x.align_to("A", "B", "K"), "K", out=out)
    assert (out == 0).all()
    ok = tl.zeros(2, 3, names=("A", "B"))
    tl.add(x, x, out=ok)
    same_values(ok, (x + x))
    plain = tl.zeros(2, 3)
    tl.mul(x, 2, out=plain)
    assert plain.names == ("A", "B")


def test_named_out_is_never_resized():
    """torch: 'Cannot resize named tensor' for a named out of another shape (tensorlib resized it)."""
    x = named("A", "B", shape=(2, 3))
    out = tl.empty(0, names=("A",))
    msg = ("Cannot resize named tensor with resize_ or resize_as_ (tried to resize Tensor['A'] with size [0] to "
           "[2, 3]). This may be caused by passing a named tensor as an `out=` argument; please ensure that the "
           "sizes are the same.")
    with pytest.raises(RuntimeError, match=re.escape(msg)):
        tl.add(x, x, out=out)
    with pytest.raises(RuntimeError, match=re.escape(msg)):
        tl.sum(x.align_to("A", "B", "K"), "K", out=out)
    assert out.shape == (0,) and out.names == ("A",)


def test_resize_as_names():
    x = named("A", "B", shape=(2, 3))
    t = tl.empty(2, 3, names=("A", "C"))
    with pytest.raises(RuntimeError, match=re.escape(MISMATCH.format("['A', 'C']", "['A', 'B']"))):
        t.resize_as_(x)
    with pytest.raises(RuntimeError, match=re.escape(MISMATCH.format("['A', 'C']", "[None, None]"))):
        t.resize_as_(x.rename(None))
    with pytest.raises(RuntimeError, match=re.escape(MISMATCH.format("[None, 'B']", "['A', 'B']"))):
        tl.empty(2, 3, names=(None, "B")).resize_as_(x)
    assert t.names == ("A", "C")
    with pytest.raises(RuntimeError, match=re.escape("tried to resize Tensor['A'] with size [3] to [2, 3]")):
        tl.empty(3, names=("A",)).resize_as_(x)
    assert tl.empty(2, 3, names=("A", "B")).resize_as_(x).names == ("A", "B")
    grown = tl.empty(3).resize_as_(x)  # an unnamed tensor takes the template's shape and names
    assert grown.shape == (2, 3) and grown.names == ("A", "B")
    assert tl.empty(3).resize_as_(x.rename(None)).names == (None, None)


# ---- unflatten ---------------------------------------------------------------------------------

@pytest.mark.parametrize("form", ["tuple", "list", "ordereddict", "minus_one"])
def test_unflatten_named_shape_forms(form):
    y = named("A", "B", shape=(2, 6))
    shape = {"tuple": (("C", 2), ("D", 3)), "list": [["C", 2], ["D", 3]],
             "ordereddict": collections.OrderedDict([("C", 2), ("D", 3)]), "minus_one": [("C", 2), ("D", -1)]}[form]
    u = y.unflatten("B", shape)
    assert u.names == ("A", "C", "D")
    same_values(u, y.rename(None).unflatten(1, (2, 3)))
    assert tl.unflatten(y, "B", shape).names == ("A", "C", "D")


def test_unflatten_plain_sizes_on_named_raise_as_torch():
    y = named("A", "B", shape=(2, 6))
    with pytest.raises(TypeError, match=re.escape("unflatten(): argument 'dim' (position 1) must be int, not str")):
        y.unflatten("B", (2, 3))
    msg = "unflatten: input is a named tensor but no names were given for unflattened sizes"
    for t in (y, y.rename("A", None)):  # any named dim counts
        with pytest.raises(RuntimeError, match=msg):
            t.unflatten(1, (2, 3))
    with pytest.raises(RuntimeError, match=re.escape(
            "unflatten: Provided sizes [2, 4] don't multiply up to the size of dim 1 ('B': 6) in Tensor['A', 'B']")):
        y.unflatten("B", (("C", 2), ("D", 4)))
    with pytest.raises(RuntimeError, match="duplicate names"):
        y.unflatten("B", (("C", 2), ("A", 3)))
    with pytest.raises(RuntimeError, match="sizes must be non-empty"):
        y.unflatten("B", ())
    assert y.unflatten("B", (("C", 2), (None, 3))).names == ("A", "C", None)
    assert tl.zeros(2, 6).unflatten(-1, (2, -1)).names == (None, None, None)


# ---- rsub -------------------------------------------------------------------------------------

def _torch():
    return pytest.importorskip("torch")


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64", "complex64", "uint8"])
@pytest.mark.parametrize("other", ["tensor", "int", "float", "zero_d"])
@pytest.mark.parametrize("alpha", [1, 2, 0.5])
def test_rsub_matches_torch(dtype, other, alpha):
    torch = _torch()
    rng = np.random.default_rng(0)
    a = (rng.standard_normal((3, 4)) * 10).astype(dtype)
    b = (rng.standard_normal((4,)) * 10).astype(dtype)
    o = {"tensor": (tl.tensor(b), torch.tensor(b)), "int": (3, 3), "float": (2.5, 2.5),
         "zero_d": (tl.tensor(2.5, dtype=tl.float64), torch.tensor(2.5, dtype=torch.float64))}[other]
    try:
        want = torch.rsub(torch.tensor(a), o[1], alpha=alpha)
    except RuntimeError as e:  # integral tensors with a float alpha
        with pytest.raises(RuntimeError, match=re.escape(str(e))):
            tl.rsub(tl.tensor(a), o[0], alpha=alpha)
        return
    got = tl.rsub(tl.tensor(a), o[0], alpha=alpha)
    assert str(got.dtype).split(".")[1] == str(want.dtype).split(".")[1]
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)


def test_rsub_errors_and_names():
    b = tl.tensor([True, False])
    with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with two bool tensors is not supported"):
        tl.rsub(b, True)
    with pytest.raises(TypeError, match=re.escape("rsub(): argument 'input' (position 1) must be Tensor, not int")):
        tl.rsub(2, tl.ones(2))
    with pytest.raises(TypeError, match=re.escape("rsub(): argument 'other' (position 2) must be Tensor or Number")):
        tl.rsub(tl.ones(2), "a")
    x = named("A", "B", shape=(2, 3))
    same_values(tl.rsub(x, 1.5, alpha=2), tl.sub(1.5, x.rename(None), alpha=2))
    assert tl.rsub(x, 1.5).names == ("A", "B")
    assert tl.rsub(x, tl.ones(3, names=(None,))).names == ("A", "B")
    assert tl.rsub(tl.zeros(2, 3, names=("A", None)), tl.ones(3, names=("C",))).names == ("A", "C")
    # other comes first in the message, as in torch 1.13 (rsub is sub(other, input))
    with pytest.raises(RuntimeError, match=re.escape(
            "Error when attempting to broadcast dims ['C'] and dims ['A', 'B']: dim 'C' and dim 'B' are at the same "
            "position from the right but do not match.")):
        tl.rsub(x, tl.ones(3, names=("C",)))


# ---- argmax / argmin without a dim ------------------------------------------------------------

@pytest.mark.parametrize("op", ["argmax", "argmin"])
@pytest.mark.parametrize("names", [("A", "B"), ("A", None)])
def test_argmax_argmin_without_dim_on_named(op, names):
    """A full reduction removes every dim (as x.max() in torch 1.13: names ()); keepdim keeps them.
    torch 1.13 refused argmax/argmin on named tensors altogether; seed 003 lists both as
    reductions, which remove dims."""
    x = named(*names, shape=(3, 4))
    plain = x.rename(None)
    r = getattr(x, op)()
    assert r.names == () and r.dim() == 0
    same_values(r, getattr(plain, op)())
    k = getattr(tl, op)(x, keepdim=True)
    assert k.names == names and k.shape == (1, 1)
    same_values(k, getattr(plain, op)(keepdim=True))
    out = tl.empty(1, 1, dtype=tl.int64, names=names)
    getattr(tl, op)(x, None, True, out=out)
    same_values(out, k)
    with pytest.raises(RuntimeError, match="Name mismatch"):
        getattr(tl, op)(x, None, True, out=tl.empty(1, 1, dtype=tl.int64, names=("P", "Q")))
    assert getattr(x, op)("A").names == names[1:]


# ---- ops that refused names: each with its rule ------------------------------------------------

X = ("A", "B")
IDX = tl.tensor([[0, 2, 1], [1, 0, 0]])


KEEPS = {  # op -> (call, expected names); 'keeps input names' unless said otherwise
    "flip": (lambda t: t.flip(0), X), "flip_name": (lambda t: t.flip("B"), X),
    "roll": (lambda t: t.roll(1, 0), X), "roll_flat": (lambda t: t.roll(2), X),
    "roll_two": (lambda t: t.roll((1, 2), (0, "B")), X),
    "rot90": (lambda t: t.rot90(), X), "rot90_k2": (lambda t: t.rot90(2), X), "rot90_k3": (lambda t: t.rot90(-1), X),
    "repeat": (lambda t: t.repeat(2, 3), X), "repeat_grows": (lambda t: t.repeat(2, 1, 1), (None,) + X),
    "tile": (lambda t: t.tile((2,)), X), "tile_grows": (lambda t: t.tile((2, 1, 1)), (None,) + X),
    "tril": (lambda t: t.tril(), X), "triu": (lambda t: tl.triu(t, 1), X),
    "tril_": (lambda t: t.clone().tril_(-1), X), "triu_": (lambda t: t.clone().triu_(), X),
    "renorm": (lambda t: t.renorm(2, 0, 1.0), X), "renorm_name": (lambda t: t.renorm(1, "B", 0.5), X),
    "trace": (lambda t: t[:, :2].trace(), ()),
    "gather": (lambda t: t.gather(1, IDX), X), "gather_name": (lambda t: t.gather("B", IDX.refine_names("A", None)), X),
    "scatter": (lambda t: t.scatter(1, IDX, t), X), "scatter_value": (lambda t: t.scatter(1, IDX, 2.0), X),
    "scatter_add": (lambda t: t.scatter_add(1, IDX, t), X),
    "put_": (lambda t: t.clone().put_(tl.tensor([0, 5]), tl.tensor([9.0, 8.0])), X),
}


BY_NAME = ("flip_name", "roll_two", "renorm_name", "gather_name")  # take the dim 'B' by name


@pytest.mark.parametrize("op", sorted(KEEPS))
@pytest.mark.parametrize("names", [X, ("A", None)])
def test_rule_names_and_values(op, names):
    fn, want = KEEPS[op]
    if op in BY_NAME and names != X:
        pytest.skip("needs the name 'B'")
    x = named(*names, shape=(2, 3))
    r = fn(x)
    assert r.names == tuple(None if w == "B" and names[1] is None else w for w in want)
    plain = fn(x.rename(None).refine_names(*X) if op in BY_NAME else x.rename(None))
    same_values(r, plain.rename(None))
    assert x.names == names  # input untouched


def test_gather_scatter_unify_index_with_self():
    x = named("A", "B", shape=(2, 3))
    assert x.rename(None).gather(1, IDX.refine_names("P", "Q")).names == ("P", "Q")
    bad = IDX.refine_names("A", "C")
    msg = re.escape("Error when attempting to broadcast dims ['A', 'B'] and dims ['A', 'C']: dim 'B' and dim 'C'")
    with pytest.raises(RuntimeError, match=msg):
        x.gather(1, bad)
    y = x.clone()
    with pytest.raises(RuntimeError, match=msg):
        y.scatter_(1, bad, 1.0)
    same_values(y, x)  # refused before any write
    with pytest.raises(RuntimeError, match="do not match"):
        x.scatter(1, IDX, x.rename("A", "Z"))  # src unifies too
    z = tl.zeros(2, 3)
    z.scatter_(1, IDX.refine_names("P", None), 1.0)  # in place: self takes the computed names
    assert z.names == ("P", None)
    same_values(z, tl.zeros(2, 3).scatter_(1, IDX, 1.0))


def test_cross_unifies():
    a = named("A", "B", "C", shape=(2, 3, 3))
    b = tl.tensor(np.arange(18.0).reshape(2, 3, 3), dtype=tl.float32)
    r = tl.cross(a, b, dim=2)
    assert r.names == ("A", "B", "C")
    same_values(r, tl.cross(a.rename(None), b, dim=2))
    assert tl.cross(a, b.refine_names(None, None, "C"), dim="C").names == ("A", "B", "C")
    assert tl.cross(a.rename(None), b.refine_names("P", None, None), dim=2).names == ("P", None, None)
    with pytest.raises(RuntimeError, match="dim 'C' and dim 'D' are at the same position"):
        tl.cross(a, b.refine_names("A", "B", "D"), dim=2)


def test_outer_addr_contract():
    v1, v2 = named("P", shape=(2,)), named("Q", shape=(3,))
    x = named("A", "B", shape=(2, 3))
    assert tl.outer(v1, v2).names == ("P", "Q")
    same_values(tl.outer(v1, v2), tl.outer(v1.rename(None), v2.rename(None)))
    r = tl.addr(x.rename(None), v1, v2, beta=0.5, alpha=2)
    assert r.names == ("P", "Q")
    same_values(r, tl.addr(x.rename(None), v1.rename(None), v2.rename(None), beta=0.5, alpha=2))
    assert tl.addr(x, v1.rename(None), v2.rename(None)).names == ("A", "B")
    assert tl.addr(x.rename("A", None), v1.rename(None), v2).names == ("A", "Q")
    with pytest.raises(RuntimeError, match="dim 'B' and dim 'Q' are at the same position"):
        tl.addr(x, v1, v2)
    with pytest.raises(RuntimeError, match=re.escape("would produce output tensor with duplicate names ['P', 'P']")):
        tl.outer(v1, v1)


def test_addbmm_baddbmm_contract():
    b1, b2 = named("K", "A", "M", shape=(4, 2, 5)), named("K", "M", "B", shape=(4, 5, 3))
    x = named("A", "B", shape=(2, 3))
    r = tl.addbmm(x.rename(None), b1, b2)
    assert r.names == ("A", "B")  # batch dim summed away, the contracted 'M' gone
    np.testing.assert_allclose(r.numpy(), tl.addbmm(x.rename(None), b1.rename(None), b2.rename(None)).numpy(),
                               rtol=1e-5)
    assert tl.addbmm(x.rename("A", None), b1.rename(None), b2).names == ("A", "B")
    with pytest.raises(RuntimeError, match="matmul: Expected 'K'"):
        tl.addbmm(x, b1, b2.rename("J", "M", "B"))
    with pytest.raises(RuntimeError, match="dim 'Z' and dim 'B' are at the same position"):
        tl.addbmm(x.rename("A", "Z"), b1, b2)
    assert tl.baddbmm(tl.zeros(4, 2, 3), b1, b2).names == ("K", "A", "B")
