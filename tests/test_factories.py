"""Factories against torch 2.13: tl.tensor from Python data, NumPy arrays and buffers
(with torch's dtype inference), as_tensor/asarray sharing, from_numpy, frombuffer,
empty/empty_strided/zeros/ones/full (fill dtype inference), the *_like family with
memory_format=, arange/linspace/logspace/eye with dtype=, and names=."""
import array
import warnings

import numpy as np
import pytest

import tensorlib as tl
from conftest import (ALL_DTYPE_NAMES, NP_DTYPES, NUMPY_DTYPE_NAMES, REGULAR_DTYPE_NAMES, assert_same,
                      assert_same_outcome, dtype_name, tl_dtype, torch_dtype)

torch = pytest.importorskip("torch")

# ---- tensor(): Python data ------------------------------------------------------------

PY_DATA = [
    0, 1, -7, True, False, 2.5, -0.0, float("inf"), 1 + 2j, 3j,
    [], [[]], [[], []], [1, 2, 3], [1.0, 2, 3], [True, False], [True, 2], [True, 2.5], [1, 2j],
    [[1, 2], [3, 4]], [[1.5, 2], [3, 4]], [[[1], [2]], [[3], [4]]], (1, 2, 3), ((1, 2), (3, 4)),
    [(1, 2), [3, 4]], [2 ** 62, -2 ** 62], [1e300], [1e-45], [float("nan"), 1.0],
]


@pytest.mark.parametrize("data", PY_DATA, ids=repr)
def test_tensor_from_python_data(data):
    assert_same_outcome(lambda: tl.tensor(data), lambda: torch.tensor(data),
                        compare=lambda a, b: assert_same(a, b))


@pytest.mark.parametrize("name", REGULAR_DTYPE_NAMES)
@pytest.mark.parametrize("data", [[1, 2, 3], [[1.5, -2.5], [0, 3]], 7, 2.5, [True, False], [1 + 1j, 2]], ids=repr)
def test_tensor_with_dtype(data, name):
    assert_same_outcome(lambda: tl.tensor(data, dtype=tl_dtype(name)),
                        lambda: torch.tensor(data, dtype=torch_dtype(name)),
                        compare=lambda a, b: assert_same(a, b))


@pytest.mark.parametrize("data", [[1, [2]], [[1, 2], [3]], [[1], 2], [[1, 2], [3, 4, 5]]], ids=repr)
def test_tensor_ragged_raises_like_torch(data):
    assert_same_outcome(lambda: tl.tensor(data), lambda: torch.tensor(data))


@pytest.mark.parametrize("data", ["abc", None, object(), [1, "a"], {1: 2}, [None]], ids=repr)
def test_tensor_bad_data_raises_like_torch(data):
    assert_same_outcome(lambda: tl.tensor(data), lambda: torch.tensor(data))


def test_tensor_int_overflow_like_torch():
    for data in ([2 ** 63], [-2 ** 63 - 1], 2 ** 64, [1, 2 ** 63]):
        assert_same_outcome(lambda: tl.tensor(data), lambda: torch.tensor(data))
    assert_same_outcome(lambda: tl.tensor(300, dtype=tl.uint8), lambda: torch.tensor(300, dtype=torch.uint8),
                        compare=assert_same)


def test_tensor_of_tensors():
    a, b = tl.tensor([1, 2]), tl.tensor([3, 4])
    ta, tb = torch.tensor([1, 2]), torch.tensor([3, 4])
    # torch warns but accepts lists of tensors
    assert_same_outcome(lambda: tl.tensor([a, b]), lambda: torch.tensor([ta, tb]), compare=assert_same)
    assert_same_outcome(lambda: tl.tensor([tl.tensor(1.5), tl.tensor(2)]),
                        lambda: torch.tensor([torch.tensor(1.5), torch.tensor(2)]), compare=assert_same)
    # tensor(tensor) copies
    c = tl.tensor(a)
    assert c._storage_ptr() != a._storage_ptr()
    assert_same(c, ta)


