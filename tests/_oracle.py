"""Shared helpers for the indexing/joining tests: paired tensorlib/torch tensors from one
NumPy array, and comparisons of values, dtypes, shapes, strides and raised exceptions."""
import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")

DTYPES = ["float32", "float64", "int64", "int32", "int16", "uint8", "bool", "float16", "complex64"]


def make(shape, dtype="float32", seed=0, low=-5, high=6):
    rng = np.random.default_rng(seed)
    a = rng.integers(low, high, size=shape)
    if dtype == "bool":
        return a > 0
    if dtype.startswith("complex"):
        return (a + 1j * rng.integers(low, high, size=shape)).astype(dtype)
    if dtype == "uint8":
        return np.abs(a).astype(dtype)
    return a.astype(dtype)


def pair(a):
    """(tensorlib, torch) tensors holding a copy of the NumPy array a (negative strides copied)."""
    a = np.ascontiguousarray(a)
    return tl.from_numpy(a.copy()), torch.from_numpy(a.copy())


def noncontig(shape, dtype="float32", seed=0):
    """(tensorlib, torch) non-contiguous views (transposed) with the given shape."""
    a = make(shape[::-1], dtype, seed)
    x, t = pair(a)
    perm = list(range(len(shape)))[::-1]
    return x.permute(perm), t.permute(perm)


def tnp(x):
    if isinstance(x, torch.Tensor):
        return x.numpy()
    return np.asarray(x)


def same(x, t, strides=False):
    """x (tensorlib) equals t (torch): dtype, shape, values (NaN-aware), optionally strides."""
    assert str(x.dtype).split(".")[-1] == str(t.dtype).split(".")[-1], (x.dtype, t.dtype)
    assert tuple(x.shape) == tuple(t.shape), (tuple(x.shape), tuple(t.shape))
    np.testing.assert_array_equal(tnp(x), tnp(t))
    if strides:
        assert tuple(x.stride()) == tuple(t.stride()), (x.stride(), t.stride())


def close(x, t, rtol=1e-5, atol=1e-6):
    assert str(x.dtype).split(".")[-1] == str(t.dtype).split(".")[-1], (x.dtype, t.dtype)
    assert tuple(x.shape) == tuple(t.shape)
    np.testing.assert_allclose(tnp(x).astype(np.complex128 if tnp(t).dtype.kind == "c" else np.float64),
                               tnp(t), rtol=rtol, atol=atol)


def both(fx, ft, check=same, match_msg=True):
    """Runs both; they must both raise the same exception type (and message) or agree."""
    try:
        rt = ft()
    except Exception as e:  # noqa: BLE001
        with pytest.raises(type(e)) as info:
            fx()
        if match_msg:
            assert str(info.value).split("\n")[0] == str(e).split("\n")[0]
        return None
    rx = fx()
    if isinstance(rt, tuple):
        assert len(rx) == len(rt)
        for a, b in zip(rx, rt):
            check(a, b)
    else:
        check(rx, rt)
    return rx
