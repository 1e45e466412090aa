"""repr/str of tensors against torch 2.13's text (dtype names mapped torch. -> tensorlib.).

Each case builds the values once in torch, copies the exact values into tensorlib (through a
wide dtype, so both libraries hold bit-identical elements) and compares the two reprs. Named
tensors are checked against seed 003's printed form (torch 2.13 no longer has names).
"""
import math
import warnings
import re
import zlib

import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
          "float32", "float64", "complex64", "complex128"]
FLOATS = {"float16", "bfloat16", "float32", "float64", "complex64", "complex128"}
SHAPES = [(), (0,), (0, 3), (5,), (2, 3), (2, 3, 4), (1, 1, 1), (37,), (3, 17), (2001,),
          (7, 300)]
KINDS = ["ints", "large", "small", "mixed", "nonfinite", "ratio", "normal", "zeros"]


@pytest.fixture(autouse=True)
def _restore_options():
    yield
    tl.set_printoptions(profile="default")
    torch.set_printoptions(profile="default")
    tl.set_default_dtype(tl.float32)
    torch.set_default_dtype(torch.float32)


def _values(kind, shape, rng):
    n = int(np.prod(shape)) if shape else 1
    if kind == "ints":
        v = rng.integers(-50, 50, n).astype(np.float64)
    elif kind == "large":
        v = rng.uniform(1e5, 1e9, n) * rng.choice([-1, 1], n)
    elif kind == "small":
        v = rng.uniform(1e-7, 1e-5, n)
    elif kind == "mixed":
        v = rng.standard_normal(n) * 100
    elif kind == "nonfinite":
        v = rng.standard_normal(n)
        v[::3] = np.nan
        v[1::5] = np.inf
        v[2::7] = -np.inf
        v[4::6] = 0.0
    elif kind == "ratio":
        v = rng.uniform(1, 2, n)
        v[::2] *= 3000.0
    elif kind == "normal":
        v = rng.standard_normal(n)
    else:
        v = np.zeros(n)
    return v.reshape(shape)


def _torch_tensor(dtype, kind, shape, rng):
    if dtype == "bool":
        return torch.from_numpy(rng.integers(0, 2, shape).astype(bool)).reshape(shape)
    if dtype not in FLOATS:
        info = np.iinfo(dtype)
        lo, hi = (info.min, info.max) if kind in ("large", "mixed") else (-5 if info.min < 0 else 0, 9)
        return torch.from_numpy(rng.integers(lo, hi, shape, dtype=dtype, endpoint=True)).reshape(shape)
    v = _values(kind, shape, rng)
    if dtype.startswith("complex"):
        w = _values(kind if kind != "large" else "small", shape, rng)
        v = v.astype(np.complex128)
        v.imag = np.flip(w).reshape(shape)
    return torch.from_numpy(np.ascontiguousarray(v)).to(getattr(torch, dtype))


def _to_tl(tt):
    """A tensorlib tensor holding exactly tt's elements, in tt's dtype."""
    name = str(tt.dtype).split(".")[1]
    if tt.dtype == torch.float4_e2m1fn_x2:
        raw = tt.view(torch.uint8).numpy()
        return tl.tensor(raw).view(tl.float4_e2m1fn_x2)
    if tt.dtype.is_complex:
        wide = tt.to(torch.complex128).numpy()
    elif tt.dtype.is_floating_point:
        wide = tt.to(torch.float64).numpy()
    else:
        wide = tt.numpy()
    return tl.tensor(wide).to(getattr(tl, name))


def _expected(tt):
    return repr(tt).replace("torch.", "tensorlib.")


def _unwrap_dtype(text):
    # "tensorlib." is 4 characters longer than "torch.", so the dtype suffix can move to its
    # own line in one library and not the other; the wrap rule itself is tested separately.
    return re.sub(r",\n *dtype=", ", dtype=", text)


def _check(tt, t=None):
    t = _to_tl(tt) if t is None else t
    assert _unwrap_dtype(repr(t)) == _unwrap_dtype(_expected(tt))
    assert str(t) == repr(t)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_grid(dtype, shape):
    kinds = KINDS if dtype in FLOATS else ["ints", "large", "zeros"]
    for kind in kinds:
        rng = np.random.default_rng(zlib.crc32(repr((dtype, shape, kind)).encode()))
        _check(_torch_tensor(dtype, kind, shape, rng))


