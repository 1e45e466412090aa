"""Names through elementwise ops (seed 003): unary ops keep names, binary ops unify
names from the right with the seed's two checks and messages, out=/in-place semantics."""
import re

import pytest

import tensorlib as tl


def named(*names, shape=None):
    shape = shape or (2,) * len(names)
    return tl.ones(*shape, names=names)


def test_unary_keeps_names():
    x = named("N", "C")
    for f in (tl.exp, tl.abs, tl.neg, tl.isnan, tl.sigmoid, lambda t: t.clamp(0, 1), lambda t: tl.round(t, decimals=1)):
        assert f(x).names == ("N", "C")
    y = x.clone()
    y.exp_()
    assert y.names == ("N", "C")


def test_seed_example_unify():
    t = tl.randn(3, 3, names=("N", None)) if hasattr(tl, "randn") else tl.ones(3, 3, names=("N", None))
    o = tl.ones(3, 3, names=(None, "C"))
    assert (t + o).names == ("N", "C")
    assert tl.mul(t, o).names == ("N", "C")
    assert (t < o).names == ("N", "C")


def test_broadcast_from_right_with_unnamed_and_scalars():
    x = named("N", "C")
    assert (x + tl.ones(2)).names == ("N", "C")
    assert (x * 2).names == ("N", "C")
    assert (2 - x).names == ("N", "C")
    assert (tl.ones(3, 2, 2) + x).names == (None, "N", "C")


def test_mismatch_error_message():
    t = tl.ones(3, 3, names=("N", "C"))
    o = tl.ones(3, names=("N",))
    with pytest.raises(RuntimeError, match=r"Error when attempting to broadcast dims \['N', 'C'\] and dims \['N'\]: "
                                           r"dim 'C' and dim 'N' are at the same position from the right but do not match."):
        t + o


def test_misaligned_error_message():
    t = tl.ones(3, 3, names=("N", None))
    o = tl.ones(3, names=("N",))
    with pytest.raises(RuntimeError, match=r"Misaligned dims when attempting to broadcast dims \['N'\] and dims "
                                           r"\['N', None\]: dim 'N' appears in a different position from the right "
                                           r"across both lists."):
        t + o


def test_inplace_and_out_names():
    x = tl.ones(2, 2)
    x.add_(named("N", "C"))
    assert x.names == ("N", "C")
    out = tl.empty(2, 2)
    tl.add(named("N", None), named(None, "C"), out=out)
    assert out.names == ("N", "C")
    bad = tl.empty(2, 2, names=("A", "B")).fill_(5)
    # torch 1.13's text (NamedTensorUtils assert_names_equal); nothing is written
    with pytest.raises(RuntimeError, match=re.escape(
            "Name mismatch: specified out tensor with names ['A', 'B'] are not the same as the computed output names "
            "['N', 'C']. Please rename the out tensor's dims with `Tensor.rename`.")):
        tl.add(named("N", "C"), named("N", "C"), out=bad)
    assert bad.tolist() == [[5, 5], [5, 5]] and bad.names == ("A", "B")
    partly = tl.empty(2, 2, names=("N", None))
    with pytest.raises(RuntimeError, match="Name mismatch"):
        tl.add(named("N", "C"), 1, out=partly)
    keep = tl.empty(2, 2, names=("A", "B")).fill_(5)
    # an unnamed result computes names (None, None): a named out does not match (torch 1.13 too)
    with pytest.raises(RuntimeError, match=re.escape("computed output names [None, None]")):
        tl.add(tl.ones(2, 2), 1, out=keep)
    assert keep.tolist() == [[5, 5], [5, 5]] and keep.names == ("A", "B")
    y = named("N", "C")
    with pytest.raises(RuntimeError, match="do not match"):
        y.add_(named("C", "N"))
    assert y.names == ("N", "C")


def test_align_as_then_add():
    a = tl.ones(2, 3, names=("N", "C"))
    b = tl.ones(3, names=("C",))
    assert (a + b.align_as(a)).names == ("N", "C")
    c = tl.ones(3, 2, names=("C", "N"))
    assert (a + c.align_as(a)).shape == (2, 3)
    assert (a + c.align_to("N", "C")).names == ("N", "C")


def test_where_unifies():
    a = named("N", "C")
    assert tl.where(a > 0, a, tl.zeros(2)).names == ("N", "C")
    assert a.masked_fill(a > 0, 0).names == ("N", "C")


def test_copy_follows_out_semantics():
    # seed 003 lists copy_ under the out= semantics: an unnamed self takes the computed names,
    # names that do not match are an error raised before anything is written
    x = tl.zeros(2, 3, names=("N", "C"))
    with pytest.raises(RuntimeError, match=re.escape("Error when attempting to broadcast dims ['N', 'C'] and dims "
                                                     "['N', 'D']")):
        x.copy_(tl.ones(2, 3, names=("N", "D")))
    assert x.tolist() == [[0, 0, 0], [0, 0, 0]]
    assert tl.ones(2, 3).copy_(x).names == ("N", "C")
    assert tl.ones(2, 3).copy_(x[0]).names == (None, "C")
    assert x.copy_(tl.ones(3)).names == ("N", "C")
    assert x.copy_(tl.ones(3, names=("C",))).names == ("N", "C")
