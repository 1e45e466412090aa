"""tensorlib as a dask chunk type (tensorlib/_dask.py, docs/interop.md "dask"): NumPy dtype
conversion of tensorlib dtypes, the NumPy-style methods dask calls on chunks, dask.array
graphs whose blocks stay tensors, and the distributed scheduler."""
import pickle
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import tensorlib as tl

ROOT = Path(__file__).resolve().parent.parent

# dtypes NumPy has natively, and those that come from ml_dtypes
NATIVE = {tl.bool: "bool", tl.uint8: "uint8", tl.int8: "int8", tl.int16: "int16", tl.int32: "int32",
          tl.int64: "int64", tl.uint16: "uint16", tl.uint32: "uint32", tl.uint64: "uint64",
          tl.float16: "float16", tl.float32: "float32", tl.float64: "float64",
          tl.complex64: "complex64", tl.complex128: "complex128"}
ML = ("bfloat16", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu")


# ---- dtypes and chunk methods (no dask needed) --------------------------------------------

@pytest.mark.parametrize("d", list(NATIVE), ids=str)
def test_np_dtype_of_native_dtypes(d):
    assert np.dtype(d) == np.dtype(NATIVE[d])
    assert np.dtype(NATIVE[d]) == d and d.dtype == np.dtype(NATIVE[d])
    assert np.zeros(2, dtype=d).dtype == np.dtype(NATIVE[d])
    assert tl.as_tensor(np.zeros(1, dtype=np.dtype(d))).dtype == d


@pytest.mark.parametrize("name", ML)
def test_np_dtype_through_ml_dtypes(name):
    ml_dtypes = pytest.importorskip("ml_dtypes")
    d = getattr(tl, name)
    assert np.dtype(d) == np.dtype(getattr(ml_dtypes, name))
    assert tl.as_tensor(np.zeros(1, dtype=np.dtype(d))).dtype == d


@pytest.mark.parametrize("d", [tl.complex32, tl.float4_e2m1fn_x2], ids=str)
def test_np_dtype_without_equivalent_raises(d):
    with pytest.raises(TypeError, match=f"tensorlib.{d.__reduce__()} has no NumPy dtype"):
        np.dtype(d)
    assert not hasattr(d, "kind")


def test_dtype_numpy_attributes():
    assert tl.float32.kind == "f" and tl.int64.kind == "i" and tl.uint8.kind == "u" and tl.bool.kind == "b"
    assert tl.complex64.kind == "c" and tl.float64.type is np.float64 and tl.int16.char == "h"
    assert tl.float32.itemsize == 4 and tl.float32.is_floating_point  # tensorlib's own stay
    with pytest.raises(AttributeError):
        tl.float32._no_such_attribute
    with pytest.raises(AttributeError):
        tl.float32.no_such_attribute


def test_astype():
    t = tl.tensor([1.5, -2.5, 3.0])
    for dt in (np.int32, "int32", np.dtype("int32"), tl.int32):
        r = t.astype(dt)
        assert r.dtype == tl.int32 and r.tolist() == [1, -2, 3]
    assert t.astype(tl.float32) is not t and t.astype(np.float32, copy=False) is t
    c = t.astype("float32")
    c[0] = 9
    assert t[0].item() == 1.5  # a copy by default
    with pytest.raises(TypeError, match="Cannot cast"):
        t.astype(np.int32, casting="safe")
    assert t.astype(np.float64, casting="safe").dtype == tl.float64


def test_reduction_methods_take_numpy_keywords(torch):
    a = np.arange(24.).reshape(2, 3, 4)
    t, tt = tl.as_tensor(a), torch.as_tensor(a)
    for m in ("sum", "mean", "amax", "std"):
        r = getattr(t, m)(axis=1, keepdims=True)
        e = getattr(tt, m)(axis=1, keepdims=True)  # torch's own aliases
        assert tuple(r.shape) == tuple(e.shape) and np.allclose(r.numpy(), e.numpy())
    r = tl.as_tensor(np.ones((3, 2), np.float32)).sum(axis=0, dtype=np.float64)
    assert r.dtype == tl.float64 and r.tolist() == [3.0, 3.0]


def test_np_like_functions_return_tensors():
    t = tl.ones(2)
    r = np.asarray([1.0, 2.0], like=t)
    assert isinstance(r, tl.Tensor) and r.tolist() == [1.0, 2.0]
    assert isinstance(np.empty((2, 3), like=t), tl.Tensor)


def test_import_tensorlib_does_not_import_dask():
    code = "import sys, tensorlib; assert not [m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')]"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


# ---- dask.array -------------------------------------------------------------------------

@pytest.fixture
def da():
    """dask.array, imported only by the tests that use it (skipped when dask is absent)."""
    return pytest.importorskip("dask.array")


@pytest.mark.parametrize("order", ["tensorlib first", "dask first"])
def test_registration_follows_dask_import(order, da):
    imports = "import tensorlib, dask.array" if order == "tensorlib first" else "import dask.array, tensorlib"
    code = (f"{imports}\nfrom dask.array.dispatch import concatenate_lookup, numel_lookup\n"
            "assert concatenate_lookup.dispatch(tensorlib.Tensor).__module__ == 'tensorlib._dask'\n"
            "assert numel_lookup.dispatch(tensorlib.Tensor).__module__ == 'tensorlib._dask'")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


A = np.arange(1.0, 49.0).reshape(6, 8)
B = np.linspace(-3, 3, 48).reshape(6, 8)


def _x(a=A, chunks=(4, 3)):
    return pytest.importorskip("dask.array").from_array(tl.as_tensor(a.copy()), chunks=chunks)


def _check(d, expected):
    """d computes to a tensor equal to expected, and every block of d is a tensor."""
    assert isinstance(d._meta, tl.Tensor)
    r = d.compute()
    assert isinstance(r, tl.Tensor), type(r)
    e = np.asarray(expected)
    assert r.dtype == e.dtype and tuple(r.shape) == e.shape
    np.testing.assert_allclose(r.numpy(), e, rtol=1e-12, atol=1e-12)
    if d.ndim:
        for b in d.blocks.ravel():
            assert isinstance(b.compute(), tl.Tensor)


def test_from_array_blocks_are_tensors(da):
    x = _x()
    assert x.dtype is tl.float64 and np.dtype(x.dtype) == np.float64 and x.chunks == ((4, 2), (3, 3, 2))
    assert isinstance(x.blocks[1, 2].compute(), tl.Tensor)
    _check(x, A)


@pytest.mark.parametrize("name", ["add1", "sin", "mul", "where", "astype", "T", "rechunk", "scalar_first"])
def test_elementwise_graphs(name, da):
    x, y = _x(), _x(B)
    d, e = {
        "add1": (x + 1, A + 1),
        "sin": (da.sin(x), np.sin(A)),
        "mul": (x * y, A * B),
        "where": (da.where(y > 0, x, 0.0), np.where(B > 0, A, 0.0)),
        "astype": (x.astype(np.float32) / 2, (A.astype(np.float32) / 2)),
        "T": ((x - y).T, (A - B).T),
        "rechunk": ((x ** 2).rechunk((3, 4)), A ** 2),
        "scalar_first": (2.0 - x, 2.0 - A),
    }[name]
    _check(d, e)


@pytest.mark.parametrize("op", ["sum", "mean", "max", "min", "var", "std", "nanmean", "cumsum"])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
def test_reductions(op, axis, da):
    if op == "cumsum" and not isinstance(axis, int):
        pytest.skip("cumsum takes one axis")
    x = _x()
    fn = getattr(da, op)
    _check(fn(x, axis=axis), getattr(np, op)(A, axis=axis))
    if op != "cumsum":
        _check(fn(x, axis=axis, keepdims=True), getattr(np, op)(A, axis=axis, keepdims=True))


@pytest.mark.parametrize("chunks", [(4, 3), (300, 3)], ids=["uint8 takers", "uint16 takers"])
def test_integer_array_indexing(chunks, da):
    """x[[...]] on tensor blocks: dask indexes each block with the smallest unsigned NumPy
    dtype that holds the chunk size (uint8, uint16), which must select rows, not mask."""
    a = np.arange(600.0 * 8).reshape(600, 8)
    x = _x(a, chunks)
    for key in ([0, 2], [5, 0, 3, 3], np.array([599, 1]), (slice(None), [7, 1, 2]), ([1, 4], slice(2, 5))):
        _check(x[key], a[key])
    _check(x[np.arange(600) % 7 == 0], a[np.arange(600) % 7 == 0])


def test_map_blocks_sees_tensors(da):
    seen = []

    def f(b):
        seen.append(type(b))
        return tl.exp(b / 100) + b.sum(dim=1, keepdim=True)  # tensorlib-only call
    d = _x().map_blocks(f, dtype=np.float64)
    assert isinstance(d._meta, tl.Tensor)
    r = d.compute()
    assert isinstance(r, tl.Tensor) and tl.Tensor in seen and np.ndarray not in seen
    # per-block row sums: columns 0-2, 3-5 and 6-7 are separate blocks
    bounds = [(0, 3), (3, 6), (6, 8)]
    e = np.concatenate([np.exp(A[:, lo:hi] / 100) + A[:, lo:hi].sum(1, keepdims=True) for lo, hi in bounds], 1)
    np.testing.assert_allclose(r.numpy(), e, rtol=1e-12)


def test_products_and_joins(da):
    x, y = _x(), _x(B)
    _check(x @ y.T, A @ B.T)
    _check(da.tensordot(x, y, axes=([1], [1])), np.tensordot(A, B, axes=([1], [1])))
    _check(da.einsum("ij,ij->i", x, y), np.einsum("ij,ij->i", A, B))
    _check(da.concatenate([x, y], axis=1), np.concatenate([A, B], 1))
    _check(da.stack([x, y]), np.stack([A, B]))


def test_dispatch_functions_directly(da):
    from dask.array import dispatch
    t = tl.as_tensor(A)
    r = dispatch.take_lookup(t, np.array([5, 0, 5]), axis=0)
    assert isinstance(r, tl.Tensor) and np.array_equal(r.numpy(), A[[5, 0, 5]])
    r = dispatch.take_lookup(t, np.array([[1, 2], [7, 0]]), axis=1)
    assert tuple(r.shape) == (6, 2, 2) and np.array_equal(r.numpy(), np.take(A, [[1, 2], [7, 0]], axis=1))
    assert np.array_equal(dispatch.take_lookup(t, [3, 1]).numpy(), np.take(A, [3, 1]))
    e = dispatch.empty_lookup.dispatch(tl.Tensor)((2, 3), dtype=np.float32)
    assert isinstance(e, tl.Tensor) and e.dtype == tl.float32 and tuple(e.shape) == (2, 3)
    n = dispatch.numel_lookup(t, axis=(0,), keepdims=True)
    assert isinstance(n, tl.Tensor) and n.tolist() == [[6.0] * 8]
    w = tl.tensor([[1.0, float("nan")], [2.0, 3.0]])
    assert dispatch.nannumel_lookup(w, axis=0).tolist() == [2.0, 1.0]
    assert dispatch.nannumel_lookup(w).item() == 3.0
    assert isinstance(dispatch.to_numpy_dispatch(t), np.ndarray)
    d = dispatch.divide_lookup.dispatch(tl.Tensor)(t, tl.full((6, 8), 2.0), dtype=np.float32)
    assert d.dtype == tl.float32 and np.allclose(d.numpy(), A / 2)
    r = dispatch.einsum_lookup.dispatch(tl.Tensor)("ij->j", t, dtype=np.float64, casting="safe", order="K")
    assert np.allclose(r.numpy(), A.sum(0))


def test_percentile_matches_dask_on_numpy(da):
    ours = da.percentile(_x().ravel(), [10, 50, 90]).compute()
    numpy_backed = da.percentile(da.from_array(A, chunks=(4, 3)).ravel(), [10, 50, 90]).compute()
    np.testing.assert_allclose(np.asarray(ours), numpy_backed)


def test_persist_keeps_tensor_blocks(da):
    p = (_x() * 3).persist()
    assert all(isinstance(v, tl.Tensor) for v in p.dask.values() if not callable(v) and hasattr(v, "shape"))
    _check(p.sum(axis=0), (A * 3).sum(0))


def test_other_dtypes(da):
    a = np.arange(24, dtype=np.int32).reshape(4, 6)
    x = da.from_array(tl.as_tensor(a), chunks=(2, 4))
    _check(x.sum(axis=1), a.sum(1))
    _check(x * 2 + 1, a * 2 + 1)
    f = np.linspace(0, 1, 12, dtype=np.float32).reshape(3, 4)
    _check(da.from_array(tl.as_tensor(f), chunks=2).mean(axis=0), f.mean(0))


# ---- dask.distributed ---------------------------------------------------------------------

def test_tensors_survive_distributed_serialization(da):
    protocol = pytest.importorskip("distributed.protocol")
    t = tl.arange(12, dtype=tl.float32).reshape(3, 4)[:, 1:]
    back = protocol.deserialize(*protocol.serialize({"x": t, "n": tl.tensor([1, 2])}))
    assert isinstance(back["x"], tl.Tensor) and back["x"].dtype == t.dtype and tl.equal(back["x"], t)
    assert back["n"].dtype == tl.int64 and back["n"].tolist() == [1, 2]
    for d in (tl.bfloat16, tl.complex32, tl.bool):  # also the dtypes NumPy lacks
        u = tl.ones(3, dtype=d)
        b = pickle.loads(pickle.dumps(protocol.deserialize(*protocol.serialize(u))))
        assert b.dtype == d and tl.equal(b.to(tl.float32 if d != tl.complex32 else tl.complex64),
                                         u.to(tl.float32 if d != tl.complex32 else tl.complex64))


def test_local_cluster_chunked_reduction(da):
    distributed = pytest.importorskip("distributed")
    a = np.random.default_rng(0).standard_normal((400, 300))
    t = tl.as_tensor(a)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        x = da.from_array(t, chunks=(100, 75))  # 16 blocks
        assert x.npartitions == 16
        fut = client.compute(da.sin(x).sum(axis=0) + x.mean())
        r = fut.result()
        blocks = client.gather(client.compute(list(x.blocks.ravel()[:3])))
        assert all(isinstance(b, tl.Tensor) for b in blocks)
    assert isinstance(r, tl.Tensor)
    np.testing.assert_allclose(r.numpy(), np.sin(a).sum(0) + a.mean(), rtol=1e-12)


def test_docs_example_runs(da):
    pytest.importorskip("distributed")
    text = (ROOT / "docs" / "interop.md").read_text()
    section = text[text.index("\n## dask\n"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    exec(compile(code, "docs/interop.md (dask)", "exec"), {"__name__": "docs_example"})
