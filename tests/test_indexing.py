"""Advanced indexing and the index/scatter/mask ops against torch 2.13 (values, dtypes,
shapes, raise-vs-not and messages); bad input leaves inputs untouched."""
import numpy as np
import pytest

import tensorlib as tl
from _oracle import DTYPES, both, close, make, noncontig, pair, same, tnp, torch

KEYS = [
    ([0, 2],),
    ((0, slice(None), [1, 2])),
    (([0, 1], slice(None), [1, 2])),
    ((slice(None), [0, 2], [1, 3])),
    ((Ellipsis, [1, 0])),
    ((None, [1], slice(None), [[0], [2]])),
    (([[0, 1], [1, 0]], [[2], [0]])),
    ((slice(None, None, 2), [-1, 0])),
    ((1, [0, 2], slice(1, 3))),
    (([0, 1], None, [1, 2], slice(None))),
    ((True,)),
    ((False, 1)),
    (([],)),
    ((slice(None), [])),
    ((Ellipsis, None, [0, 0, 3])),
    ((0, 1, [2])),
]


def _tkey(key, lib):
    if not isinstance(key, tuple):
        key = (key,)
    return key


@pytest.mark.parametrize("key", KEYS, ids=[repr(k) for k in KEYS])
@pytest.mark.parametrize("contig", [True, False])
def test_getitem_keys(key, contig):
    if contig:
        x, t = pair(make((2, 3, 4)))
    else:
        x, t = noncontig((2, 3, 4))
    both(lambda: x[key], lambda: t[key])


@pytest.mark.parametrize("dtype", DTYPES)
def test_getitem_dtypes_tensor_index(dtype):
    x, t = pair(make((4, 5), dtype))
    ia = np.array([[3, -1], [0, 2]])
    ix, it = pair(ia)
    same(x[ix], t[it])
    same(x[:, ix], t[:, it])
    same(x[ix, ix.to(tl.int32)], t[it, it.int()])


@pytest.mark.parametrize("shape", [(6,), (2, 3), (2, 3, 4), (0, 3), (3, 0)])
def test_bool_mask(shape):
    a = make(shape, "float64", 1)
    x, t = pair(a)
    mx, mt = pair(a > 0)
    same(x[mx], t[mt])
    if len(shape) >= 2:
        rx, rt = pair(a[..., 0] > 0) if shape[-1] else pair(np.zeros(shape[:-1], bool))
        same(x[rx], t[rt])
        cx, ct = pair(np.arange(shape[1]) % 2 == 0)
        same(x[:, cx], t[:, ct])


def test_getitem_errors_and_0d():
    x, t = pair(make((3, 4)))
    for key in [([5],), ([0], [7]), ([-4],), ([[0, 1]], [0, 1, 2]), (0, 0, [0]),
                (tl.tensor([1.0]),)]:
        tkey = tuple(torch.from_numpy(np.asarray(tnp(k))) if isinstance(k, tl.Tensor) else k for k in key)
        both(lambda: x[key], lambda: t[tkey], match_msg=False)
    # out of range text
    with pytest.raises(IndexError, match="index 5 is out of bounds for dimension 0 with size 3"):
        x[[5]]
    s, st = pair(np.array(3.0))
    same(s[None], st[None])
    same(s[True], st[True])
    same(s[tl.tensor(True)], st[torch.tensor(True)])


@pytest.mark.parametrize("key", KEYS[:10], ids=[repr(k) for k in KEYS[:10]])
def test_setitem_keys(key):
    x, t = pair(make((2, 3, 4), "float32", 3))
    try:
        t[key]
    except IndexError:
        before = tnp(x).copy()
        with pytest.raises(IndexError):
            x[key] = 7.5
        np.testing.assert_array_equal(tnp(x), before)  # torch half-writes here; tensorlib writes nothing
        return
    x[key] = 7.5
    t[key] = 7.5
    same(x, t)
    shape = tuple(t[key].shape)
    v = make(shape, "float64", 5)
    vx, vt = pair(v)
    x.__setitem__(key, vx)
    t.__setitem__(key, vt.float())
    same(x, t)
    # broadcasting value (last dim only)
    if shape and shape[-1] > 0:
        vx, vt = pair(make(shape[-1:], "float32", 6))
        x[key] = vx
        t[key] = vt
        same(x, t)


def test_setitem_mask_and_errors():
    a = make((3, 4), "int64", 2)
    x, t = pair(a)
    mx, mt = pair(a > 0)
    x[mx] = -1
    t[mt] = -1
    same(x, t)
    x[[0, 2], [1, 1]] = tl.tensor([10, 20])
    t[[0, 2], [1, 1]] = torch.tensor([10, 20])
    same(x, t)
    x[[1]] = [[1, 2, 3, 4]]
    t[[1]] = torch.tensor([[1, 2, 3, 4]])
    same(x, t)
    before = tnp(x).copy()
    with pytest.raises(IndexError, match="index 5 is out of bounds for dimension 0 with size 3"):
        x[[0, 5]] = 3
    with pytest.raises(RuntimeError, match="shape mismatch"):
        x[[0, 1]] = tl.tensor([1, 2, 3])
    np.testing.assert_array_equal(tnp(x), before)


@pytest.mark.parametrize("acc", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "int64", "float64", "complex64", "int16"])
def test_index_put(acc, dtype):
    x, t = pair(make((4, 3), dtype))
    ix, it = pair(np.array([0, 2, 0, 3]))
    vx, vt = pair(make((4, 3), dtype, 9))
    same(x.index_put((ix,), vx, accumulate=acc), t.index_put((it,), vt, accumulate=acc))
    same(x.index_put_((ix, ix.remainder(3) if hasattr(ix, "remainder") else tl.tensor([0, 2, 0, 0])),
                      vx[:, 0], accumulate=acc),
         t.index_put_((it, torch.tensor([0, 2, 0, 0])), vt[:, 0], accumulate=acc))
    both(lambda: x.index_put_((ix,), vx.to(tl.float64 if dtype != "float64" else tl.float32)),
         lambda: t.index_put_((it,), vt.double() if dtype != "float64" else vt.float()))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("contig", [True, False])
