"""NumPy interop: from_numpy/numpy() share memory both ways, exporter lifetime, read-only
arrays, the buffer protocol (format codes, shape, strides), np.asarray/np.array and
NumPy 2's __array__(copy=), bfloat16/float8 through ml_dtypes, non-contiguous and
negative-stride arrays."""
import gc
import sys
import weakref

import numpy as np
import pytest

import tensorlib as tl
from conftest import NP_DTYPES, NUMPY_DTYPE_NAMES, assert_same, assert_same_outcome, tl_dtype

torch = pytest.importorskip("torch")

ML_NAMES = ["bfloat16", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz"]


def _arr(name, shape=(3, 4)):
    return (np.arange(int(np.prod(shape))) % 5).astype(NP_DTYPES[name]).reshape(shape)


@pytest.mark.parametrize("name", NUMPY_DTYPE_NAMES)
def test_from_numpy_shares_both_ways(name):
    a = _arr(name)
    x = tl.from_numpy(a)
    assert x.data_ptr() == a.ctypes.data
    assert x.dtype == tl_dtype(name)
    assert x.stride() == tuple(s // a.itemsize for s in a.strides)
    one = np.ones((), dtype=a.dtype)
    a[1, 2] = one
    assert x[1, 2].item() == one.item()
    x[2, 3] = 0
    assert a[2, 3] == 0
    n = x.numpy()
    assert n.ctypes.data == a.ctypes.data and n.dtype == a.dtype and n.shape == a.shape
    n[0, 0] = one
    assert x[0, 0].item() == one.item()


@pytest.mark.parametrize("name", NUMPY_DTYPE_NAMES)
def test_numpy_of_views(name):
    a = _arr(name, (4, 6))
    x = tl.from_numpy(a.copy())
    for f in (lambda v: v.t(), lambda v: v[:, ::2], lambda v: v[1:, 2:], lambda v: v[::2, ::3].t(),
              lambda v: v[1], lambda v: v[1, 2], lambda v: v[:, None], lambda v: v[:1].expand(3, 6),
              lambda v: v[:0]):
        vx = f(x)
        if vx.numel() == 0:  # torch exports empty arrays with all-zero strides; only the shape matters
            assert vx.numpy().shape == f(torch.from_numpy(a.copy())).numpy().shape
            continue
        n = vx.numpy()
        ref = f(torch.from_numpy(a.copy())).numpy()
        assert n.shape == ref.shape and n.strides == ref.strides and n.dtype == ref.dtype
        np.testing.assert_array_equal(n, ref)
        if vx.numel():
            assert n.ctypes.data == vx.data_ptr()


def test_exporter_lifetime():
    a = np.arange(1000, dtype=np.float64)
    r = weakref.ref(a) if hasattr(a, "__weakref__") else None
    x = tl.from_numpy(a)
    v = x[10:20]
    del a
    gc.collect()
    assert v.tolist() == list(map(float, range(10, 20)))
    del x
    gc.collect()
    assert v.tolist()[0] == 10.0
    del v
    gc.collect()
    if r is not None:
        assert r() is None


def test_numpy_result_keeps_tensor_alive():
    x = tl.arange(100, dtype=tl.int32)
    n = x[5:].numpy()
    del x
    gc.collect()
    assert n[0] == 5 and n[-1] == 99
    n[0] = 7
    assert n[0] == 7


def test_refcounts_do_not_leak():
    a = np.arange(10.0)
    before = sys.getrefcount(a)
    for _ in range(50):
        x = tl.from_numpy(a)
        _ = x.numpy()
        del x, _
    gc.collect()
    assert sys.getrefcount(a) == before


def test_read_only_arrays():
    a = np.arange(6.0).reshape(2, 3)
    a.flags.writeable = False
    x = tl.from_numpy(a)
    assert x.tolist() == a.tolist()
    for write in (lambda: x.fill_(1), lambda: x.zero_(), lambda: x.__setitem__(0, 5), lambda: x.copy_(tl.zeros(2, 3)),
                  lambda: x.t().fill_(0), lambda: x[1].zero_()):
        with pytest.raises(RuntimeError):
            write()
    np.testing.assert_array_equal(a, np.arange(6.0).reshape(2, 3))
    # reading and copying are fine
    y = x.clone()
    y.fill_(1)
    assert x.tolist() == a.tolist()
    assert not x.numpy().flags.writeable
    # as_tensor of a read-only array shares too (torch's from_numpy warns; tensorlib forbids writes)
    z = tl.as_tensor(a)
    with pytest.raises(RuntimeError):
        z.fill_(0)


def test_frombuffer_bytes_is_read_only():
    x = tl.frombuffer(b"abcd", dtype=tl.uint8)
    with pytest.raises(RuntimeError):
        x.fill_(0)


FORMATS = {"bool": "?", "uint8": "B", "int8": "b", "int16": "h", "int32": "i", "float16": "e", "float32": "f",
           "float64": "d", "complex64": "Zf", "complex128": "Zd", "uint16": "H", "uint32": "I",
           "int64": np.dtype(np.int64).char, "uint64": np.dtype(np.uint64).char}


@pytest.mark.parametrize("name", ["int64", "uint64"])
def test_64_bit_integers_export_as_numpys_int64(name):
    # the buffer format is the C type NumPy names int64 ('l' on LP64), not 'q' (np.longlong)
    a = np.asarray(tl.tensor([1, 2], dtype=getattr(tl, name)))
    assert a.dtype.type is getattr(np, name) and isinstance(a[0], getattr(np, name))
    assert memoryview(tl.tensor([1, 2], dtype=getattr(tl, name))).format == np.dtype(getattr(np, name)).char


@pytest.mark.parametrize("name", NUMPY_DTYPE_NAMES)
def test_memoryview_format_shape_strides(name):
    a = _arr(name, (3, 4))
    x = tl.from_numpy(a.copy())
    for v, ref in ((x, a), (x.t(), a.T), (x[:, ::2], a[:, ::2]), (x[1], a[1]), (x[1, 1], a[1, 1])):
        m = memoryview(v)
        assert m.shape == ref.shape
        assert m.strides == ref.strides
        assert m.itemsize == ref.itemsize
        if not m.format.startswith("Z"):  # NumPy spells complex 'Zf' only inside struct strings
            assert np.dtype(m.format) == ref.dtype
        if name in FORMATS:
            assert m.format == FORMATS[name]
        assert not m.readonly
        if not m.format.startswith("Z"):
            np.testing.assert_array_equal(np.asarray(m), ref)
        m.release()


def test_memoryview_writes_through_and_release():
    x = tl.zeros(4, dtype=tl.int32)
    with memoryview(x) as m:
        m[1] = 5
    assert x.tolist() == [0, 5, 0, 0]
    ro_arr = np.zeros(3)
    ro_arr.flags.writeable = False
    assert memoryview(tl.from_numpy(ro_arr)).readonly


@pytest.mark.parametrize("name", ["bfloat16", "complex32", "float8_e4m3fn", "float4_e2m1fn_x2"])
def test_memoryview_unsupported_dtypes_raise(name):
    with pytest.raises((BufferError, TypeError, ValueError)):
        memoryview(tl.zeros(2, dtype=tl_dtype(name)))


@pytest.mark.parametrize("name", NUMPY_DTYPE_NAMES)
def test_asarray_shares_array_copies(name):
    x = tl.from_numpy(_arr(name))
    a = np.asarray(x)
    assert a.ctypes.data == x.data_ptr() and a.dtype == NP_DTYPES[name]
    b = np.array(x)
    assert b.ctypes.data != x.data_ptr()
    np.testing.assert_array_equal(a, b)
    b[0, 0] = b[0, 1]
    x[0, 0] = x[0, 2]
    assert a[0, 0] == x[0, 0].item()


def test_array_protocol_copy_keyword():
    x = tl.arange(6, dtype=tl.float32).reshape(2, 3)
    a = x.__array__()
    assert a.ctypes.data == x.data_ptr()
    assert x.__array__(copy=True).ctypes.data != x.data_ptr()
    assert x.__array__(copy=None).ctypes.data == x.data_ptr()
    assert x.__array__(copy=False).ctypes.data == x.data_ptr()
    d = x.__array__(np.float64)
    assert d.dtype == np.float64
    with pytest.raises(ValueError):
        x.__array__(np.float64, copy=False)
    assert np.array(x, copy=False).ctypes.data == x.data_ptr()
    assert np.array(x, copy=True).ctypes.data != x.data_ptr()
    with pytest.raises(ValueError):
        np.array(x, dtype=np.float64, copy=False)
    assert np.asarray(x, dtype=np.float32).ctypes.data == x.data_ptr()
    # transposed views come through with their strides
    t = np.asarray(x.t())
    assert t.strides == (4, 12)


@pytest.mark.parametrize("name", ML_NAMES)
def test_ml_dtypes_round_trip(name, ml_dtypes):
    import ml_dtypes as md
    vals = np.array([0, 1, -2, 0.5, 3], dtype=np.float32)
    a = vals.astype(getattr(md, name))
    x = tl.from_numpy(a)
    assert x.dtype == tl_dtype(name)
    assert x.data_ptr() == a.ctypes.data
    n = x.numpy()
    assert n.dtype == a.dtype and n.ctypes.data == a.ctypes.data
    np.testing.assert_array_equal(n.astype(np.float32), a.astype(np.float32))
    # tensorlib's own cast agrees with ml_dtypes on these exactly representable values
    np.testing.assert_array_equal(x.to(tl.float32).numpy(), vals)
    assert np.asarray(x).dtype == a.dtype
    y = tl.tensor(a)
    assert y.dtype == tl_dtype(name) and y.data_ptr() != a.ctypes.data


def test_bfloat16_numpy_without_ml_dtypes_is_clear(monkeypatch):
    monkeypatch.setitem(sys.modules, "ml_dtypes", None)
    x = tl.zeros(2, dtype=tl.bfloat16)
    try:
        r = x.numpy()
    except TypeError as e:
        assert "bfloat16" in str(e).lower()
    else:  # ml_dtypes was imported earlier and cached by tensorlib: fine, it must be right
        assert str(r.dtype) == "bfloat16"


def test_complex32_numpy_raises_like_torch():
    assert_same_outcome(lambda: tl.zeros(2, dtype=tl.complex32).numpy(),
                        lambda: torch.zeros(2, dtype=torch.complex32).numpy())


@pytest.mark.parametrize("name", ["float32", "int16", "complex64", "bool", "uint8"])
def test_non_contiguous_arrays(name):
    a = _arr(name, (4, 6, 2))
    for v in (a.transpose(2, 0, 1), a[:, ::2], a[1:, 1:, 1], a[..., 0], np.broadcast_to(a[:1], (3, 6, 2)),
              np.asfortranarray(a)):
        x = tl.from_numpy(v)
        t = torch.from_numpy(v) if v.flags.writeable else torch.from_numpy(v.copy())
        assert_same(x, t)
        assert x.stride() == tuple(s // v.itemsize for s in v.strides)
        if v.size:
            assert x.data_ptr() == v.ctypes.data
        assert_same(tl.tensor(v), torch.tensor(v))
        assert_same(tl.as_tensor(v), torch.as_tensor(v))


@pytest.mark.parametrize("name", ["float32", "int64", "complex128", "bool"])
def test_negative_strides(name):
    a = _arr(name, (3, 4))
    for v in (a[::-1], a[:, ::-1], a[::-2, ::-1], a.T[::-1]):
        e = assert_same_outcome(lambda: tl.from_numpy(v), lambda: torch.from_numpy(v), message=True)
        assert isinstance(e, ValueError)
        # torch.tensor/as_tensor raise here too; tensorlib's copy instead (SPEC section 8)
        ref = torch.tensor(v.copy())
        x = tl.tensor(v)
        assert_same(x, ref)
        assert x.is_contiguous()
        assert_same(tl.as_tensor(v), ref)
        assert_same(tl.asarray(v), ref)


def test_from_numpy_rejects_non_arrays_and_objects():
    for bad in ([1, 2], 3, np.array([object()]), np.array(["a"]), np.array([b"x"])):
        assert_same_outcome(lambda: tl.from_numpy(bad), lambda: torch.from_numpy(bad))


def test_from_numpy_byte_order_and_alignment():
    a = np.arange(4, dtype=">f4")
    assert_same_outcome(lambda: tl.from_numpy(a), lambda: torch.from_numpy(a), compare=assert_same)
    # as_tensor/tensor byte-swap into a private copy
    assert_same(tl.as_tensor(a), torch.tensor(a.astype("<f4")))
    assert_same(tl.tensor(a), torch.tensor(a.astype("<f4")))


def test_numpy_force_and_shell():
    x = tl.arange(3)
    assert x.numpy(force=True).ctypes.data == x.data_ptr()
    for name in ("uint16", "uint32", "uint64"):
        t = tl.zeros(3, dtype=tl_dtype(name))
        n = t.numpy()
        assert n.dtype == NP_DTYPES[name] and n.ctypes.data == t.data_ptr()