def test_tensor_of_numpy_scalars():
    for v in (np.float32(1.5), np.int16(3), np.bool_(True), np.complex64(1j), np.uint8(200), np.float16(2)):
        assert_same_outcome(lambda: tl.tensor(v), lambda: torch.tensor(v), compare=assert_same)
        assert_same_outcome(lambda: tl.tensor([v, v]), lambda: torch.tensor([v, v]), compare=assert_same)


# ---- tensor(): NumPy ----------------------------------------------------------------

@pytest.mark.parametrize("name", NUMPY_DTYPE_NAMES)
@pytest.mark.parametrize("shape", [(), (0,), (4,), (2, 3), (2, 0, 3)], ids=str)
def test_tensor_from_numpy_keeps_dtype_and_copies(name, shape):
    a = (np.arange(int(np.prod(shape))) % 5).reshape(shape).astype(NP_DTYPES[name])
    x = tl.tensor(a)
    t = torch.tensor(a)
    assert_same(x, t)
    assert_same(x, a)
    if a.size:
        assert x.data_ptr() != a.ctypes.data
        a.reshape(-1)[0] = 1
        assert to_first(x) != 1 or to_first(t) == 1


def to_first(x):
    return x.reshape(-1)[0].item()


@pytest.mark.parametrize("name", ["float32", "int16", "complex128", "bool"])
def test_tensor_from_noncontiguous_numpy(name):
    a = (np.arange(24) % 7).reshape(2, 3, 4).astype(NP_DTYPES[name])
    for v in (a.transpose(2, 0, 1), a[:, ::2, 1:], a[::-1], a[:, ::-1, ::-2], a[..., 1]):
        x = tl.tensor(v)
        assert_same(x, torch.tensor(v.copy()))
        if min(v.strides) >= 0:  # the copy keeps the array's layout where dense, as torch
            assert x.stride() == torch.tensor(v).stride()
        else:  # torch refuses negative strides; tensorlib copies them C-contiguous
            assert x.is_contiguous()
        y = tl.as_tensor(v)
        assert_same(y, torch.as_tensor(v.copy()))


def test_tensor_from_numpy_byteswapped_and_unaligned():
    a = np.arange(6, dtype=">i4").reshape(2, 3)
    assert_same(tl.tensor(a), torch.tensor(a.astype("<i4")))
    buf = np.zeros(4 * 6 + 1, dtype=np.uint8)
    u = buf[1:].view(np.float32)
    u[:] = np.arange(6)
    assert not u.flags.aligned
    assert_same(tl.tensor(u), torch.tensor(np.arange(6, dtype=np.float32)))


def test_tensor_dtype_conversion_from_numpy():
    a = np.array([1.7, -2.2, 300.0])
    for name in ("int32", "uint8", "float16", "bool", "complex64"):
        assert_same_outcome(lambda: tl.tensor(a, dtype=tl_dtype(name)),
                            lambda: torch.tensor(a, dtype=torch_dtype(name)), compare=assert_same)


# ---- buffers -------------------------------------------------------------------------

def test_tensor_from_buffers():
    assert_same(tl.tensor(array.array("i", [1, 2, 3])), torch.tensor([1, 2, 3], dtype=torch.int32))
    assert_same(tl.tensor(array.array("d", [1.5, 2])), torch.tensor([1.5, 2], dtype=torch.float64))
    assert_same(tl.tensor(bytearray(b"\x01\x02")), torch.tensor([1, 2], dtype=torch.uint8))
    assert_same(tl.tensor(memoryview(b"\x05\x06")), torch.tensor([5, 6], dtype=torch.uint8))


@pytest.mark.parametrize("name", [n for n in ALL_DTYPE_NAMES if n != "bool"])
def test_frombuffer(name):
    raw = bytearray((i * 13 + 1) % 128 for i in range(48))
    x = tl.frombuffer(raw, dtype=tl_dtype(name))
    t = torch.frombuffer(bytearray(raw), dtype=torch_dtype(name))
    assert x.shape == t.shape and x.dtype == tl_dtype(name)
    assert x.view(tl.uint8).tolist() == t.view(torch.uint8).tolist()
    # shares memory with the buffer
    raw[0] = 99
    assert x.view(tl.uint8)[0].item() == 99


