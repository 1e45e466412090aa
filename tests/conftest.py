"""Shared oracles and fixtures for the tensorlib test suite.

torch 2.13 (CPU) is the reference for every rule; NumPy for the interop tests. Modules
that need torch call ``pytest.importorskip("torch")`` themselves or use the ``torch``
fixture here. Nothing here hard-codes a value the oracle could compute.
"""
import math

import numpy as np
import pytest

import tensorlib as tl

try:
    import torch as _torch
except ImportError:  # pragma: no cover - exercised only without torch
    _torch = None

try:
    import ml_dtypes as _ml_dtypes
except ImportError:  # pragma: no cover
    _ml_dtypes = None

# ---- dtype lists --------------------------------------------------------------------

ALL_DTYPE_NAMES = [
    "bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float32", "float64", "complex32", "complex64", "complex128",
    "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu",
    "float4_e2m1fn_x2",
]
SHELL_DTYPE_NAMES = ["uint16", "uint32", "uint64", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz",
                     "float8_e5m2fnuz", "float8_e8m0fnu", "float4_e2m1fn_x2"]
# dtypes with full (non-shell) op support; complex32 is a "regular" dtype in torch but
# torch's CPU kernels for it are limited, so the tests treat it apart.
REGULAR_DTYPE_NAMES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
                       "float32", "float64", "complex64", "complex128"]
INT_DTYPE_NAMES = ["uint8", "int8", "int16", "int32", "int64"]
FLOAT_DTYPE_NAMES = ["float16", "bfloat16", "float32", "float64"]
COMPLEX_DTYPE_NAMES = ["complex64", "complex128"]

# dtypes NumPy represents natively (no ml_dtypes needed)
NUMPY_DTYPE_NAMES = ["bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64",
                     "float16", "float32", "float64", "complex64", "complex128"]

NP_DTYPES = {
    "bool": np.bool_, "uint8": np.uint8, "int8": np.int8, "int16": np.int16, "int32": np.int32,
    "int64": np.int64, "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64,
    "float16": np.float16, "float32": np.float32, "float64": np.float64,
    "complex64": np.complex64, "complex128": np.complex128,
}
if _ml_dtypes is not None:
    NP_DTYPES.update({
        "bfloat16": _ml_dtypes.bfloat16, "float8_e4m3fn": _ml_dtypes.float8_e4m3fn,
        "float8_e5m2": _ml_dtypes.float8_e5m2, "float8_e4m3fnuz": _ml_dtypes.float8_e4m3fnuz,
        "float8_e5m2fnuz": _ml_dtypes.float8_e5m2fnuz,
    })

SHAPES = [(), (0,), (1,), (5,), (2, 3), (3, 0, 2), (2, 3, 4), (1, 2, 1, 3)]


def tl_dtype(name):
    """tensorlib dtype object from its canonical name."""
    return getattr(tl, name)


def torch_dtype(name_or_tl):
    """torch dtype with the same name as a tensorlib dtype (or name)."""
    name = name_or_tl if isinstance(name_or_tl, str) else dtype_name(name_or_tl)
    return getattr(_torch, name)


def dtype_name(dt):
    """'float32' from tensorlib.float32 or torch.float32."""
    return str(dt).split(".")[-1]


# ---- fixtures -----------------------------------------------------------------------

@pytest.fixture
def torch():
    """The torch oracle, or a skip when torch is not installed."""
    return pytest.importorskip("torch")


@pytest.fixture
def ml_dtypes():
    return pytest.importorskip("ml_dtypes")


@pytest.fixture(autouse=True)
def _restore_defaults():
    """Tests that change the default dtype or device must not leak it."""
    dd = tl.get_default_dtype()
    yield
    if tl.get_default_dtype() != dd:
        tl.set_default_dtype(dd)


# ---- building inputs ----------------------------------------------------------------