def test_index_select_gather(dtype, contig):
    x, t = pair(make((4, 5), dtype)) if contig else noncontig((4, 5), dtype)
    for dim in (0, 1, -1):
        ix, it = pair(np.array([3, 0, 0, 1]))
        same(tl.index_select(x, dim, ix), torch.index_select(t, dim, it))
        same(x.index_select(dim, ix.to(tl.int32)), t.index_select(dim, it.int()))
        g = make((3, 2), "int64", 4, 0, 4)
        gx, gt = pair(g)
        same(tl.gather(x, dim, gx), torch.gather(t, dim, gt))
    # take / take_along_dim
    ix, it = pair(np.array([[0, -1], [7, 19]]))
    same(tl.take(x, ix), torch.take(t, it))
    ix, it = pair(make((4, 2), "int64", 3, 0, 5))
    same(tl.take_along_dim(x, ix, 1), torch.take_along_dim(t, it, 1))
    both(lambda: x.take_along_dim(ix), lambda: t.take_along_dim(it))  # torch refuses non-contiguous here


def test_index_errors():
    x, t = pair(make((3, 4)))
    cases = [
        (lambda a, i: a.index_select(0, i(np.array([3]))), IndexError),
        (lambda a, i: a.index_select(0, i(np.array([1.0]))), RuntimeError),
        (lambda a, i: a.index_select(0, i(np.array([[1]]))), IndexError),
        (lambda a, i: a.gather(0, i(np.array([[3]]))), RuntimeError),
        (lambda a, i: a.gather(1, i(np.array([[1]], dtype=np.int32))), RuntimeError),
        (lambda a, i: a.gather(1, i(np.array([1]))), RuntimeError),
        (lambda a, i: a.gather(1, i(np.zeros((4, 1), np.int64))), RuntimeError),
        (lambda a, i: a.take(i(np.array([12]))), IndexError),
        (lambda a, i: a.take(i(np.array([1], np.int32))), RuntimeError),
        (lambda a, i: a.gather(2, i(np.zeros((1, 1), np.int64))), IndexError),
    ]
    for f, exc in cases:
        tx = lambda a: tl.from_numpy(a)  # noqa: E731
        tt = lambda a: torch.from_numpy(a)  # noqa: E731
        both(lambda: f(x, tx), lambda: f(t, tt))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "complex64", "bool", "uint8"])
def test_scatter_family(dtype):
    base = make((3, 5), dtype, 1)
    src = make((2, 5), dtype, 2)
    idx = np.array([[0, 1, 2, 0, 0], [2, 0, 0, 1, 2]])
    (x, t), (sx, st), (ix, it) = pair(base), pair(src), pair(idx)
    same(x.scatter(0, ix, sx), t.scatter(0, it, st))
    same(x.scatter(0, ix, 3), t.scatter(0, it, 3))
    if dtype != "bool":
        same(x.scatter_add(0, ix, sx), t.scatter_add(0, it, st))
        same(x.scatter(0, ix, sx, reduce="add"), t.scatter(0, it, st, reduce="add"))
        same(x.scatter(0, ix, sx, reduce="multiply"), t.scatter(0, it, st, reduce="multiply"))
    reds = ["sum", "prod", "mean", "amax", "amin"] if dtype not in ("complex64", "bool") else ["sum", "prod"]
    for red in reds:
        for inc in (True, False):
            both(lambda: x.scatter_reduce(0, ix, sx, red, include_self=inc),
                 lambda: t.scatter_reduce(0, it, st, red, include_self=inc), check=close if dtype.startswith("f") else same)
    # along dim 1 with a smaller index
    i1 = np.array([[4, 0], [1, 1]])
    (ix1, it1) = pair(i1)
    same(x.scatter(1, ix1, sx), t.scatter(1, it1, st))
    same(tl.scatter(x, -1, ix1, sx), torch.scatter(t, -1, it1, st))


def test_scatter_errors_leave_input():
    x, t = pair(make((3, 4)))
    before = tnp(x).copy()
    tx = lambda a: tl.from_numpy(a)  # noqa: E731
    tt = lambda a: torch.from_numpy(a)  # noqa: E731
    cases = [
        lambda a, i: a.scatter_(0, i(np.array([[0, 3]])), i(np.ones((1, 2), np.float32))),
        lambda a, i: a.scatter_(0, i(np.array([[0, 1]], np.float32)), i(np.ones((1, 2), np.float32))),
        lambda a, i: a.scatter_(0, i(np.array([[0, 1]])), i(np.ones((1, 2), np.float64))),
        lambda a, i: a.scatter_(0, i(np.zeros((1, 5), np.int64)), i(np.ones((1, 5), np.float32))),
        lambda a, i: a.scatter_(0, i(np.zeros((2, 2), np.int64)), i(np.ones((1, 2), np.float32))),
        lambda a, i: a.scatter_(0, i(np.zeros((2,), np.int64)), i(np.ones((2, 2), np.float32))),
        lambda a, i: a.scatter_add_(0, i(np.array([[0, -1]])), i(np.ones((1, 2), np.float32))),
        lambda a, i: a.scatter_reduce_(0, i(np.array([[0, 1]])), i(np.ones((1, 2), np.float32)), "maximum"),
        lambda a, i: a.index_put_((i(np.array([0, 3])),), i(np.ones(4, np.float32))),
        lambda a, i: a.index_fill_(0, i(np.array([0, 3])), 1.0),
        lambda a, i: a.index_fill_(0, i(np.array([0], np.int32)), 1.0),
        lambda a, i: a.put_(i(np.array([0, 12])), i(np.ones(2, np.float32))),
        lambda a, i: a.put_(i(np.array([0, 1])), i(np.ones(3, np.float32))),
        lambda a, i: a.masked_scatter_(i(np.ones((3, 4), bool)), i(np.ones(3, np.float32))),
        lambda a, i: a.index_add_(0, i(np.array([0, 5])), i(np.ones((2, 4), np.float32))),
        lambda a, i: a.index_copy_(0, i(np.array([0, 1])), i(np.ones((3, 4), np.float32))),
    ]
    for f in cases:
        with pytest.raises(Exception) as e:
            f(t, tt)
        with pytest.raises(type(e.value)):
            f(x, tx)
        np.testing.assert_array_equal(tnp(x), before)


