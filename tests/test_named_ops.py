"""Named tensors on the reductions/indexing/joining/linear-algebra ops (issue 4), for the
differences tests/difftorch/sweep8_names.py found against torch 1.13 (the last torch with
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


# ---- rename / refine_names / align_to with the Ellipsis literal; flatten(start, end, out_dim) ---

def test_ellipsis_literal_is_the_same_as_the_string():
    x = x3()
    for e in (..., "..."):
        assert x.rename("A", e).names == ("A",) + NAMES[1:]
        assert x.rename("A", e, "W").names == ("A", NAMES[1], "W")
        assert x3((None, None, None)).refine_names(e, "W").names == (None, None, "W")
        assert x3(("N", None, "H")).refine_names("N", e).names == ("N", None, "H")
        assert x3(("N", None, "H")).refine_names(e, "N", "Q", "H").names == ("N", "Q", "H")
        assert x.refine_names(e).names == NAMES
        assert x.align_to("H", e).names == ("H", "N", "C")
        assert x.align_to(e, "N").names == ("C", "H", "N")
    with pytest.raises(RuntimeError, match=r"More than one Ellipsis"):
        x.rename(..., "Q", ...)


def test_align_to_ellipsis_covers_unnamed_dims():
    x = x3(("N", None, "H"))
    a = x.align_to("H", ...)
    assert a.names == ("H", "N", None)
    assert a.shape == (4, 2, 3)
    assert (a.rename(None) == x.rename(None).permute(2, 0, 1)).all()
    b = x.align_to("W", "H", ...)  # a name x lacks becomes a size-1 dim
    assert b.names == ("W", "H", "N", None) and b.shape == (1, 4, 2, 3)
    with pytest.raises(RuntimeError, match="All input dims must be named. Found unnamed dim at index 1"):
        x.align_to("H", "N")


def test_align_to_duplicate_names():
    with pytest.raises(RuntimeError, match=r"duplicate names. Got names: \['N', 'C', 'H', 'N'\]"):
        x3().align_to("N", ..., "N")


def test_refine_names_errors_as_torch():
    xp = x3(("N", None, "H"))
    with pytest.raises(RuntimeError, match=r"because 'H' is different from 'Q' at index 2"):
        xp.refine_names("N", "C", "Q")
    with pytest.raises(RuntimeError, match=r"because 'N' is more specific than None at index 0"):
        xp.refine_names(None, "C", "H")
    with pytest.raises(RuntimeError, match=r"different number of dims \(3 and 4 respectively\)"):
        x3((None, None, None)).refine_names("A", "B", ..., "C", "D")


@pytest.mark.parametrize("start,end", [("N", "C"), (0, 1), ("C", "H"), (1, -1)])
def test_flatten_range_with_out_dim(start, end):
    x = x3()
    s = NAMES.index(start) if isinstance(start, str) else start % 3
    e = NAMES.index(end) if isinstance(end, str) else end % 3
    r = x.flatten(start, end, "M")
    assert r.names == NAMES[:s] + ("M",) + NAMES[e + 1:]
    assert r.shape == x.rename(None).flatten(s, e).shape
    with pytest.raises(RuntimeError, match="start_dim cannot come after end_dim"):
        x.flatten(end, start, "M") if s != e else x.flatten(2, 0, "M")


# ---- masked_fill: names of input unified with the mask's (unifies names from inputs) -------

def test_masked_fill_unifies_with_mask_names():
    x, b = x3(), x3() > 3
    xu = x.rename(None)
    assert xu.masked_fill(b, 0.0).names == NAMES
    assert xu.masked_fill(b[0, 0], 0.0).names == (None, None, "H")  # broadcast mask, from the right
    assert x.masked_fill(b.rename(None), 0.0).names == NAMES
    r = xu.clone()
    r.masked_fill_(b.rename("N", None, "H"), 0.0)  # in place: self takes the computed names
    assert r.names == ("N", None, "H")
    with pytest.raises(RuntimeError, match=r"broadcast dims \['N', 'C', 'H'\] and dims \['N', 'Z', 'H'\]: dim 'C' and dim 'Z'"):
        x.masked_fill(b.rename("N", "Z", "H"), 0.0)
    with pytest.raises(RuntimeError, match=r"broadcast dims \['N', 'Z', 'H'\] and dims \['N', 'C', 'H'\]: dim 'Z' and dim 'C'"):
        x.clone().masked_fill_(b.rename("N", "Z", "H"), 0.0)
    with pytest.raises(RuntimeError, match=r"dim 'H' and dim 'C' are at the same position"):
        x.masked_fill(b[0, 0].rename("C"), 0.0)
    with pytest.raises(RuntimeError, match="Misaligned dims"):
        x.masked_fill(b.rename(None, "H", None), 0.0)


# ---- matmul family: batch names unify as torch's TensorName, no duplicate output names -----

def Z(*shape, names):
    return tl.zeros(*shape, names=names)


@pytest.mark.parametrize("f", [tl.matmul, tl.mm, lambda a, b: tl.addmm(tl.zeros(3, 3), a, b)])
def test_matrix_product_refuses_duplicate_names(f):
    with pytest.raises(RuntimeError, match=r"Matrix multiplying Tensor\['A', 'D'\] with Tensor\['D', 'A'\] would produce "
                                           r"output tensor with duplicate names \['A', 'A'\]"):
        f(Z(3, 4, names=("A", "D")), Z(4, 3, names=("D", "A")))


def test_bmm_and_batched_matmul_duplicate_names():
    a, b = Z(2, 3, 4, names=("B", "A", "D")), Z(2, 4, 3, names=("B", "D", "A"))
    for f in (tl.bmm, tl.matmul):
        with pytest.raises(RuntimeError, match=r"duplicate names \['B', 'A', 'A'\]"):
            f(a, b)
    # a batch name repeating a matrix name (torch 1.13 builds this tensor; tensorlib refuses)
    with pytest.raises(RuntimeError, match=r"duplicate names \['N', 'A', 'N'\]"):
        tl.matmul(Z(2, 3, 4, names=("N", "A", "D")), Z(4, 5, names=("D", "N")))


def test_matmul_batch_names_errors_as_torch():
    with pytest.raises(RuntimeError, match=r"matmul: Expected 'B' \(index 0 of \['B', 'N', 'D'\]\) to match 'C' "
                                           r"\(index 0 of \['C', 'in', 'out'\]\) but they do not match."):
        tl.bmm(Z(2, 3, 4, names=("B", "N", "D")), Z(2, 4, 5, names=("C", "in", "out")))
    # misaligned: a batch name matched with None must not appear anywhere in the other tensor
    with pytest.raises(RuntimeError, match=r"matmul: Cannot match 'N' \(index 0 of \['N', 'in', 'out'\]\) with None "
                                           r"\(index 0 of \[None, 'N', 'D'\]\) because the latter names already have 'N'"):
        tl.matmul(Z(2, 3, 4, names=(None, "N", "D")), Z(2, 4, 5, names=("N", "in", "out")))
    with pytest.raises(RuntimeError, match=r"Cannot match 'A' \(index 0 of \['A', 'B', 'C', 'D'\]\) with None"):
        tl.matmul(Z(2, 2, 3, 4, names=("A", "B", "C", "D")), Z(2, 1, 4, 5, names=(None, "A", "E", "F")))


@pytest.mark.parametrize("an,bn", [(("A", "B", "C", "D"), ("B", "E", "F")), ((None, "B", "C", "D"), ("B", "E", "F")),
                                   (("A", None, "C", "D"), ("B", "E", "F"))])
def test_matmul_batch_names_unify(an, bn):
    r = tl.matmul(Z(2, 2, 3, 4, names=an), Z(2, 4, 5, names=bn))
    batch = tuple(x if x is not None else y for x, y in zip(an[:2], (None,) + bn[:1]))
    assert r.names == batch + (an[-2], bn[-1])


@pytest.mark.parametrize("fn", ["rand", "randn", "zeros", "ones", "empty"])
def test_factory_empty_size_with_names(fn):
    assert getattr(tl, fn)((), names=()).names == ()
    assert getattr(tl, fn)(()).shape == ()
    assert getattr(tl, fn)((2, 3), names=("N", None)).names == ("N", None)


def test_diagonal_and_as_strided_names():
    """torch 1.13: diagonal keeps the other dims' names and appends the diagonal (outdim or None);
    as_strided drops every name."""
    x = tl.zeros(2, 3, 4, names=("A", "B", "C"))
    assert x.diagonal().names == ("C", None)
    assert x.diagonal(0, 1, 2).names == ("A", None)
    assert tl.diagonal(x, 1, 0, 2).names == ("B", None)
    d = x.diagonal(outdim="D", dim1="A", dim2="C")
    assert d.names == ("B", "D") and tuple(d.shape) == (3, 2)
    assert x.diagonal(outdim="A", dim1="A", dim2="C").names == ("B", "A")
    with pytest.raises(RuntimeError, match=r"duplicate names. Got names: \['B', 'B'\]"):
        x.diagonal(outdim="B", dim1="A", dim2="C")
    assert x.as_strided((2, 3), (1, 1)).names == (None, None)
    assert tl.zeros(3, 3).diagonal(outdim="D").names == ("D",)
