"""Joining and reshaping ops against torch 2.13: values, dtypes, shapes, strides of views
and copies, names, raise-vs-not."""
import numpy as np
import pytest

import tensorlib as tl
from _oracle import DTYPES, both, close, make, noncontig, pair, same, tnp, torch


def _pairs(shapes, dtypes):
    xs, ts = [], []
    for k, (s, d) in enumerate(zip(shapes, dtypes)):
        x, t = pair(make(s, d, k))
        xs.append(x)
        ts.append(t)
    return xs, ts


@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("int64", "float32"), ("uint8", "int8"), ("bool", "int16"),
                                    ("float16", "bfloat16"), ("complex64", "float64"), ("int32", "bool")])
def test_cat_promotes(dtypes):
    xs, ts = _pairs([(2, 3), (4, 3)], dtypes) if "bfloat16" not in dtypes else (None, None)
    if xs is None:
        x = tl.ones(2, 3, dtype=tl.float16)
        y = tl.ones(1, 3, dtype=tl.bfloat16)
        assert tl.cat([x, y]).dtype == tl.float32
        return
    same(tl.cat(xs), torch.cat(ts))
    same(tl.cat([a.t() for a in xs], dim=1), torch.cat([a.t() for a in ts], dim=1), strides=True)


def test_cat_cases():
    xs, ts = _pairs([(2, 3), (2, 0), (2, 5)], ["float32"] * 3)
    same(tl.cat(xs, 1), torch.cat(ts, 1), strides=True)
    same(tl.concat(xs, -1), torch.concat(ts, -1))
    same(tl.concatenate(xs, axis=1), torch.concatenate(ts, axis=1))
    # legacy empty 1-D tensors are skipped
    same(tl.cat([xs[0], tl.tensor([])]), torch.cat([ts[0], torch.tensor([])]))
    x, t = noncontig((3, 4), "int64")
    same(tl.cat([x, x[::2]]), torch.cat([t, t[::2]]))
    for fx, ft in [
        (lambda: tl.cat([]), lambda: torch.cat([])),
        (lambda: tl.cat([tl.tensor(1.0)]), lambda: torch.cat([torch.tensor(1.0)])),
        (lambda: tl.cat([xs[0], xs[2]]), lambda: torch.cat([ts[0], ts[2]])),
        (lambda: tl.cat([xs[0], tl.ones(2, 3, 1)]), lambda: torch.cat([ts[0], torch.ones(2, 3, 1)])),
        (lambda: tl.cat(xs, 2), lambda: torch.cat(ts, 2)),
    ]:
        both(fx, ft)


def test_cat_names():
    a = tl.ones(2, 3, names=("N", "C"))
    b = tl.ones(1, 3, names=(None, "C"))
    r = tl.cat([a, b])
    assert r.names == ("N", "C") and r.shape == (3, 3)
    assert tl.cat([a, a], "C").shape == (2, 6)
    with pytest.raises(RuntimeError, match="do not match"):
        tl.cat([a, tl.ones(2, 3, names=("N", "H"))])
    s = tl.stack([a, a])
    assert s.names == (None, "N", "C")


@pytest.mark.parametrize("fn", ["stack", "hstack", "vstack", "dstack", "column_stack"])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 3, 2)])
def test_stack_family(fn, shape):
    xs, ts = _pairs([shape] * 3, ["float32", "float32", "float32"])
    both(lambda: getattr(tl, fn)(xs), lambda: getattr(torch, fn)(ts))
    if fn == "stack" and shape:
        same(tl.stack(xs, -1), torch.stack(ts, -1))
    both(lambda: getattr(tl, fn)([]), lambda: getattr(torch, fn)([]))


def test_stack_errors():
    both(lambda: tl.stack([tl.ones(2), tl.ones(3)]), lambda: torch.stack([torch.ones(2), torch.ones(3)]))