@pytest.mark.parametrize("dtype", ["float32", "int64", "complex64", "bool", "float16"])
def test_index_fill_add_copy(dtype):
    x, t = pair(make((4, 3), dtype))
    ix, it = pair(np.array([2, 0, -1]))
    same(x.index_fill(0, ix, 1), t.index_fill(0, it, 1))
    same(x.index_fill(1, ix, 0), t.index_fill(1, it, 0))
    ix, it = pair(np.array([2, 0, 2]))
    sx, st = pair(make((3, 3), dtype, 5))
    if dtype != "bool":
        same(x.index_add(0, ix, sx), t.index_add(0, it, st))
        sx4, st4 = pair(make((4, 3), dtype, 6))
        same(x.index_add(1, ix, sx4, alpha=2), t.index_add(1, it, st4, alpha=2))
        same(x.index_add(0, ix.to(tl.int32), sx), t.index_add(0, it.int(), st))
    ix, it = pair(np.array([3, 0, 1]))
    same(x.index_copy(0, ix, sx), t.index_copy(0, it, st))
    y, u = x.clone(), t.clone()
    y.index_fill_(1, tl.tensor(1), -1)
    u.index_fill_(1, torch.tensor(1), -1)
    same(y, u)


@pytest.mark.parametrize("dtype", ["float32", "int64", "complex64", "uint8"])
def test_put_take(dtype):
    x, t = noncontig((3, 4), dtype)
    x, t = x.clone(), t.clone()
    ix, it = pair(np.array([0, -1, 5, 5]))
    sx, st = pair(make((2, 2), dtype, 3))
    same(x.put(ix, sx), t.put(it, st))
    same(x.put(ix, sx, accumulate=True), t.put(it, st, accumulate=True))
    xv, tv = x.t(), t.t()
    xv.put_(ix, sx)
    tv.put_(it, st)
    same(x, t)
    same(xv.take(ix), tv.take(it))


@pytest.mark.parametrize("dtype", DTYPES)
def test_masked_select_scatter_nonzero(dtype):
    a = make((3, 4), dtype, 7)
    x, t = pair(a)
    m = make((4,), "bool", 8)
    mx, mt = pair(m)
    same(tl.masked_select(x, mx), torch.masked_select(t, mt))
    xn, tn = noncontig((3, 4), dtype)
    same(xn.masked_select(mx), tn.masked_select(mt))
    src = make((12,), dtype, 9)
    sx, st = pair(src)
    same(x.masked_scatter(mx, sx), t.masked_scatter(mt, st))
    same(tl.nonzero(x), torch.nonzero(t))
    same(x.argwhere(), t.argwhere())
    both(lambda: tl.nonzero(x, as_tuple=True), lambda: torch.nonzero(t, as_tuple=True))
    both(lambda: tl.where(x), lambda: torch.where(t))
    s, st0 = pair(make((), dtype, 1))
    same(tl.nonzero(s), torch.nonzero(st0))
    both(lambda: tl.nonzero(s, as_tuple=True), lambda: torch.nonzero(st0, as_tuple=True))
    e, et = pair(make((0, 3), dtype))
    same(tl.nonzero(e), torch.nonzero(et))


def test_masked_errors_and_names():
    x, t = pair(make((3, 4)))
    both(lambda: x.masked_select(tl.ones(4, dtype=tl.uint8)), lambda: t.masked_select(torch.ones(4, dtype=torch.uint8)),
         match_msg=False)
    both(lambda: x.masked_select(tl.ones(5, dtype=tl.bool)), lambda: t.masked_select(torch.ones(5, dtype=torch.bool)),
         match_msg=False)
    # names: the mask aligns from the right and must unify; the result is 1-D and unnamed
    n = tl.ones(3, 4, names=("N", "C"))
    r = n.masked_select(tl.ones(4, dtype=tl.bool, names=("C",)))
    assert r.names == (None,) and r.shape == (12,)
    with pytest.raises(RuntimeError, match="do not match"):
        n.masked_select(tl.ones(4, dtype=tl.bool, names=("H",)))
    with pytest.raises(RuntimeError, match="different position"):
        tl.ones(3, 4, names=("N", None)).masked_select(tl.ones(4, dtype=tl.bool, names=("N",)))


def test_named_index_ops():
    n = tl.arange(12.0).reshape(3, 4).rename("N", "C")
    r = n.index_select("C", tl.tensor([0, 2]))
    assert r.names == ("N", "C") and r.shape == (3, 2)
    f = n.index_fill("N", tl.tensor([1]), 0.0)
    assert f.names == ("N", "C")
    # gather/flip/tril/repeat have name rules now (tests/test_named_ops2.py); these still refuse
    for op in (lambda: n[[0, 1]], lambda: n.take(tl.tensor([0])), lambda: n.nonzero()):
        with pytest.raises(RuntimeError, match="named tensors"):
            op()
    with pytest.raises(RuntimeError, match="not found"):
        n.index_select("H", tl.tensor([0]))


# ---- fast paths: row copies, element gathers per item size, threads, in-loop checks ----