def test_frombuffer_count_offset_and_errors():
    raw = bytearray(range(16))
    for kw in ({"count": 2}, {"offset": 4}, {"count": 3, "offset": 2}, {"count": -1, "offset": 8},
               {"count": 5}, {"offset": 16}, {"offset": 17}, {"count": 0}, {"offset": 3}, {"offset": -1}):
        assert_same_outcome(lambda: tl.frombuffer(raw, dtype=tl.int16, **kw),
                            lambda: torch.frombuffer(bytearray(raw), dtype=torch.int16, **kw), compare=assert_same)
    assert_same_outcome(lambda: tl.frombuffer(bytearray(), dtype=tl.float32),
                        lambda: torch.frombuffer(bytearray(), dtype=torch.float32))
    assert_same_outcome(lambda: tl.frombuffer(b"abcd", dtype=tl.uint8),
                        lambda: torch.frombuffer(b"abcd", dtype=torch.uint8), compare=assert_same)
    assert_same_outcome(lambda: tl.frombuffer([1, 2], dtype=tl.uint8),
                        lambda: torch.frombuffer([1, 2], dtype=torch.uint8))


def test_frombuffer_readonly_keeps_working():
    x = tl.frombuffer(b"\x01\x02\x03\x04", dtype=tl.uint8)
    assert x.tolist() == [1, 2, 3, 4]


# ---- as_tensor / asarray / from_numpy -------------------------------------------------

def test_as_tensor_shares_numpy_memory():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = tl.as_tensor(a)
    assert x.data_ptr() == a.ctypes.data
    a[0, 0] = 42
    assert x[0, 0].item() == 42
    y = tl.as_tensor(a, dtype=tl.float64)
    assert y.dtype == tl.float64 and y.data_ptr() != a.ctypes.data
    assert_same(y, torch.as_tensor(a, dtype=torch.float64))


def test_as_tensor_of_tensor():
    x = tl.arange(4)
    assert tl.as_tensor(x) is x
    y = tl.as_tensor(x, dtype=tl.float32)
    assert_same(y, torch.as_tensor(torch.arange(4), dtype=torch.float32))
    assert_same(tl.as_tensor([1, 2.5]), torch.as_tensor([1, 2.5]))


def test_asarray_copy_semantics():
    a = np.arange(4.0)
    assert tl.asarray(a).data_ptr() == a.ctypes.data
    assert tl.asarray(a, copy=True).data_ptr() != a.ctypes.data
    x = tl.arange(3)
    assert tl.asarray(x) is x
    assert tl.asarray(x, copy=True)._storage_ptr() != x._storage_ptr()
    assert_same(tl.asarray([[1, 2], [3, 4]]), torch.asarray([[1, 2], [3, 4]]))


@pytest.mark.parametrize("name", NUMPY_DTYPE_NAMES)
def test_from_numpy_all_numpy_dtypes(name):
    a = (np.arange(6) % 3).astype(NP_DTYPES[name]).reshape(3, 2)
    x = tl.from_numpy(a)
    assert_same_outcome(lambda: x, lambda: torch.from_numpy(a), compare=lambda p, q: assert_same(p, q, strides=True))
    assert x.data_ptr() == a.ctypes.data


# ---- empty / zeros / ones / full / empty_strided -------------------------------------

SIZE_FORMS = [((2, 3), {}), (((2, 3),), {}), (([2, 3],), {}), ((), {}), ((0,), {}), ((5,), {}),
              ((tl.Size([2, 3]),), {}), (([],), {})]


@pytest.mark.parametrize("fn", ["zeros", "ones", "empty"])
@pytest.mark.parametrize("args", [a for a, _ in SIZE_FORMS], ids=str)
def test_size_forms(fn, args):
    targs = tuple(torch.Size(a) if isinstance(a, tl.Size) else a for a in args)

    def cmp(x, t):
        assert tuple(x.shape) == tuple(t.shape) and x.stride() == t.stride()
        assert x.dtype == tl.float32
        if fn != "empty":
            assert_same(x, t)
    assert_same_outcome(lambda: getattr(tl, fn)(*args), lambda: getattr(torch, fn)(*targs), compare=cmp)