@pytest.mark.parametrize("dtype", DTYPES)
def test_summarized_1000x1000(dtype):
    rng = np.random.default_rng(7)
    _check(_torch_tensor(dtype, "mixed" if dtype in FLOATS else "large", (1000, 1000), rng))


@pytest.mark.parametrize("shape", [(4, 3, 500), (500, 2, 3), (1, 1001), (9, 1, 9, 1, 20)], ids=str)
def test_summarized_nd(shape):
    rng = np.random.default_rng(3)
    _check(_torch_tensor("float32", "mixed", shape, rng))
    _check(_torch_tensor("int64", "large", shape, rng))


@pytest.mark.parametrize("values", [
    [0.0, -0.0], [-0.0], [math.nan], [math.inf, -math.inf], [math.nan, 1.5], [1e8, 1.0],
    [1.00001e8], [9.9e-5, 1.0], [1e-4, 0.1], [1000.0, 1.0], [1000.5, 1.0], [123456789.0],
    [0.5, 1e-300], [1e308, -1e-308], [3.0], [-3.0], [1e20], [2.5e-9]], ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_float_edge_values(values, dtype):
    tt = torch.tensor(values, dtype=torch.float64).to(getattr(torch, dtype))
    _check(tt)
    _check(tt[0])


@pytest.mark.parametrize("values", [
    [1 + 1j], [1 - 1j], [-0.0 - 0.0j], [complex(math.nan, 1)], [complex(1, math.inf)],
    [1e-6 + 1e6j, 2 + 3j], [0.5 + 0.25j, -1.75 - 3j], [complex(-0.0, -0.0), 1j]], ids=str)
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_values(values, dtype):
    tt = torch.tensor(values, dtype=getattr(torch, dtype))
    _check(tt)
    _check(tt[0])


@pytest.mark.parametrize("dtype", ["uint16", "uint32", "uint64"])
def test_unsigned_shell_dtypes(dtype):
    top = int(np.iinfo(dtype).max)
    for vals in ([1, 0, 3, 200], [top, 1, 0]):
        arr = np.array(vals, dtype=dtype)
        _check(torch.from_numpy(arr), tl.tensor(arr))


@pytest.mark.parametrize("dtype", ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz"])
@pytest.mark.parametrize("values", [[1.5, -2.0, 0.0, 3.0], [0.0, 0.0], [0.0625, 16.0], [4.0]], ids=str)
def test_float8(dtype, values):
    tt = torch.tensor(values).to(getattr(torch, dtype))
    _check(tt)


def test_float8_e8m0_and_float4():
    e8 = torch.tensor([1.0, 2.0, 0.5, 64.0]).to(torch.float8_e8m0fnu)
    _check(e8)
    _check(torch.tensor([0], dtype=torch.uint8).view(torch.float8_e8m0fnu))
    f4 = torch.tensor([0, 1, 7, 255], dtype=torch.uint8).view(torch.float4_e2m1fn_x2)
    _check(f4)


def test_complex32():
    with warnings.catch_warnings():  # torch warns about complex32 once per process
        warnings.simplefilter("ignore")
        tt = torch.tensor([1.5, -2.0, 0.0, 3.0]).to(torch.complex32)
    t = tl.tensor([1.5, -2.0, 0.0, 3.0]).to(tl.complex32)
    _check(tt, t)


@pytest.mark.parametrize("opts", [
    dict(precision=2), dict(precision=0), dict(precision=8), dict(threshold=5),
    dict(threshold=math.inf), dict(edgeitems=1, threshold=10), dict(edgeitems=0, threshold=10),
    dict(edgeitems=0), dict(linewidth=40), dict(linewidth=150), dict(profile="short"),
    dict(profile="full"), dict(sci_mode=True), dict(sci_mode=False),
    dict(profile="short", precision=5, sci_mode=True)], ids=str)
@pytest.mark.parametrize("dtype", ["float32", "int64", "complex64", "bool"])
def test_printoptions(opts, dtype):
    tl.set_printoptions(**opts)
    torch.set_printoptions(**opts)
    assert tl.get_printoptions() == torch._tensor_str.get_printoptions()
    rng = np.random.default_rng(11)
    for shape in [(), (5,), (4, 6), (30, 40), (2, 3, 250)]:
        _check(_torch_tensor(dtype, "mixed" if dtype != "int64" else "large", shape, rng))


def test_set_printoptions_resets_sci_mode_and_profile_defaults():
    tl.set_printoptions(sci_mode=True, precision=3)
    assert tl.get_printoptions()["sci_mode"] is True
    tl.set_printoptions(linewidth=100)
    assert tl.get_printoptions() == {"precision": 3, "threshold": 1000, "edgeitems": 3,
                                     "linewidth": 100, "sci_mode": None}
    tl.set_printoptions(profile="default")
    assert tl.get_printoptions() == torch._tensor_str.get_printoptions()


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "int32"])
def test_default_dtype_float64(dtype):
    torch.set_default_dtype(torch.float64)
    tl.set_default_dtype(tl.float64)
    tt = torch.tensor([1.5, 2.0]).to(getattr(torch, dtype))
    _check(tt)
    _check(torch.zeros(0, 2, dtype=getattr(torch, dtype)))