ITEMSIZE_DTYPES = ["bool", "int16", "float32", "float64", "complex128"]  # 1, 2, 4, 8, 16 bytes


@pytest.mark.parametrize("dtype", ITEMSIZE_DTYPES)
@pytest.mark.parametrize("shape,dim", [((6, 5, 3), 0), ((6, 5, 3), 1), ((6, 5, 3), 2), ((6, 1, 4), 0),
                                       ((5, 4, 1, 1), 1), ((7,), 0), ((0, 3), 1)])
def test_index_select_paths(dtype, shape, dim):
    a = make(shape, dtype, 3)
    n = shape[dim]
    idx = np.array([n - 1, 0, 0, n // 2, n - 1], np.int64) if n else np.zeros(0, np.int64)
    ix, it = pair(idx)
    views = [pair(a)]
    if len(shape) > 1:  # packed trailing block under a non-contiguous outer, and no packed block
        views.append(pair(np.ascontiguousarray(np.swapaxes(a, 0, -1)).swapaxes(0, -1)))
        views.append((tl.from_numpy(np.ascontiguousarray(a[::-1])).flip(0), torch.from_numpy(a[::-1].copy()).flip(0)))
    for x, t in views:
        same(tl.index_select(x, dim, ix), torch.index_select(t, dim, it))
        same(tl.index_select(x, dim, ix.to(tl.int32)), torch.index_select(t, dim, it.int()))
        same(tl.index_select(x, dim, ix[:0]), torch.index_select(t, dim, it[:0]))


@pytest.mark.parametrize("dtype", ["float32", "complex128"])
def test_index_select_gather_take_threaded(dtype):
    """Sizes above the grain split across threads; results equal torch's."""
    rng = np.random.default_rng(5)
    a = make((300, 257), dtype, 4)
    x, t = pair(a)
    for dim in (0, 1):
        idx = rng.integers(0, a.shape[dim], 40000)
        ix, it = pair(idx)
        same(tl.index_select(x, dim, ix), torch.index_select(t, dim, it))
    flat = rng.integers(-a.size, a.size, 70000)
    ix, it = pair(flat)
    same(tl.take(x, ix), torch.take(t, it))
    same(tl.take(x.t(), ix), torch.take(t.t(), it))
    g = rng.integers(0, 300, (300, 200))
    gx, gt = pair(g)
    same(tl.gather(x, 0, gx), torch.gather(t, 0, gt))
    gx, gt = pair(g % 257)
    same(tl.gather(x, 1, gx[:, :100]), torch.gather(t, 1, gt[:, :100]))
    same(tl.gather(x.t(), 0, gx.t()[:200]), torch.gather(t.t(), 0, gt.t()[:200]))


@pytest.mark.parametrize("where", [0, 1, 39999])
def test_index_errors_anywhere(where):
    """A bad index at the start, middle or end of a large (threaded) index raises torch's
    error naming the first bad value; nothing is returned."""
    a = make((200, 300))
    x, t = pair(a)
    for bad in (200, -201, -1):
        idx = np.zeros(40000, np.int64)
        idx[where] = bad
        idx[-1] = bad - 7 if where != 39999 else bad
        ix, it = pair(idx)
        if bad != -1:
            both(lambda: tl.index_select(x, 0, ix), lambda: torch.index_select(t, 0, it))
            both(lambda: tl.index_select(x, 1, ix), lambda: torch.index_select(t, 1, it))
        both(lambda: tl.index_select(x.t(), 1, ix), lambda: torch.index_select(t.t(), 1, it))
        g = idx.reshape(200, 200).copy()  # one bad value: torch's threads race to report when there are two
        g[-1, -1] = bad if where == 39999 else 0
        gx, gt = pair(np.ascontiguousarray(g))
        both(lambda: tl.gather(x, 0, gx), lambda: torch.gather(t, 0, gt))
        big = np.full(40000, bad * 300)
        bx, bt = pair(big)
        both(lambda: tl.take(x, bx), lambda: torch.take(t, bt))
        both(lambda: tl.take(x.t(), bx), lambda: torch.take(t.t(), bt))


@pytest.mark.parametrize("dtype", ["float32", "int64", "complex64"])
def test_scatters_threaded_match_torch_and_thread_count(dtype):
    """Scatters large enough to split across threads (along the non-scatter dims) give
    torch's values bit for bit, and the same bits on one thread."""
    rng = np.random.default_rng(9)
    a, s = make((300, 257), dtype, 1), make((300, 257), dtype, 2)
    if dtype != "int64":
        s = s * np.asarray(1.1 + 0.3j if dtype == "complex64" else 1.1, dtype=dtype)
    idx0, idx1 = rng.integers(0, 300, (300, 257)), rng.integers(0, 257, (300, 257))
    vidx, perm = rng.integers(0, 300, 300), rng.permutation(300)

    def run(lib):
        T = tl if lib == "tl" else torch
        P = (lambda v: tl.from_numpy(np.ascontiguousarray(v))) if lib == "tl" else (lambda v: torch.from_numpy(np.ascontiguousarray(v)))
        x, src = P(a), P(s)
        i0, i1, vi, uniq = P(idx0), P(idx1), P(vidx), P(perm)
        outs = [x.scatter_add(0, i0, src), x.scatter_add(1, i1, src), x.scatter(0, i0, src),
                x.t().scatter_add(1, i0.t(), src.t()), x.index_add(0, vi, src),
                x.index_put((vi,), src, accumulate=True), x.index_put((uniq,), src)]
        if dtype != "complex64":
            outs += [x.scatter_reduce(0, i0, src, "amax", include_self=False), x.scatter_reduce(1, i1, src, "prod"),
                     x.scatter_reduce(0, i0, src, "mean")]
        return outs

    # torch's float index_put_(accumulate=True) adds atomically across threads unless
    # deterministic algorithms are on; then it adds in index order, as tensorlib always does
    det = torch.are_deterministic_algorithms_enabled()
    torch.use_deterministic_algorithms(True)
    try:
        ref = run("torch")
    finally:
        torch.use_deterministic_algorithms(det)
    got = run("tl")
    for x, t in zip(got, ref):
        same(x, t)
    old = tl.get_num_threads()
    tl.set_num_threads(1)
    try:
        one = run("tl")
    finally:
        tl.set_num_threads(old)
    for x, y in zip(got, one):
        np.testing.assert_array_equal(x.numpy(), y.numpy())


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("call", [
    lambda L, z, i, s: z.scatter_add(0, i, s), lambda L, z, i, s: z.scatter_reduce(0, i, s, "sum"),
    lambda L, z, i, s: (z + 1).scatter_reduce(0, i, s / 100 + 1, "prod"), lambda L, z, i, s: z.scatter(0, i, s, reduce="add"),
    lambda L, z, i, s: z.index_add(0, i, s), lambda L, z, i, s: z.index_put_((i,), s, accumulate=True),
])
def test_half_scatter_accumulation_matches_torch(dtype, call):
    # torch's CPU scatters accumulate float16/bfloat16 sums and products in float32 (one rounding),
    # index_add/index_put_ round after every addition; 1000 x 0.1 shows the difference
    def run(L):
        dt = getattr(L, dtype)
        return call(L, L.zeros(2, dtype=dt), L.zeros(1000, dtype=L.long), L.full((1000,), 0.1, dtype=dt)).float().tolist()
    assert run(tl) == run(torch)


# ---- typed scatter loops: every dtype and reduction, layouts, duplicates, vs torch ----

SCATTER_DTYPES = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8"]


def _lib_pair(a, dtype):
    """(tensorlib, torch) tensors of `dtype` from the small-integer array a (bfloat16 via float32)."""
    x, t = tl.from_numpy(np.ascontiguousarray(a).astype(np.float32)), torch.from_numpy(np.ascontiguousarray(a).astype(np.float32))
    return x.to(getattr(tl, dtype)), t.to(getattr(torch, dtype))


def _bits_equal(x, t):
    assert str(x.dtype).split(".")[-1] == str(t.dtype).split(".")[-1], (x.dtype, t.dtype)
    assert tuple(x.shape) == tuple(t.shape), (tuple(x.shape), tuple(t.shape))
    np.testing.assert_array_equal(x.double().numpy(), t.double().numpy())


def _layouts(dtype, rng):
    """(name, self, index, src, dim) for lib in (tl, torch): 0-d, empty, 1-D with duplicates,
    2-D contiguous along either dim, transposed, negative-stride and strided operands."""
    cases = []
    def add(name, base, idx, src, dim, view=lambda v: v, iview=lambda v: v):
        cases.append((name, base, idx, src, dim, view, iview))
    add("0d", rng.integers(-3, 4, ()), np.array(0), rng.integers(-3, 4, ()), 0)
    add("empty index", rng.integers(-3, 4, (4,)), np.zeros((0,), np.int64), rng.integers(-3, 4, (0,)), 0)
    add("1d dup", rng.integers(-3, 4, (7,)), rng.integers(0, 7, 40), rng.integers(-3, 4, 40), 0)
    add("1d large", rng.integers(-3, 4, (50,)), rng.integers(0, 50, 70000), rng.integers(-3, 4, 70000), 0)
    add("2d dim0", rng.integers(-3, 4, (6, 5)), rng.integers(0, 6, (9, 5)), rng.integers(-3, 4, (9, 5)), 0)
    add("2d dim1 partial", rng.integers(-3, 4, (6, 5)), rng.integers(0, 5, (4, 8)), rng.integers(-3, 4, (5, 9)), 1)
    add("transposed", rng.integers(-3, 4, (5, 6)), rng.integers(0, 6, (5, 6)), rng.integers(-3, 4, (5, 6)), 0,
        view=lambda v: v.t(), iview=lambda v: v.t())
    add("negative stride", rng.integers(-3, 4, (6, 5)), rng.integers(0, 6, (6, 5)), rng.integers(-3, 4, (6, 5)), 0,
        view=lambda v: v.flip(1), iview=lambda v: v.flip(0))
    add("strided", rng.integers(-3, 4, (6, 10)), rng.integers(0, 6, (6, 10)), rng.integers(-3, 4, (6, 10)), 0,
        view=lambda v: v[:, ::2], iview=lambda v: v[:, 1::2])
    return cases


@pytest.mark.parametrize("dtype", SCATTER_DTYPES)
def test_scatter_reduce_grid_matches_torch(dtype):
    """scatter/scatter_add/scatter(reduce=)/scatter_reduce (every reduction, include_self both
    ways) and index_add on every layout give torch's values and dtype bit for bit
    (float16/bfloat16 sums accumulate in float32 as torch's do)."""
    rng = np.random.default_rng(17)
    for name, base, idx, src, dim, view, iview in _layouts(dtype, rng):
        if dtype == "uint8":
            base, src = np.abs(base), np.abs(src)
        (x, t), (sx, st) = _lib_pair(base, dtype), _lib_pair(src, dtype)
        ix, it = tl.from_numpy(np.ascontiguousarray(idx)), torch.from_numpy(np.ascontiguousarray(idx))
        x, t, sx, st = view(x), view(t), view(sx), view(st)
        ix, it = iview(ix), iview(it)
        if name in ("negative stride", "strided", "transposed"):
            # views need the index no larger than self/src: the same view of both keeps it so
            ix, it = view(tl.from_numpy(np.ascontiguousarray(idx % x.shape[dim]))), view(torch.from_numpy(np.ascontiguousarray(idx % t.shape[dim])))
        calls = [lambda a, i, s: a.scatter(dim, i, s), lambda a, i, s: a.scatter_add(dim, i, s),
                 lambda a, i, s: a.scatter(dim, i, s, reduce="add"), lambda a, i, s: a.scatter(dim, i, s, reduce="multiply")]
        for red in ("sum", "prod", "mean", "amax", "amin"):
            if red == "mean" and name == "1d large" and dtype in ("float16", "bfloat16", "int8", "uint8"):
                continue  # torch keeps the counts (~1400) in self's dtype (rounded or wrapped); tensorlib's are exact
            for inc in (True, False):
                calls.append(lambda a, i, s, red=red, inc=inc: a.scatter_reduce(dim, i, s, red, include_self=inc))
        for k, f in enumerate(calls):
            try:
                want = f(t, it, st)
            except Exception as e:  # noqa: BLE001
                with pytest.raises(type(e)):
                    f(x, ix, sx)
                continue
            try:
                _bits_equal(f(x, ix, sx), want)
            except AssertionError as e:
                raise AssertionError(f"{name} call {k}: {e}") from None
        if name in ("1d dup", "1d large", "2d dim0"):
            vi = rng.integers(0, x.shape[0], src.shape[0])
            _bits_equal(x.index_add(0, tl.from_numpy(vi), sx), t.index_add(0, torch.from_numpy(vi), st))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "float16", "bfloat16"])