@pytest.mark.parametrize("dtype", DTYPES)
def test_flip_roll_rot90(dtype):
    x, t = noncontig((3, 4, 2), dtype)
    for dims in [(0,), (1, 2), (-1,), ()]:
        same(tl.flip(x, dims), torch.flip(t, dims), strides=True)
    same(x.fliplr(), t.fliplr())
    same(x.flipud(), t.flipud())
    for shifts, dims in [(1, 0), ((2, -1), (1, 2)), (5, None), (-7, None), (0, 1)]:
        same(tl.roll(x, shifts, dims), torch.roll(t, shifts, dims))
    for k in range(-1, 5):
        same(tl.rot90(x, k, (1, 2)), torch.rot90(t, k, (1, 2)), strides=True)
    both(lambda: tl.flip(x, (0, 0)), lambda: torch.flip(t, (0, 0)), match_msg=False)
    both(lambda: tl.rot90(x, 1, (0, 0)), lambda: torch.rot90(t, 1, (0, 0)))
    both(lambda: tl.rot90(x, 1, (0,)), lambda: torch.rot90(t, 1, (0,)))
    both(lambda: tl.roll(x, (1, 2), (0,)), lambda: torch.roll(t, (1, 2), (0,)))


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "complex64", "float16"])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (0, 2)])
def test_repeat_tile_interleave(dtype, shape):
    x, t = pair(make(shape, dtype))
    for reps in [(2,) * len(shape), (2, 1) + (1,) * len(shape), (0,) + (3,) * len(shape)]:
        both(lambda: x.repeat(*reps), lambda: t.repeat(*reps))
    for reps in [(2,), (1, 3), (2, 2, 2)]:
        both(lambda: x.tile(reps), lambda: t.tile(reps))
    both(lambda: x.repeat_interleave(2), lambda: t.repeat_interleave(2))
    if shape and shape[0]:
        r = np.arange(shape[0]) % 3
        rx, rt = pair(r)
        same(x.repeat_interleave(rx, dim=0), t.repeat_interleave(rt, dim=0))
        same(tl.repeat_interleave(rx), torch.repeat_interleave(rt))
    both(lambda: x.repeat(), lambda: t.repeat()) if shape else None


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "complex64"])
@pytest.mark.parametrize("shape", [(3, 4), (4, 3), (2, 3, 3), (0, 3)])
def test_tril_triu(dtype, shape):
    x, t = noncontig(shape, dtype)
    for k in (-5, -1, 0, 1, 2, 7):
        same(tl.tril(x, k), torch.tril(t, k))
        same(x.triu(k), t.triu(k))
    y, u = x.clone(), t.clone()
    y.tril_(1)
    u.tril_(1)
    same(y, u)
    both(lambda: tl.tril(tl.ones(3)), lambda: torch.tril(torch.ones(3)))


@pytest.mark.parametrize("dtype", ["float32", "int32", "bool", "complex64", "float64", "uint8"])
def test_diag_family_trace(dtype):
    v, tv = pair(make((3,), dtype))
    m, tm = noncontig((3, 4), dtype)
    b, tb = pair(make((2, 3), dtype))
    for k in (-2, 0, 1):
        same(tl.diag(v, k), torch.diag(tv, k))
        same(tl.diag(m, k), torch.diag(tm, k), strides=True)
        same(tl.diagflat(m, k), torch.diagflat(tm, k))
        same(tl.diag_embed(b, k), torch.diag_embed(tb, k))
        same(tl.diag_embed(b, k, 0, 2), torch.diag_embed(tb, k, 0, 2))
    both(lambda: tl.diag(tl.ones(2, 2, 2)), lambda: torch.diag(torch.ones(2, 2, 2)))
    if dtype != "bool":
        close(tl.trace(m), torch.trace(tm)) if dtype.startswith(("float", "complex")) else same(m.trace(), tm.trace())
    both(lambda: tl.trace(v), lambda: torch.trace(tv))


