"""The small-op fast paths of issue 15: basic indexing as one geometry (csrc/ops/view.h
tl_geom), element-wise ops on small dense operands without the iterator, and the storage
record cache — each compared with torch 2.13 (geometry, values, messages) on the call forms
that take them and on their neighbours that do not."""
import threading

import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")

KEYS = [3, -1, (1, 2), (1, -3), (None, 1), (1, None, 2), (Ellipsis, 1), (1, Ellipsis), (slice(None), 2),
        (slice(1, None, 2), None, 0), (None, Ellipsis, None), (slice(-2, None), slice(None, None, 3), 1),
        (0, 0, 0), (Ellipsis,), (), (None,), (slice(5, 1),), (2, slice(None), Ellipsis, None, 1)]
BAD = [(4,), (1, 5), (1, -4), (None, 1, 5), (slice(None), 5), (Ellipsis, 7), (0, 0, 0, 0), (1, 2, 3, None, 0)]


@pytest.mark.parametrize("key", KEYS, ids=repr)
@pytest.mark.parametrize("view", ["plain", "transposed", "offset"])
def test_basic_index_geometry_matches_torch(key, view):
    a = np.arange(4 * 3 * 5, dtype=np.float32).reshape(4, 3, 5)
    t, r = tl.tensor(a), torch.tensor(a)
    if view == "transposed":
        t, r = t.transpose(0, 2), r.transpose(0, 2)
    elif view == "offset":
        t, r = t[1:], r[1:]
    try:
        want = r[key]
    except IndexError as e:
        with pytest.raises(IndexError, match=str(e)):
            t[key]
        return
    got = t[key]
    assert tuple(got.shape) == tuple(want.shape)
    assert got.stride() == want.stride() and got.storage_offset() == want.storage_offset()
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    assert got._base is (t._base if t._base is not None else t)


@pytest.mark.parametrize("key", BAD, ids=repr)
def test_out_of_bounds_messages_count_dims_as_torch(key):
    r = torch.zeros(2, 3, 4)
    with pytest.raises(IndexError) as e:
        r[key]
    with pytest.raises(IndexError, match=str(e.value).replace("(", r"\(").replace(")", r"\)")):
        tl.zeros(2, 3, 4)[key]


def test_basic_index_keeps_and_inserts_names():
    x = tl.zeros(2, 3, 4, names=("N", "C", "H"))
    assert x[1].names == ("C", "H") and x[:, None, 1].names == ("N", None, "H") and x[..., 0].names == ("N", "C")


@pytest.mark.parametrize("dt", ["float32", "float64", "int32", "int64", "int8", "uint8", "bool", "complex64", "float16",
                                "bfloat16"])
def test_small_dense_ops_match_torch(dt):
    rng = np.random.default_rng(1)
    a = (rng.standard_normal((3, 5)) * 7).astype(np.float32)
    b = (rng.standard_normal((3, 5)) * 7 + 1).astype(np.float32)
    ta, tb = tl.tensor(a).to(getattr(tl, dt)), tl.tensor(b).to(getattr(tl, dt))
    ra, rb = torch.tensor(a).to(getattr(torch, dt)), torch.tensor(b).to(getattr(torch, dt))
    for f in (lambda m, x, y: x + y, lambda m, x, y: x * y,
              lambda m, x, y: m.maximum(x, y) if not x.is_complex() else x / y,
              lambda m, x, y: x + y[0, 0], lambda m, x, y: x - 2 if x.dtype != m.bool else x | y,
              lambda m, x, y: m.where(x != y, x, y)):
        got, want = f(tl, ta, tb), f(torch, ra, rb)
        assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]
        g, w = (got.float().numpy(), want.float().numpy()) if dt == "bfloat16" else (got.numpy(), want.numpy())
        if dt == "complex64":  # complex division rounds by torch's SIMD path: within an ulp
            np.testing.assert_allclose(g, w, rtol=3e-7)
        else:
            np.testing.assert_array_equal(g, w)


def test_small_dense_ops_alias_and_out():
    a = tl.arange(6.).reshape(2, 3)
    a.add_(a)
    assert a.tolist() == [[0., 2., 4.], [6., 8., 10.]]
    out = tl.empty(2, 3)
    assert tl.mul(a, a, out=out) is out and out[1, 2].item() == 100.
    tl.add(a, 1, out=a)
    assert a[0].tolist() == [1., 3., 5.]
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        tl.tensor([4, 5]) // tl.tensor([1, 0])
    n = tl.ones(2, names=("A",)) + tl.ones(2)
    assert n.names == ("A",)


def test_storage_records_survive_threads():
    def work(res, i):
        acc = 0.0
        for k in range(3000):
            acc += float((tl.ones(4) * k + tl.ones(4))[i % 4])
        res[i] = acc
    res = [None] * 4
    ts = [threading.Thread(target=work, args=(res, i)) for i in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert res == [sum(k + 1.0 for k in range(3000))] * 4


def test_reused_tensor_objects_start_clean():
    """Freed tensor objects are reused (csrc/python/tensor.c freelist): a reused one must
    carry nothing of its previous life — names, _base, weak references, geometry."""
    import gc
    import weakref

    named = tl.zeros(2, 3, 4, names=("N", "C", "H"))
    root = tl.arange(60.0).reshape(3, 4, 5).clone()
    for _ in range(3):
        dead = [named[1] for _ in range(200)]  # more than the list keeps
        refs = [weakref.ref(v) for v in dead[:10]]
        del dead
        gc.collect()
        assert all(r() is None for r in refs)
        fresh = [root[i % 3] for i in range(200)]
        for i, v in enumerate(fresh):
            assert v.names == (None, None) and v._base is root and v.shape == (4, 5)
            assert v.stride() == (5, 1) and v.storage_offset() == 20 * (i % 3)
        plain = [tl.ones(2) + i for i in range(100)]
        assert all(p._base is None and p.tolist() == [1.0 + i] * 2 for i, p in enumerate(plain))
        del fresh, plain