def sample_values(shape, name, seed=0):
    """A NumPy float64/complex128/bool array of values representable (or at least
    castable) in dtype `name`; small integers so every dtype holds them exactly."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape)) if shape else 1
    if name == "bool":
        return (rng.integers(0, 2, n) == 1).reshape(shape)
    if name.startswith("uint") or name == "uint8":
        return rng.integers(0, 100, n).astype(np.float64).reshape(shape)
    if name.startswith("complex"):
        return (rng.integers(-8, 9, n) + 1j * rng.integers(-8, 9, n)).reshape(shape)
    if name.startswith("float8_e8m0"):
        return (2.0 ** rng.integers(-4, 5, n)).reshape(shape)
    return rng.integers(-8, 9, n).astype(np.float64).reshape(shape)


def make_pair(shape, name, seed=0):
    """(tensorlib tensor, torch tensor) with the same values, dtype and shape."""
    vals = sample_values(shape, name, seed)
    t = None
    if _torch is not None:
        t = _torch.empty(shape, dtype=torch_dtype(name))
        t.copy_(_torch.from_numpy(np.array(vals, order="C")))
    if name in NUMPY_DTYPE_NAMES:
        x = tl.tensor(vals.astype(NP_DTYPES[name]))
    else:
        x = tl.tensor(vals.astype(np.complex128 if np.iscomplexobj(vals) else np.float64)).to(tl_dtype(name))
    if x.numel() == 0:  # tensor() keeps NumPy's strides (all 0 for empty arrays), torch.empty's side has its own
        x = tl.empty(shape, dtype=x.dtype)
    return x, t


def noncontig_views(x):
    """A few non-contiguous views of a tensor of >= 2 dims (for tensorlib or torch alike)."""
    out = []
    if x.dim() >= 2:
        out.append(x.transpose(0, 1))
        out.append(x[:, ::2])
    if x.dim() >= 1 and x.shape[0] > 1:
        out.append(x[::2])
    return out


def negative_stride_numpy(shape, npdtype, seed=0):
    """A NumPy view with a negative stride on every dim (values from sample_values)."""
    a = np.ascontiguousarray(sample_values(shape, "int64", seed)).astype(npdtype)
    sl = tuple(slice(None, None, -1) for _ in shape)
    return a[sl]


# ---- comparison ---------------------------------------------------------------------

def to_numpy(x):
    """float64/complex128/bool NumPy copy of a tensorlib tensor, torch tensor or array."""
    if _torch is not None and isinstance(x, _torch.Tensor):
        x = x.detach()
        if x.dtype == _torch.bool:
            return x.numpy().copy()
        if x.is_complex():
            return x.to(_torch.complex128).numpy()
        if x.dtype in (_torch.uint16, _torch.uint32, _torch.uint64):
            return x.numpy().astype(np.float64)
        return x.to(_torch.float64).numpy()
    if isinstance(x, tl.Tensor):
        name = dtype_name(x.dtype)
        if name == "bool":
            return np.array(x.numpy())
        if name.startswith("complex"):
            return np.array(x.to(tl.complex128).numpy())
        if name in ("uint16", "uint32", "uint64"):
            return np.array(x.numpy()).astype(np.float64)
        return np.array(x.to(tl.float64).numpy())
    return np.asarray(x)


def assert_same(x, ref, *, strides=False, dtype=True, names=None):
    """x (tensorlib) matches ref (torch tensor or NumPy array) in shape, dtype, values
    (NaN == NaN, signed zeros not distinguished) and, with strides=True, in strides
    (element strides; NumPy byte strides are converted)."""
    assert isinstance(x, tl.Tensor), type(x)
    assert tuple(x.shape) == tuple(ref.shape), (tuple(x.shape), tuple(ref.shape))
    if dtype:
        if isinstance(ref, np.ndarray):
            want = np.dtype(NP_DTYPES[dtype_name(x.dtype)]) if dtype_name(x.dtype) in NP_DTYPES else None
            assert want == ref.dtype, (x.dtype, ref.dtype)
        else:
            assert dtype_name(x.dtype) == dtype_name(ref.dtype), (x.dtype, ref.dtype)
    if strides:
        if isinstance(ref, np.ndarray):
            want = tuple(s // ref.itemsize for s in ref.strides)
        else:
            want = tuple(ref.stride())
        assert tuple(x.stride()) == want, (tuple(x.stride()), want)
    if names is not None:
        assert tuple(x.names) == tuple(names), (x.names, names)
    a = to_numpy(x)
    b = to_numpy(ref)
    np.testing.assert_array_equal(a, b)


def nan_eq(a, b):
    """Elementwise equality treating NaNs (incl. complex NaNs) as equal."""
    a, b = np.asarray(a), np.asarray(b)
    if np.iscomplexobj(a) or np.iscomplexobj(b):
        return nan_eq(a.real, b.real) & nan_eq(a.imag, b.imag)
    if a.dtype.kind == "f" or b.dtype.kind == "f":
        return (a == b) | (np.isnan(a) & np.isnan(b))
    return a == b


def storage_ptr(x):
    """Base address of x's storage (tensorlib or torch)."""
    if isinstance(x, tl.Tensor):
        return x._storage_ptr()
    return x.untyped_storage().data_ptr()


def isclose_float(a, b):
    return a == b or (math.isnan(a) and math.isnan(b))


def outcome(f):
    """('ok', value) or ('raise', exception) for calling f()."""
    try:
        return ("ok", f())
    except Exception as e:  # noqa: BLE001 - the oracle decides which exception
        return ("raise", e)


def assert_same_outcome(f_tl, f_torch, *, message=False, compare=None):
    """f_tl() and f_torch() both return equal values (compare(a, b) when given) or both
    raise the same exception type (and, with message=True, the same text)."""
    kt, vt = outcome(f_torch)
    kx, vx = outcome(f_tl)
    if kt == "raise":
        assert kx == "raise", f"torch raised {type(vt).__name__}: {vt}; tensorlib returned {vx!r}"
        assert isinstance(vx, type(vt)), f"torch raised {type(vt).__name__}: {vt}; tensorlib {type(vx).__name__}: {vx}"
        if message:
            assert str(vx) == str(vt), (str(vx), str(vt))
        return vx
    assert kx == "ok", f"torch returned {vt!r}; tensorlib raised {type(vx).__name__}: {vx}"
    if compare is not None:
        compare(vx, vt)
    else:
        assert vx == vt, (vx, vt)
    return vx


# ---- the fake CUDA runtime (tests/_fake_cudart.py) ------------------------------------

import os as _os

_FAKE_CUDART = _os.environ.get("TL_FAKE_CUDART") == "1"
_NO_KERNEL = "no kernel image is available for execution on the device"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Under the fake CUDA runtime (host stand-in of libcudart, no device code), a test that
    fails only because it launched a kernel is reported as skipped; every other failure
    stays a failure."""
    outcome = yield
    if not _FAKE_CUDART or call.excinfo is None:
        return
    if _NO_KERNEL in str(call.excinfo.value):  # also a subprocess's output in an assertion
        report = outcome.get_result()
        report.outcome = "skipped"
        report.longrepr = (str(item.path), item.location[1] or 0,
                           "Skipped: launches device code (fake CUDA runtime)")
