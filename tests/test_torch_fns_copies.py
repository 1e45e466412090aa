"""torch's view-copy functions (t_copy, select_copy, ...) and the view scatters
(select_scatter, slice_scatter, diagonal_scatter, as_strided_scatter) against torch 2.13:
values, dtypes, result strides (contiguous copies; scatters keep input's layout), out=,
errors and their messages, named dims."""
import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")

DTYPES = ["float32", "int64", "bool", "complex64", "float16"]


def _pair(shape, dt, transpose=False, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.integers(-5, 6, size=shape)
    t, x = torch.tensor(a).to(getattr(torch, dt)), tl.tensor(a).to(getattr(tl, dt))
    if transpose and len(shape) >= 2:
        t, x = t.transpose(0, 1), x.transpose(0, 1)
    return x, t


def _same(got, want):
    if isinstance(want, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]
    assert tuple(got.shape) == tuple(want.shape)
    assert tuple(got.stride()) == tuple(want.stride())
    np.testing.assert_array_equal(np.asarray(got.to(tl.complex128) if got.dtype != tl.bool else got),
                                  want.to(torch.complex128).numpy() if want.dtype != torch.bool else want.numpy())


def _outcome(f, lib):
    try:
        return "ok", f(lib)
    except Exception as e:  # noqa: BLE001 - compared with torch's
        return type(e).__name__, str(e)


def _check(f):
    t, got = _outcome(f, torch), _outcome(f, tl)
    assert got[0] == t[0], (got, t)
    if t[0] == "ok":
        _same(got[1], t[1])
    else:
        assert got[1] == t[1]


COPIES = {
    "alias_copy": lambda L, x: L.alias_copy(x),
    "detach_copy": lambda L, x: L.detach_copy(x),
    "t_copy": lambda L, x: L.t_copy(x),
    "transpose_copy": lambda L, x: L.transpose_copy(x, 0, -1),
    "permute_copy": lambda L, x: L.permute_copy(x, (1, 0, 2)),
    "diagonal_copy": lambda L, x: L.diagonal_copy(x, 1, 0, 2),
    "expand_copy": lambda L, x: L.expand_copy(x[:1], (2, x.shape[1], x.shape[2])),
    "select_copy": lambda L, x: L.select_copy(x, 1, -1),
    "slice_copy": lambda L, x: L.slice_copy(x, 2, 1, None, 2),
    "slice_copy_default": lambda L, x: L.slice_copy(x),
    "squeeze_copy": lambda L, x: L.squeeze_copy(x[:, :1]),
    "squeeze_copy_dim": lambda L, x: L.squeeze_copy(x[:, :1], 1),
    "unsqueeze_copy": lambda L, x: L.unsqueeze_copy(x, 1),
    "view_copy": lambda L, x: L.view_copy(x.contiguous(), (-1,)),
    "unfold_copy": lambda L, x: L.unfold_copy(x, 2, 2, 1),
    "narrow_copy": lambda L, x: L.narrow_copy(x, 1, 1, 2),
    "narrow_method": lambda L, x: x.narrow_copy(2, 0, 1),
    "as_strided_copy": lambda L, x: L.as_strided_copy(x, (2, 2), (1, 2)),
    "split_copy": lambda L, x: L.split_copy(x, 2, 1),
    "split_with_sizes_copy": lambda L, x: L.split_with_sizes_copy(x, [1, 2], 1),
    "unbind_copy": lambda L, x: L.unbind_copy(x, 2),
}


@pytest.mark.parametrize("transpose", [False, True])
@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("name", sorted(COPIES))
def test_view_copies_as_torch(name, dt, transpose):
    x, t = _pair((3, 3, 4), dt, transpose)
    _check(lambda L: COPIES[name](L, x if L is tl else t))


def test_view_copies_of_empty_and_0d():
    for shape in ((0, 3), (2, 0)):
        x, t = _pair(shape, "float32")
        _check(lambda L: L.t_copy(x if L is tl else t))
        _check(lambda L: L.slice_copy(x if L is tl else t, 1, 0, 2))
    x, t = _pair((), "float32")
    _check(lambda L: L.alias_copy(x if L is tl else t))
    _check(lambda L: L.unsqueeze_copy(x if L is tl else t, 0))


def test_view_as_real_and_complex_copies():
    x, t = _pair((3, 2), "complex64", transpose=True)
    _check(lambda L: L.view_as_real_copy(x if L is tl else t))
    y, u = _pair((3, 2), "float32")
    _check(lambda L: L.view_as_complex_copy(y if L is tl else u))


def test_copy_out_as_torch():
    x, t = _pair((3, 4), "float32", transpose=True)
    for odt in ("float32", "float64"):
        for oshape in ((0,), (4, 3), (2, 2)):
            def f(L):
                o = L.zeros(oshape, dtype=getattr(L, odt))
                r = L.t_copy(x if L is tl else t, out=o)
                assert r is o
                return o
            _check(f)

    for shapes in (((2, 3), (2, 3)), ((1,), (1,)), ((2, 3), (2, 3), (1, 3))):
        def lists(L):
            outs = [L.zeros(s) for s in shapes]
            assert L.split_copy(x if L is tl else t, 2, 0, out=outs) is None
            return outs
        _check(lists)
    for f in (lambda L, z: L.split_with_sizes_copy(z, [1, 2], out=[L.ones(1)]),
              lambda L, z: L.unbind_copy(z, out=[L.ones(1)])):
        _check(lambda L: f(L, x if L is tl else t))


ERRORS = {
    "t_copy_3d": lambda L, x: L.t_copy(x),
    "select_range": lambda L, x: L.select_copy(x, 0, 7),
    "select_dim": lambda L, x: L.select_copy(x, 5, 0),
    "slice_step": lambda L, x: L.slice_copy(x, 0, 0, 2, 0),
    "view_bad": lambda L, x: L.view_copy(x, (7,)),
    "expand_bad": lambda L, x: L.expand_copy(x, (2, 2)),
    "unfold_bad": lambda L, x: L.unfold_copy(x, 0, 9, 1),
    "narrow_bad": lambda L, x: L.narrow_copy(x, 0, 2, 5),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_copy_errors_as_torch(name):
    x, t = _pair((3, 3, 4), "float32")
    t_out, got = _outcome(lambda L: ERRORS[name](L, t), torch), _outcome(lambda L: ERRORS[name](L, x), tl)
    assert t_out[0] != "ok" and got[0] == t_out[0]


SCATTERS = {
    "select_scatter": (lambda L, x, s: L.select_scatter(x, s, 1, -1), lambda x: x.select(1, -1)),
    "slice_scatter": (lambda L, x, s: L.slice_scatter(x, s, 2, 1, None, 2), lambda x: x[:, :, 1::2]),
    "slice_scatter_default": (lambda L, x, s: L.slice_scatter(x, s), lambda x: x),
    "diagonal_scatter": (lambda L, x, s: L.diagonal_scatter(x, s, -1, 0, 2), lambda x: x.diagonal(-1, 0, 2)),
    "as_strided_scatter": (lambda L, x, s: L.as_strided_scatter(x, s, (2, 3), (1, 2), 1),
                           lambda x: x.as_strided((2, 3), (1, 2), 1)),
    "select_method": (lambda L, x, s: x.select_scatter(s, 0, 0), lambda x: x.select(0, 0)),
    "slice_method": (lambda L, x, s: x.slice_scatter(s, 1, 0, 2), lambda x: x[:, 0:2]),
}


@pytest.mark.parametrize("transpose", [False, True])
@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("name", sorted(SCATTERS))
def test_view_scatters_as_torch(name, dt, transpose):
    call, view = SCATTERS[name]
    x, t = _pair((3, 3, 4), dt, transpose)
    shape = tuple(view(t.contiguous() if name == "as_strided_scatter" else t).shape)
    s, u = _pair(shape, dt, seed=1)
    if name == "as_strided_scatter" and transpose:
        pytest.skip("as_strided of a transposed tensor reads its storage: covered untransposed")
    before = x.clone()
    _check(lambda L: call(L, x if L is tl else t, s if L is tl else u))
    assert tl.equal(x, before)  # a copy was written, not input


def test_scatter_errors_and_casts_as_torch():
    x, t = _pair((4, 4), "float32")
    cases = [
        lambda L, z: L.slice_scatter(z, L.ones(3, 4), 0, 0, 4, 2),
        lambda L, z: L.diagonal_scatter(z, L.ones(3)),
        lambda L, z: L.as_strided_scatter(z, L.ones(3), (2,), (2,)),
        lambda L, z: L.select_scatter(z, L.ones(4), 2, 0),
        lambda L, z: L.select_scatter(z, L.ones(4), 0, 9),
        lambda L, z: L.select_scatter(z, L.ones(4, dtype=L.int64), 0, 0),
    ]
    for c in cases:
        t_out, got = _outcome(lambda L: c(L, t), torch), _outcome(lambda L: c(L, x), tl)
        assert got[0] == t_out[0]
        if t_out[0] == "ok":
            _same(got[1], t_out[1])
        else:
            assert got[1] == t_out[1]


def test_copies_and_scatters_keep_names():
    x = tl.zeros(2, 3, names=("N", "C"))
    assert tl.t_copy(x).names == ("C", "N")
    assert tl.select_copy(x, 0, 1).names == ("C",)
    assert tl.select_scatter(x, tl.ones(3, names=("C",)), 0, 1).names == ("N", "C")
    assert tl.select_scatter(x, tl.ones(3, names=("C",)), 0, 1)[1].tolist() == [1.0, 1.0, 1.0]