def test_meshgrid_broadcast():
    a, ta = pair(make((3,), "float32"))
    b, tb = pair(make((2,), "float32", 1))
    c, tc = pair(np.array(5.0, np.float32))
    for ix in ("ij", "xy"):
        both(lambda: tl.meshgrid(a, b, c, indexing=ix), lambda: torch.meshgrid(ta, tb, tc, indexing=ix),
             check=lambda p, q: same(p, q, strides=True))
        both(lambda: tl.meshgrid([a, b], indexing=ix), lambda: torch.meshgrid([ta, tb], indexing=ix),
             check=lambda p, q: same(p, q, strides=True))
    both(lambda: tl.meshgrid(a, b.double(), indexing="ij"), lambda: torch.meshgrid(ta, tb.double(), indexing="ij"))
    both(lambda: tl.meshgrid(a, indexing="ab"), lambda: torch.meshgrid(ta, indexing="ab"))
    assert tl.broadcast_shapes((2, 1), (3,), 1) == torch.broadcast_shapes((2, 1), (3,), 1)
    both(lambda: tl.broadcast_shapes((2,), (3,)), lambda: torch.broadcast_shapes((2,), (3,)))
    x, t = pair(make((3, 1), "int64"))
    same(tl.broadcast_to(x, (2, 3, 4)), torch.broadcast_to(t, (2, 3, 4)), strides=True)
    both(lambda: tl.broadcast_tensors(x, a), lambda: torch.broadcast_tensors(t, ta),
         check=lambda p, q: same(p, q, strides=True))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "complex64"])
def test_cross(dtype):
    a, ta = pair(make((4, 3), dtype))
    b, tb = pair(make((1, 3), dtype, 1))
    same(tl.cross(a, b, dim=1), torch.cross(ta, tb, dim=1))
    same(a.cross(b, -1), ta.cross(tb, -1))
    c, tc = noncontig((3, 5), dtype)
    d, td = pair(make((3, 5), dtype, 2))
    same(tl.cross(c, d), torch.cross(tc, td, dim=0))
    both(lambda: tl.cross(a, a, dim=0), lambda: torch.cross(ta, ta, dim=0))


@pytest.mark.parametrize("p", [1, 2, 3.5, float("inf")])
def test_renorm(p):
    x, t = noncontig((3, 4, 2), "float64")
    for dim in (0, 1, -1):
        close(tl.renorm(x, p, dim, 5.0), torch.renorm(t, p, dim, 5.0), rtol=1e-10)
    y, u = pair(make((3, 4), "float32"))
    close(y.renorm(p, 0, 2.0), u.renorm(p, 0, 2.0))
    both(lambda: tl.renorm(x, -1, 0, 1.0), lambda: torch.renorm(t, -1, 0, 1.0), match_msg=False)


def test_resize():
    a = make((2, 3), "float32")
    x, t = tl.tensor(a.tolist()), torch.tensor(a.tolist())
    x.resize_(3, 2)
    t.resize_(3, 2)
    same(x, t, strides=True)
    x.resize_(4, 5)  # grows the storage, keeping the first elements
    assert tuple(x.shape) == (4, 5) and tuple(x.stride()) == (5, 1)
    np.testing.assert_array_equal(tnp(x).reshape(-1)[:6], tnp(t).reshape(-1)[:6])
    x.resize_as_(tl.ones(2, 2))
    assert x.shape == (2, 2)
    # a live buffer export forbids growing the storage
    y = tl.zeros(4)
    view = memoryview(y)
    with pytest.raises(RuntimeError):
        y.resize_(1000)
    del view
    y.resize_(1000)
    assert y.shape == (1000,)
    # numpy-backed storage is not resizable
    z = tl.from_numpy(np.zeros(3, np.float32))
    with pytest.raises(RuntimeError, match="not resizable"):
        z.resize_(10)
    n = tl.ones(2, 3, names=("N", "C"))
    n.resize_(2, 3)
    assert n.names == ("N", "C")
    with pytest.raises(RuntimeError, match="Cannot resize named tensor"):
        n.resize_(3, 2)


@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_unfold_view(dtype):
    x, t = noncontig((5, 7), dtype)
    for dim, size, step in [(0, 2, 1), (1, 3, 2), (-1, 7, 1), (0, 5, 3)]:
        same(x.unfold(dim, size, step), t.unfold(dim, size, step), strides=True)
    both(lambda: x.unfold(0, 6, 1), lambda: t.unfold(0, 6, 1), match_msg=False)


def test_out_argument_receives_result():
    torch = pytest.importorskip("torch")
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    cases = [("tril", (x,), {}), ("triu", (x, 1), {}), ("diag", (x,), {}),
             ("index_select", (x, 1, np.array([3, 0])), {}), ("gather", (x, 1, np.array([[0], [2], [3]])), {})]
    for name, args, kw in cases:
        tl_args = [tl.tensor(a) if isinstance(a, np.ndarray) else a for a in args]
        th_args = [torch.tensor(a) if isinstance(a, np.ndarray) else a for a in args]
        out_tl, out_th = tl.empty(0), torch.empty(0)
        r = getattr(tl, name)(*tl_args, out=out_tl, **kw)
        getattr(torch, name)(*th_args, out=out_th, **kw)
        assert r is out_tl
        np.testing.assert_array_equal(out_tl.numpy(), out_th.numpy())