@pytest.mark.parametrize("name", ALL_DTYPE_NAMES)
def test_zeros_ones_full_dtypes(name):
    d = tl_dtype(name)
    assert_same_outcome(lambda: tl.zeros(2, 3, dtype=d).view(tl.uint8).tolist(),
                        lambda: torch.zeros(2, 3, dtype=torch_dtype(name)).view(torch.uint8).tolist())
    if name not in ("float4_e2m1fn_x2",):
        assert_same_outcome(lambda: tl.ones(3, dtype=d).view(tl.uint8).tolist(),
                            lambda: torch.ones(3, dtype=torch_dtype(name)).view(torch.uint8).tolist())


@pytest.mark.parametrize("fill", [1, 2.5, True, 1 + 2j, -3, float("nan"), 2 ** 40], ids=repr)
def test_full_infers_dtype_from_fill(fill):
    assert_same_outcome(lambda: tl.full((2, 2), fill), lambda: torch.full((2, 2), fill), compare=assert_same)
    for name in REGULAR_DTYPE_NAMES:
        assert_same_outcome(lambda: tl.full((3,), fill, dtype=tl_dtype(name)),
                            lambda: torch.full((3,), fill, dtype=torch_dtype(name)), compare=assert_same)


def test_full_with_tensor_fill_and_bad_fill():
    assert_same_outcome(lambda: tl.full((2,), tl.tensor(3)), lambda: torch.full((2,), torch.tensor(3)),
                        compare=assert_same)
    assert_same_outcome(lambda: tl.full((2,), "x"), lambda: torch.full((2,), "x"))
    assert_same_outcome(lambda: tl.full((2,), None), lambda: torch.full((2,), None))


@pytest.mark.parametrize("size,stride", [((2, 3), (3, 1)), ((2, 3), (1, 2)), ((2, 3), (0, 1)), ((0, 3), (1, 1)),
                                         ((), ()), ((3,), (2,)), ((2, 2, 2), (1, 2, 4))], ids=str)
def test_empty_strided(size, stride):
    x = tl.empty_strided(size, stride, dtype=tl.int32)
    t = torch.empty_strided(size, stride, dtype=torch.int32)
    assert tuple(x.shape) == tuple(t.shape) and x.stride() == t.stride()
    assert x._storage_nbytes() == t.untyped_storage().nbytes()


@pytest.mark.parametrize("fmt", ["contiguous_format", "channels_last", "preserve_format"])
@pytest.mark.parametrize("fn", ["empty"])
def test_memory_format_on_factories(fn, fmt):
    for shape in [(2, 3, 4, 5), (2, 3), (1, 3, 1, 1)]:
        assert_same_outcome(lambda: getattr(tl, fn)(*shape, memory_format=getattr(tl, fmt)).stride(),
                            lambda: getattr(torch, fn)(*shape, memory_format=getattr(torch, fmt)).stride())


# ---- *_like ----------------------------------------------------------------------------

def _like_inputs():
    base = np.arange(120, dtype=np.float32).reshape(2, 3, 4, 5)
    yield "contig", tl.tensor(base), torch.tensor(base)
    yield "cl", tl.tensor(base).contiguous(memory_format=tl.channels_last), \
        torch.tensor(base).contiguous(memory_format=torch.channels_last)
    yield "perm", tl.tensor(base).permute(3, 1, 0, 2), torch.tensor(base).permute(3, 1, 0, 2)
    yield "step", tl.tensor(base)[:, :, ::2], torch.tensor(base)[:, :, ::2]
    yield "expand", tl.tensor(base[:1]).expand(4, 3, 4, 5), torch.tensor(base[:1]).expand(4, 3, 4, 5)
    yield "t", tl.tensor(base[0, 0]).t(), torch.tensor(base[0, 0]).t()
    yield "0d", tl.tensor(1.5), torch.tensor(1.5)
    yield "empty", tl.zeros(0, 3), torch.zeros(0, 3)