@pytest.mark.parametrize("op", ["add", "sum", "prod", "mean", "amax", "amin"])
def test_scatter_thread_count_independent(dtype, op):
    """Large scatters (split across threads along the non-scatter dims) give the same bits on
    one thread and on several, for every reduction; 1-D ones stay in row-major order."""
    rng = np.random.default_rng(5)
    a = rng.integers(-3, 4, (300, 257)).astype(np.float32)
    s = (rng.standard_normal((300, 257)) * 3).astype(np.float32)
    i0 = tl.from_numpy(rng.integers(0, 300, (300, 257)))
    i1d = tl.from_numpy(rng.integers(0, 1000, 200000))
    v1d = tl.from_numpy((rng.standard_normal(200000) * 3).astype(np.float32)).to(getattr(tl, dtype))
    x, src = tl.from_numpy(a).to(getattr(tl, dtype)), tl.from_numpy(s).to(getattr(tl, dtype))
    z1d = tl.zeros(1000, dtype=getattr(tl, dtype))

    def run():
        if op == "add":
            return [x.scatter_add(0, i0, src), x.t().scatter_add(1, i0.t(), src.t()), z1d.scatter_add(0, i1d, v1d)]
        return [x.scatter_reduce(0, i0, src, op, include_self=inc) for inc in (True, False)] + \
               [z1d.scatter_reduce(0, i1d, v1d, op, include_self=False)]
    old = tl.get_num_threads()
    try:
        tl.set_num_threads(max(2, old))
        many = run()
        tl.set_num_threads(1)
        one = run()
    finally:
        tl.set_num_threads(old)
    for p, q in zip(many, one):
        np.testing.assert_array_equal(p.double().numpy(), q.double().numpy())