# ---- memory format of cat / stack results (torch: the format every input suggests) ----

def _strided_pair(shape, strides, dtype="float32", seed=0):
    """(tensorlib, torch) tensors with the given strides (torch's own .to(memory_format)
    strides for size-1 dims, built directly so only cat's rule is under test)."""
    a = make(shape, dtype, seed)
    t = torch.empty_strided(shape, strides, dtype=torch.from_numpy(a).dtype).copy_(torch.from_numpy(a))
    x = tl.empty_strided(shape, strides, dtype=tl.from_numpy(a).dtype)
    x.copy_(tl.from_numpy(a))
    return x, t


def _fmt(shape, fmt):
    return torch.empty(shape, memory_format=fmt).stride()


CL, CL3, C = "cl", "cl3", "c"


def _make(shape, kind, dtype="float32", seed=0):
    fmt = {CL: torch.channels_last, CL3: torch.channels_last_3d, C: torch.contiguous_format}[kind]
    return _strided_pair(shape, _fmt(shape, fmt), dtype, seed)


@pytest.mark.parametrize("kinds", [(CL, CL), (CL, C), (C, CL), (CL, CL, CL), (C, C)])
@pytest.mark.parametrize("dim", [0, 1, 2, 3, -1])
def test_cat_stack_channels_last(kinds, dim):
    shape = (2, 3, 4, 5)
    pairs = [_make(shape, k, seed=i) for i, k in enumerate(kinds)]
    xs, ts = [p[0] for p in pairs], [p[1] for p in pairs]
    same(tl.cat(xs, dim), torch.cat(ts, dim), strides=True)
    same(tl.stack(xs, dim), torch.stack(ts, dim), strides=True)
    same(tl.stack(xs, 4), torch.stack(ts, 4), strides=True)


def test_cat_memory_format_cases():
    cases = [
        ([((2, 3, 4, 5, 6), CL3), ((2, 3, 4, 5, 6), CL3)], 1),
        ([((2, 3, 4, 5, 6), CL3), ((2, 3, 4, 5, 6), CL3)], 4),
        ([((2, 3, 4, 5, 6), CL3), ((2, 3, 4, 5, 6), C)], 1),
        ([((2, 3, 1, 1), CL), ((2, 3, 1, 1), CL)], 1),  # ambiguous strides: torch's rule decides
        ([((2, 3, 1, 1), CL), ((2, 5, 1, 1), CL)], 1),
        ([((1, 3, 4, 5), CL), ((2, 3, 4, 5), CL)], 0),
        ([((2, 1, 4, 5), CL), ((2, 3, 4, 5), CL)], 1),
    ]
    for spec, dim in cases:
        pairs = [_make(s, k, seed=i) for i, (s, k) in enumerate(spec)]
        xs, ts = [p[0] for p in pairs], [p[1] for p in pairs]
        same(tl.cat(xs, dim), torch.cat(ts, dim), strides=True)
    # promotion keeps the format; a legacy empty 1-D input or a permuted (non-format) input does not
    (x, t), (y, u) = _make((2, 3, 4, 5), CL, "float32"), _make((2, 3, 4, 5), CL, "float64", 1)
    same(tl.cat([x, y], 1), torch.cat([t, u], 1), strides=True)
    same(tl.cat([x, tl.tensor([])], 1), torch.cat([t, torch.tensor([])], 1), strides=True)
    p, q = pair(make((2, 4, 5, 3)))
    same(tl.cat([p.permute(0, 3, 1, 2)] * 2, 1), torch.cat([q.permute(0, 3, 1, 2)] * 2, 1), strides=True)
    m, n = noncontig((3, 4))
    same(tl.stack([m, m]), torch.stack([n, n]), strides=True)
    same(tl.stack([m, m], 1), torch.stack([n, n], 1), strides=True)
    same(tl.stack([m, m], 2), torch.stack([n, n], 2), strides=True)