@pytest.mark.parametrize("fmt", [None, "preserve_format", "contiguous_format", "channels_last"])
@pytest.mark.parametrize("fn", ["empty_like", "zeros_like", "ones_like", "full_like"])
def test_like_family(fn, fmt):
    for label, x, t in _like_inputs():
        kw = {} if fmt is None else {"memory_format": getattr(tl, fmt)}
        tkw = {} if fmt is None else {"memory_format": getattr(torch, fmt)}
        extra = (7,) if fn == "full_like" else ()

        def cmp(a, b):
            assert tuple(a.shape) == tuple(b.shape), label
            assert a.stride() == b.stride(), (label, a.stride(), b.stride())
            assert dtype_name(a.dtype) == dtype_name(b.dtype)
            if fn != "empty_like":
                assert_same(a, b)
        assert_same_outcome(lambda: getattr(tl, fn)(x, *extra, **kw), lambda: getattr(torch, fn)(t, *extra, **tkw),
                            compare=cmp)


@pytest.mark.parametrize("name", ["int8", "float64", "bool", "complex64", "float8_e5m2"])
def test_like_with_dtype(name):
    x, t = tl.zeros(2, 3), torch.zeros(2, 3)
    for fn in ("empty_like", "zeros_like"):
        a = getattr(tl, fn)(x, dtype=tl_dtype(name))
        b = getattr(torch, fn)(t, dtype=torch_dtype(name))
        assert a.dtype == tl_dtype(name) and a.stride() == b.stride()
    assert_same_outcome(lambda: tl.full_like(x, 3, dtype=tl_dtype(name)),
                        lambda: torch.full_like(t, 3, dtype=torch_dtype(name)),
                        compare=lambda a, b: a.view(tl.uint8).tolist() == b.view(torch.uint8).tolist())


def test_like_rejects_non_tensor():
    assert_same_outcome(lambda: tl.zeros_like([1, 2]), lambda: torch.zeros_like([1, 2]))


# ---- arange / linspace / logspace / eye ------------------------------------------------

ARANGE_ARGS = [(5,), (0,), (2, 7), (7, 2), (1, 10, 3), (10, 1, -3), (0.5, 3), (0, 1, 0.1), (-1.5, 1.5, 0.5),
               (1, 2, 0.3), (0, 5, 1.0), (3.0,), (5, 5), (0, -3, -1), (1e-3, 2e-3, 1e-4)]


@pytest.mark.parametrize("args", ARANGE_ARGS, ids=str)
def test_arange(args):
    assert_same_outcome(lambda: tl.arange(*args), lambda: torch.arange(*args), compare=assert_same)


@pytest.mark.parametrize("name", ["uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
                                  "float64"])
def test_arange_dtypes(name):
    for args in [(5,), (0, 3, 0.5), (1, 4)]:
        assert_same_outcome(lambda: tl.arange(*args, dtype=tl_dtype(name)),
                            lambda: torch.arange(*args, dtype=torch_dtype(name)), compare=assert_same)


@pytest.mark.parametrize("args", [(0, 1, 0), (0, 10, -1), (10, 0, 1), (0, float("inf")), (0, float("nan")),
                                  (0, 1e20, 1e-20)], ids=str)
def test_arange_errors(args):
    assert_same_outcome(lambda: tl.arange(*args), lambda: torch.arange(*args), compare=assert_same)


def test_arange_tensor_args():
    assert_same_outcome(lambda: tl.arange(tl.tensor(4)), lambda: torch.arange(torch.tensor(4)), compare=assert_same)
    assert_same_outcome(lambda: tl.arange(tl.tensor(1.5), 4), lambda: torch.arange(torch.tensor(1.5), 4),
                        compare=assert_same)


LIN_ARGS = [(0, 1, 5), (1, 0, 5), (-3, 3, 7), (0, 1, 1), (0, 1, 0), (2, 2, 4), (0, 10, 11), (1e-3, 1e3, 9),
            (0, 1, 100), (-1, 1, 2), (0.1, 0.7, 3), (0, 1 + 1j, 3)]


@pytest.mark.parametrize("args", LIN_ARGS, ids=str)
def test_linspace(args):
    assert_same_outcome(lambda: tl.linspace(*args), lambda: torch.linspace(*args),
                        compare=lambda a, b: _close(a, b))


@pytest.mark.parametrize("name", ["int8", "uint8", "int32", "int64", "float16", "bfloat16", "float32", "float64",
                                  "complex64", "complex128"])