def test_empty_forms():
    for shape in [(0,), (0, 3), (2, 0), (0, 0, 1)]:
        for dtype in ["float32", "int64", "bool", "int8", "complex64", "float64"]:
            _check(torch.zeros(shape, dtype=getattr(torch, dtype)),
                   tl.zeros(shape, dtype=getattr(tl, dtype)))


def test_non_contiguous_inputs():
    base = np.arange(60, dtype=np.float32).reshape(3, 4, 5) / 7
    tt, t = torch.from_numpy(base), tl.from_numpy(base)
    for f in [lambda x: x.transpose(0, 2), lambda x: x[:, ::2, 1:], lambda x: x[1],
              lambda x: x.permute(2, 0, 1)[1]]:
        _check(f(tt), f(t))
    neg = base[::-1, :, ::-2]
    _check(torch.from_numpy(neg.copy()), tl.tensor(neg))
    big = np.random.default_rng(0).standard_normal((50, 60)).astype(np.float32)
    _check(torch.from_numpy(big).t(), tl.from_numpy(big).t())


def test_names_seed_003():
    t = tl.zeros(2, 3, names=("N", "C"))
    assert repr(t) == "tensor([[0., 0., 0.],\n        [0., 0., 0.]], names=('N', 'C'))"
    t = tl.zeros(3, names=(None,))
    assert repr(t) == "tensor([0., 0., 0.])"
    t = tl.ones(2, names=("N",), dtype=tl.int32)
    assert repr(t) == "tensor([1, 1], dtype=tensorlib.int32, names=('N',))"
    t = tl.zeros(2, 3, names=("N", None))
    assert repr(t).endswith("names=('N', None))")


def test_names_suffix_wraps_like_other_suffixes():
    t = tl.ones(15, names=("a_rather_long_dimension_name",), dtype=tl.int8)
    expected = repr(torch.ones(15, dtype=torch.int8)).replace("torch.", "tensorlib.")
    expected = expected[:-1] + ",\n       names=('a_rather_long_dimension_name',))"
    assert repr(t) == expected


def test_dtype_suffix_wraps_at_linewidth():
    # "tensor([10, ..., 21])" is 55 columns for 12 two-digit items and 59 for 13; a suffix
    # moves to its own line once (last line length + 1) + 2 + len(suffix) passes 80.
    twelve = list(range(10, 22))
    assert repr(tl.tensor(twelve, dtype=tl.int32)) == f"tensor({twelve}, dtype=tensorlib.int32)"
    thirteen = list(range(10, 23))
    assert repr(tl.tensor(thirteen, dtype=tl.int32)) == f"tensor({thirteen},\n       dtype=tensorlib.int32)"
    assert repr(tl.tensor(thirteen, dtype=tl.int64)) == f"tensor({thirteen})"


def test_str_and_format():
    x = tl.tensor(2.5)
    assert f"{x:.2f}" == "2.50"
    assert str(tl.tensor([[1, 2], [3, 4]])) == repr(torch.tensor([[1, 2], [3, 4]]))


def test_device_suffix_rule():
    from tensorlib._printing import _needs_device_suffix
    assert not _needs_device_suffix(tl.device("cpu"))
    assert _needs_device_suffix(tl.device("cuda", 0))
    assert _needs_device_suffix(tl.device("cuda:1"))


def test_edgeitems_zero_with_names():
    tl.set_printoptions(edgeitems=0, threshold=3)
    t = tl.zeros(2, 3, names=("N", "C"))
    assert repr(t) == "tensor([...], size=(2, 3), names=('N', 'C'))"