def test_scatter_bad_index_first_reported_nothing_written():
    """A bad index anywhere in a large index raises torch's error naming the first bad value
    and the size (the same one for any thread count), and self is left as it was; int32
    indices and indices sharing self's memory are read from a copy."""
    rng = np.random.default_rng(2)
    idx = rng.integers(0, 1000, 300000)
    for pos in (0, 150000, 299999):
        for bad in (1000, -1, 5000):
            j = idx.copy()
            j[pos] = bad
            if pos != 299999:
                j[-1] = 7777  # a later, different bad value
            for nt in (1, 2):
                old = tl.get_num_threads()
                tl.set_num_threads(nt)
                try:
                    z = tl.zeros(1000)
                    with pytest.raises(RuntimeError, match=f"index {bad} is out of bounds for dimension 0 with size 1000"):
                        z.scatter_add_(0, tl.from_numpy(j), tl.ones(300000))
                    assert not z.numpy().any()
                    with pytest.raises(RuntimeError, match=f"index {bad} is out of bounds"):
                        z.scatter_reduce_(0, tl.from_numpy(j), tl.ones(300000), "amax", include_self=False)
                    assert not z.numpy().any()
                    with pytest.raises(IndexError, match="index out of range in self"):
                        z.index_add_(0, tl.from_numpy(j), tl.ones(300000))
                    assert not z.numpy().any()
                    z2 = tl.zeros(1000, 2)
                    with pytest.raises(RuntimeError, match=f"index {bad} is out of bounds for dimension 0 with size 1000"):
                        z2.index_add_(0, tl.from_numpy(j), tl.ones(300000, 2))
                    assert not z2.numpy().any()
                finally:
                    tl.set_num_threads(old)
    # non-contiguous index: the first bad in row-major order
    j = np.zeros((4, 6), np.int64)
    j[1, 2], j[3, 0] = 9, 11
    z = tl.zeros(5, 4)
    with pytest.raises(RuntimeError, match="index 11 is out of bounds for dimension 0 with size 5"):
        z.scatter_add_(0, tl.from_numpy(j).t(), tl.ones(6, 4))
    # int32 index
    z = tl.zeros(5)
    z.scatter_add_(0, tl.from_numpy(np.array([1, 1, 4], np.int32)), tl.ones(3))
    assert z.tolist() == [0, 2, 0, 0, 1]
    # an index tensor that is self: read before any write
    v = tl.from_numpy(np.array([1, 0, 3, 3], np.int64))
    v.scatter_add_(0, v, tl.from_numpy(np.array([10, 20, 30, 40], np.int64)))
    assert v.tolist() == [21, 10, 3, 73]