def test_linspace_dtypes(name):
    for args in [(0, 10, 6), (-5, 5, 4), (0, 3, 7), (10, 0, 6)]:
        assert_same_outcome(lambda: tl.linspace(*args, dtype=tl_dtype(name)),
                            lambda: torch.linspace(*args, dtype=torch_dtype(name)),
                            compare=lambda a, b: _close(a, b))


@pytest.mark.parametrize("args", [(0, 1, 5), (0, 2, 3, 2.0), (-2, 2, 5), (0, 3, 4, 3), (1, 0, 1), (0, 1, 0)],
                         ids=str)
def test_logspace(args):
    assert_same_outcome(lambda: tl.logspace(*args), lambda: torch.logspace(*args),
                        compare=lambda a, b: _close(a, b))
    for name in ("float64", "int64", "complex64"):
        assert_same_outcome(lambda: tl.logspace(*args, dtype=tl_dtype(name)),
                            lambda: torch.logspace(*args, dtype=torch_dtype(name)),
                            compare=lambda a, b: _close(a, b))


def test_linspace_bad_steps():
    for steps in (-1, 2.0, "3", None):
        assert_same_outcome(lambda: tl.linspace(0, 1, steps), lambda: torch.linspace(0, 1, steps))


def _close(a, b):
    assert tuple(a.shape) == tuple(b.shape)
    assert dtype_name(a.dtype) == dtype_name(b.dtype)
    x = np.array(a.to(tl.complex128 if a.is_complex() else tl.float64).numpy())
    y = b.to(torch.complex128 if b.is_complex() else torch.float64).numpy()
    if a.is_floating_point() or a.is_complex():
        rtol = {"float16": 1e-3, "bfloat16": 1e-2}.get(dtype_name(a.dtype), 1e-6)
        np.testing.assert_allclose(x, y, rtol=rtol, atol=rtol * 1e-3)
    else:
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("args", [(3,), (2, 4), (4, 2), (0,), (0, 3), (1, 1), (3, 0)], ids=str)
def test_eye(args):
    assert_same_outcome(lambda: tl.eye(*args), lambda: torch.eye(*args), compare=assert_same)
    for name in ("bool", "int32", "float64", "complex64", "bfloat16"):
        assert_same_outcome(lambda: tl.eye(*args, dtype=tl_dtype(name)),
                            lambda: torch.eye(*args, dtype=torch_dtype(name)), compare=assert_same)


@pytest.mark.parametrize("args", [(-1,), (2, -1), (2.0,), (True,)], ids=str)
def test_eye_errors(args):
    assert_same_outcome(lambda: tl.eye(*args), lambda: torch.eye(*args), compare=assert_same)


def test_out_arguments():
    out = tl.empty(5, dtype=tl.int64)
    r = tl.arange(5, out=out)
    assert r is out
    assert_same(out, torch.arange(5))
    out = tl.empty(4)
    assert tl.linspace(0, 1, 4, out=out) is out
    _close(out, torch.linspace(0, 1, 4))


def test_scalar_tensor():
    for v in (1, 2.5, True):
        assert_same(tl.scalar_tensor(v), torch.scalar_tensor(v))
        assert_same(tl.scalar_tensor(v, dtype=tl.int32), torch.scalar_tensor(v, dtype=torch.int32))


# ---- names= ----------------------------------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda names: tl.zeros(2, 3, names=names),
    lambda names: tl.ones(2, 3, names=names),
    lambda names: tl.empty(2, 3, names=names),
    lambda names: tl.full((2, 3), 1.5, names=names),
    lambda names: tl.tensor([[1, 2, 3], [4, 5, 6]], names=names),
])
def test_names_on_factories(make):
    for names in [("N", "C"), ("N", None), (None, None)]:
        x = make(names)
        assert x.names == names
        assert x.has_names() == any(n is not None for n in names)
    with pytest.raises(RuntimeError):
        make(("N",))
    with pytest.raises(RuntimeError):
        make(("N", "N"))


def test_names_none_means_unnamed():
    x = tl.zeros(2, 3, names=None)
    assert x.names == (None, None) and not x.has_names()
    assert tl.zeros((), names=()).names == ()


def test_like_keeps_names():
    x = tl.zeros(2, 3, names=("N", "C"))
    for fn in (tl.empty_like, tl.zeros_like, tl.ones_like):
        assert fn(x).names == ("N", "C")
    assert tl.full_like(x, 2).names == ("N", "C")


# ---- out= of empty/zeros/ones/full, against torch 2.13 -----------------------------------

_OUT_CASES = [
    ("zeros", (3,), {}, ("int64", (2,), None)),
    ("zeros", (3,), {"dtype": "float32"}, ("int64", (2,), None)),      # dtype mismatch
    ("ones", (2, 3), {}, ("float32", (3, 2), "t")),                    # resized
    ("ones", (3, 2), {}, ("float32", (3, 2), "t")),                    # same shape: strides kept
    ("ones", (2,), {}, ("complex64", (2,), None)),
    ("full", ((3,), 2.5), {}, ("int64", (2,), None)),
    ("full", ((3,), 300), {}, ("int8", (2,), None)),                   # overflow
    ("full", ((3,), True), {}, ("float32", (2,), None)),
    ("full", ((2,), 1), {"dtype": "int64"}, ("int64", (2,), None)),
    ("zeros", (3,), {}, ("float32", (6,), "step")),                    # a strided view, written in place
    ("zeros", (2, 2), {}, ("float32", (0,), None)),
    ("zeros", (3,), {"device": "meta"}, ("float32", (5,), None)),      # device mismatch
    ("zeros", (3,), {"device": "cpu"}, ("float32", (3,), None)),
    ("empty", (2,), {}, ("float32", (3,), None)),
]


@pytest.mark.parametrize("name, args, kwargs, out_spec", _OUT_CASES)
def test_factory_out_matches_torch(name, args, kwargs, out_spec):
    torch = pytest.importorskip("torch")
    results = []
    for lib in (tl, torch):
        dtype, shape, how = out_spec
        base = lib.arange(float(np.prod(shape) or 1)).reshape(-1)[:int(np.prod(shape))].reshape(shape).to(getattr(lib, dtype))
        out = base.t() if how == "t" else base[::2] if how == "step" else base
        kw = {k: getattr(lib, v) if k == "dtype" else v for k, v in kwargs.items()}
        try:
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                r = getattr(lib, name)(*args, out=out, **kw)
            assert r is out
            vals = None if name == "empty" else r.tolist()
            results.append((str(r.dtype).split(".")[-1], tuple(r.shape), tuple(r.stride()), vals,
                            [str(x.message)[:60] for x in w if "resized" in str(x.message)],
                            None if how != "step" else base.tolist()))
        except (RuntimeError, TypeError) as e:
            results.append((type(e).__name__, str(e)))
    assert results[0] == results[1]


def test_factory_out_type_errors_and_values_of_empty():
    with pytest.raises(TypeError, match="argument 'out' must be Tensor, not int"):
        tl.zeros(2, out=3)
    o = tl.arange(3.0)
    assert tl.empty(3, out=o) is o and o.tolist() == [0.0, 1.0, 2.0]  # same shape: untouched
    named = tl.empty(2, names=("b",))
    assert tl.ones(2, out=named) is named and named.names == ("b",) and named.tolist() == [1.0, 1.0]
    with pytest.raises(TypeError, match="names= and out= cannot be used together"):
        tl.zeros(2, names=("a",), out=tl.empty(2))


def test_empty_strided_checks_as_torch():
    """Negative sizes, then sizes/strides of different lengths, then negative strides (refused
    with storage, contiguous strides for an empty tensor), in torch's order and words, for
    empty_strided and new_empty_strided."""
    cases = [((0, 2), (-1, 1)), ((2, 2), (-1, 1)), ((-1, 2), (1,)), ((-1, 2), (-1, 1)), ((2,), (1, 2)),
             ((3, 0), (-5, -1)), ((2, 3), (3, 1)), ((), ()), ((2,), (0,))]
    for size, stride in cases:
        for make in (lambda L: L.empty_strided(size, stride), lambda L: L.ones(1).new_empty_strided(size, stride)):
            try:
                want = make(torch).stride()
            except RuntimeError as e:
                with pytest.raises(RuntimeError) as got:
                    make(tl)
                assert str(got.value) == str(e)
            else:
                assert make(tl).stride() == want