@pytest.mark.parametrize("op", [
    lambda m, x, i: x.scatter(0, i, 1.0), lambda m, x, i: x.scatter_add(0, i, x[:2]),
    lambda m, x, i: x.scatter_reduce(0, i, x[:2], "amax"), lambda m, x, i: x.index_add(0, i[0, :3] * 0, x),
    lambda m, x, i: x.index_copy(0, m.tensor([2, 0, 1]), x), lambda m, x, i: x.masked_fill(x > 0, 1.0),
    lambda m, x, i: x.masked_fill(m.tensor(True), 1.0), lambda m, x, i: x.masked_scatter(x > 0, m.ones(12)),
    lambda m, x, i: x.index_fill(0, i[0, :1], 1.0), lambda m, x, i: x.index_put((i[0],), m.tensor(1.0)),
    lambda m, x, i: x.put(i[0, :2], m.ones(2)),
])
def test_out_of_place_scatters_strides(op):
    """Out of place, scatter/scatter_add/scatter_reduce/index_add/index_copy/masked_fill/
    masked_scatter start from a contiguous clone of a transposed input (torch's layout);
    index_fill/index_put/put keep its strides."""
    def run(m):
        x = m.arange(12.).reshape(4, 3).t()
        r = op(m, x, m.zeros(2, 4, dtype=m.int64))
        return r.stride(), r.tolist()
    assert run(tl) == run(torch)


@pytest.mark.parametrize("shape", [(1000, 1000), (40, 1031), (7, 70000), (300, 129)])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int8"])
def test_scatter_index_add_inner_dim_split_threads(shape, dtype):
    # along dim 0 the threaded scatter splits the columns (the innermost dim) into slabs of
    # at least 2 KB; every thread count gives torch's values (bit for bit: each element sees
    # its updates in row order)
    import torch
    rng = np.random.default_rng(11)
    a = (rng.standard_normal(shape) * 50).astype(dtype)
    idx = rng.integers(0, shape[0], shape)
    vi = rng.integers(0, shape[0], shape[0])
    t, ti, tvi = torch.from_numpy(a), torch.from_numpy(idx), torch.from_numpy(vi)
    want_s = t.scatter_add(0, ti, t).numpy()
    want_i = t.index_add(0, tvi, t).numpy()
    x, xi, xvi = tl.from_numpy(a), tl.from_numpy(idx), tl.from_numpy(vi)
    old = tl.get_num_threads()
    try:
        for nt in (1, 2, 3):
            tl.set_num_threads(nt)
            np.testing.assert_array_equal(x.scatter_add(0, xi, x).numpy(), want_s)
            np.testing.assert_array_equal(x.index_add(0, xvi, x).numpy(), want_i)
            y = x.clone()
            y.index_add_(0, xvi, x[:, :])
            np.testing.assert_array_equal(y.numpy(), want_i)
    finally:
        tl.set_num_threads(old)


_REFUSAL_CALLS = {
    "scatter": lambda x, i: x.scatter(0, i, x[:3]),
    "scatter value": lambda x, i: x.scatter(0, i, 1),
    "scatter_add": lambda x, i: x.scatter_add(0, i, x[:3]),
    "scatter_add 2-D": lambda x, i: x.view(2, 2).scatter_add(1, i[:2].view(2, 1), x[:2].view(2, 1)),
    "scatter reduce=add": lambda x, i: x.scatter(0, i, x[:3], reduce="add"),
    "scatter value reduce=multiply": lambda x, i: x.scatter(0, i, 2, reduce="multiply"),
    **{f"scatter_reduce {r} include_self={s}": (lambda x, i, r=r, s=s: x.scatter_reduce(0, i, x[:3], r, include_self=s))
       for r in ("sum", "prod", "mean", "amax", "amin") for s in (True, False)},
    "index_add": lambda x, i: x.index_add(0, i, x[:3]),
    "index_add 2-D": lambda x, i: x.view(2, 2).index_add(0, i[:2], x.view(2, 2)),
    "put accumulate": lambda x, i: x.put(i, x[:3], accumulate=True),
    "index_put accumulate": lambda x, i: x.index_put((i,), x[:3], accumulate=True),
}
# Where torch's CPU kernels have no case for a dtype tensorlib moves or combines anyway (the
# non-accumulating index ops on the barely supported dtypes, and complex32 sums): beyond torch.
_BEYOND_TORCH = {"complex32", "uint16", "uint32", "uint64", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz",
                 "float8_e5m2fnuz", "float8_e8m0fnu"}


@pytest.mark.parametrize("call", list(_REFUSAL_CALLS))
def test_index_family_dtype_refusals_match_torch(call):
    """The scatter/index_add/put/index_put family refuses the dtypes torch's kernels refuse
    with torch's NotImplementedError and kernel name (mean of bool, amax/amin of complex, the
    exclusion of self, index_add's vector and scatter kernels); where torch refuses a dtype
    tensorlib has a kernel for, that is one of the documented barely supported dtypes, and
    tensorlib's answer is checked against the same call in float64 (or complex128)."""
    f = _REFUSAL_CALLS[call]
    for name in ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
                 "complex32", "complex64", "complex128", "uint16", "uint32", "uint64", "float8_e4m3fn", "float8_e5m2",
                 "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu"):
        t = torch.tensor([1.0, 2.0, 1.0, 1.0]).to(getattr(torch, name))
        x = tl.tensor([1.0, 2.0, 1.0, 1.0]).to(getattr(tl, name))
        try:
            f(t, torch.tensor([0, 0, 1]))
        except NotImplementedError as e:
            try:
                f(x, tl.tensor([0, 0, 1]))
            except NotImplementedError as ours:
                assert str(ours) == str(e), (name, str(ours), str(e))
            else:
                assert name in _BEYOND_TORCH, (name, "accepted; torch:", str(e))
            continue
        r, want = f(x, tl.tensor([0, 0, 1])), f(t, torch.tensor([0, 0, 1]))  # torch accepts: so does tensorlib
        if name.startswith("float8"):  # the other dtypes' values: the grids above
            assert tnp(r.view(tl.uint8)).tolist() == want.view(torch.uint8).tolist(), (name, r, want)


@pytest.mark.parametrize("dtype", ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz"])
def test_float8_index_put_accumulate_rounds_per_step_as_torch(dtype):
    """index_put_(accumulate=True) of float8 sums in float32 and rounds to float8 after every
    addition (torch's element += ), so collisions differ from one rounding of the float32 sum."""
    rng = np.random.default_rng(5)
    base, vals = rng.standard_normal((6, 3)).astype(np.float32), rng.standard_normal((40, 3)).astype(np.float32) * 4
    idx = rng.integers(-6, 6, 40)
    t = torch.from_numpy(base).to(getattr(torch, dtype))
    x = tl.from_numpy(base).to(getattr(tl, dtype))
    want = t.index_put((torch.from_numpy(idx),), torch.from_numpy(vals).to(t.dtype), accumulate=True)
    got = x.index_put((tl.from_numpy(idx),), tl.from_numpy(vals).to(x.dtype), accumulate=True)
    assert tnp(got.view(tl.uint8)).tolist() == want.view(torch.uint8).tolist()


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8",
                                   "uint8"])
def test_index_reduce_matches_torch(dtype):
    """index_reduce/index_reduce_ (every reduction, include_self both ways) over dims, 0-d,
    empty, non-contiguous self and source, duplicates and NaN give torch's values bit for bit
    (float16/bfloat16 round at every step, unlike scatter_reduce); in place returns self."""
    rng = np.random.default_rng(23)
    nan = dtype.startswith(("float", "bfloat"))
    cases = [((5, 4), 0, 9), ((5, 4), 1, 7), ((3, 4, 5), -1, 6), ((3, 4, 5), 1, 0), ((6,), 0, 12), ((), 0, 1)]
    for shape, dim, n in cases:
        base = rng.integers(-3, 4, shape).astype(np.float32) if shape else np.float32(2)
        size = shape[dim] if shape else 1
        idx = rng.integers(0, size, n) if size else np.zeros(0, np.int64)
        sshape = list(shape)
        if sshape:
            sshape[dim] = n
        src = rng.integers(-3, 4, sshape).astype(np.float32) + (0.25 if nan else 0)
        if nan and src.size:
            src.flat[0] = np.nan
        for red in ("prod", "mean", "amax", "amin"):
            for inc in (True, False):
                (x, t), (sx, st) = _lib_pair(np.asarray(base), dtype), _lib_pair(np.asarray(src), dtype)
                if x.dim() == 2:  # a transposed self and source
                    x, t = x.t().contiguous().t(), t.t().contiguous().t()
                    sx, st = sx.t().contiguous().t(), st.t().contiguous().t()
                want = t.index_reduce(dim, torch.from_numpy(idx), st, red, include_self=inc)
                got = x.index_reduce(dim, tl.from_numpy(idx), sx, red, include_self=inc)
                try:
                    _bits_equal(got, want)
                except AssertionError as e:
                    raise AssertionError(f"{shape} dim={dim} {red} include_self={inc}: {e}") from None
                assert x.index_reduce_(dim, tl.from_numpy(idx.astype(np.int32)), sx, red, include_self=inc) is x
                _bits_equal(x, want)


def test_index_reduce_errors_match_torch():
    """index_reduce's refusals: torch's exception types and messages, in torch's order, and
    the input left as it was."""
    cases = [
        lambda L: L.ones(3).index_reduce(0, L.tensor([0]), L.ones(1), "sum"),
        lambda L: L.ones(3).index_reduce(5, L.tensor([0]), L.ones(1), "prod"),
        lambda L: L.ones(3, 2).index_reduce(1, L.tensor([[0]]), L.ones(4).double(), "prod"),
        lambda L: L.ones(3, 2).index_reduce(1, L.tensor([0.0]), L.ones(4).double(), "prod"),
        lambda L: L.ones(3, 2).index_reduce(1, L.tensor([0]), L.ones(4).double(), "prod"),
        lambda L: L.ones(3, 2).index_reduce(1, L.tensor([0]), L.ones(4), "prod"),
        lambda L: L.ones(3, 2).index_reduce(0, L.tensor([0, 1]), L.ones(3, 2), "mean"),
        lambda L: L.ones(3, 2).index_reduce(0, L.tensor([0]), L.ones(1, 3), "mean"),
        lambda L: L.ones(()).index_reduce(0, L.tensor([0, 0]), L.ones(2), "amax"),
        lambda L: L.ones(3).index_reduce(0, L.tensor([0]), L.ones(()), "amax"),
        lambda L: L.ones(3, 2).index_reduce(0, L.tensor([0, 3]), L.ones(2, 2), "amin"),
        lambda L: L.ones(3, 2).index_reduce(0, L.tensor([0, -1]), L.ones(2, 2), "amin"),
        lambda L: L.ones(3).bool().index_reduce(0, L.tensor([0, 5]), L.ones(2).bool(), "prod"),
        lambda L: L.ones(3).to(L.complex64).index_reduce(0, L.tensor([0]), L.ones(1).to(L.complex64), "amax"),
        lambda L: L.ones(3).to(L.complex64).index_reduce(0, L.tensor([0]), L.ones(1).to(L.complex64), "prod",
                                                         include_self=False),
        lambda L: L.ones(3).to(L.uint16).index_reduce(0, L.tensor([0]), L.ones(1).to(L.uint16), "mean"),
    ]
    for k, f in enumerate(cases):
        with pytest.raises(Exception) as want:
            f(torch)
        with pytest.raises(type(want.value)) as got:
            f(tl)
        assert str(got.value) == str(want.value), (k, str(got.value), str(want.value))
    x = tl.ones(3, 2)
    with pytest.raises(IndexError):
        x.index_reduce_(0, tl.tensor([0, 3]), tl.full((2, 2), 5.0), "amax")
    assert x.tolist() == [[1.0, 1.0]] * 3
