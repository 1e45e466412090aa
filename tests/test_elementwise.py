"""Elementwise ops against torch 2.13: values, result dtypes and raise-vs-not over a
table of op x dtype x shape x operand kind; out=, in-place, broadcasting, bad input."""
import warnings

import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")
from _torch_scalar import assert_special_equal, scalar_call  # noqa: E402
from hypothesis import given, settings, strategies as st  # noqa: E402

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "complex64", "complex128"]
TOL = {"float16": 2e-3, "bfloat16": 1.6e-2, "float32": 2e-5, "float64": 1e-10, "complex64": 2e-5,
       "complex128": 1e-10, "complex32": 2e-3}
rng = np.random.default_rng(0)


def name(dt):
    return str(dt).split(".")[-1]


def to_torch(t):
    if not isinstance(t, tl.Tensor):
        return t
    n = name(t.dtype)
    if n == "bfloat16":
        return torch.from_numpy(np.asarray(t.to(tl.float32)).copy()).to(torch.bfloat16)
    if n == "complex32":
        return torch.from_numpy(np.asarray(t.to(tl.complex64)).copy()).to(torch.complex32)
    return torch.from_numpy(np.asarray(t).copy())


def from_np(a, dt):
    return tl.tensor(a).to(getattr(tl, dt))


def values(dt, shape, positive=False, nonzero=False):
    if dt == "bool":
        a = rng.integers(0, 2, shape).astype(bool)
        return a | nonzero
    if dt in ("uint8", "int8", "int16", "int32", "int64"):
        lo = 1 if positive else (0 if dt == "uint8" else -6)
        a = rng.integers(lo, 7, shape)
        if nonzero:
            a[a == 0] = 1
        return a
    a = rng.standard_normal(shape) * 2
    if positive:
        a = np.abs(a) + 0.1
    if dt.startswith("complex"):
        a = a + 1j * rng.standard_normal(shape)
    return a


def compare(got, want, dt_hint=None):
    """got (tensorlib) equals want (torch) in dtype and values (NaN == NaN)."""
    assert name(got.dtype) == name(want.dtype), (got.dtype, want.dtype)
    assert tuple(got.shape) == tuple(want.shape)
    n = name(got.dtype)
    g = to_torch(got)
    if n in TOL:
        assert torch.allclose(g.to(torch.complex128 if g.is_complex() else torch.float64),
                              want.to(torch.complex128 if want.is_complex() else torch.float64),
                              rtol=TOL[n], atol=TOL[n], equal_nan=True), (g, want)
    else:
        assert torch.equal(g, want), (g, want)


def outcome_pair(f_tl, f_t):
    """Runs both; both must raise (same type) or both succeed; returns results."""
    try:
        want = f_t()
    except (RuntimeError, TypeError, NotImplementedError) as e:
        with pytest.raises(type(e)):
            f_tl()
        return None, None
    return f_tl(), want


BINARY = ["add", "sub", "mul", "div", "true_divide", "floor_divide", "remainder", "fmod", "pow", "atan2", "hypot",
          "maximum", "minimum", "fmax", "fmin", "copysign", "xlogy", "logaddexp", "eq", "ne", "lt", "le", "gt", "ge",
          "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
          "bitwise_left_shift", "bitwise_right_shift"]
DIVLIKE = {"div", "true_divide", "floor_divide", "remainder", "fmod"}


@pytest.mark.parametrize("op", BINARY)
@pytest.mark.parametrize("dt", DTYPES)
def test_binary_same_dtype(op, dt):
    shape = (3, 4)
    a = values(dt, shape)
    b = values(dt, shape, positive=op in ("pow", "bitwise_left_shift", "bitwise_right_shift"),
               nonzero=op in DIVLIKE)
    if op == "pow" and dt not in ("float16", "bfloat16", "float32", "float64", "complex64", "complex128"):
        b = np.minimum(b, 3)
    ta, tb = from_np(a, dt), from_np(b, dt)
    got, want = outcome_pair(lambda: getattr(tl, op)(ta, tb), lambda: getattr(torch, op)(to_torch(ta), to_torch(tb)))
    if want is not None:
        compare(got, want)


KINDS = ["tensor", "zero_dim", "py_scalar", "np_scalar", "broadcast", "transposed"]
MIXED = [("float32", "int32"), ("int64", "float16"), ("bfloat16", "float64"), ("uint8", "int8"), ("bool", "int16"),
         ("complex64", "float64"), ("int32", "bool"), ("float16", "bfloat16")]


def operand(kind, dt, shape):
    if kind == "tensor":
        return from_np(values(dt, shape, nonzero=True), dt)
    if kind == "zero_dim":
        return from_np(np.array(values(dt, (), nonzero=True)), dt)
    if kind == "py_scalar":
        v = values(dt, (), nonzero=True)
        return v.item() if hasattr(v, "item") else v
    if kind == "np_scalar":
        if dt == "bfloat16":
            return np.float32(1.5)
        return np.array(values(dt, (), nonzero=True)).astype(dt)[()]
    if kind == "broadcast":
        return from_np(values(dt, shape[-1:], nonzero=True), dt)
    return from_np(values(dt, shape[::-1], nonzero=True), dt).t()


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "floor_divide", "remainder", "pow", "maximum", "eq",
                                "lt", "logical_or", "bitwise_xor", "atan2"])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dts", MIXED, ids=lambda d: "%s-%s" % d)
def test_binary_mixed_kinds(op, kind, dts):
    shape = (2, 3)
    a = operand("tensor", dts[0], shape)
    b = operand(kind, dts[1], shape)
    if op == "pow" and isinstance(b, tl.Tensor) and not b.dtype.is_floating_point and not b.dtype.is_complex:
        b = tl.abs(b) if b.dtype != tl.bool else b
    bt = to_torch(b)
    if kind == "np_scalar":
        bt = torch.tensor(b)
    for x, y, xt, yt in ((a, b, to_torch(a), bt), (b, a, bt, to_torch(a))):
        if not isinstance(x, tl.Tensor) and not isinstance(x, np.generic):
            f_t = (lambda: getattr(torch, op)(xt, yt)) if op in ("add", "mul", "sub", "div", "pow") else None
            if f_t is None:
                continue
        else:
            f_t = lambda: getattr(torch, op)(xt, yt)  # noqa: E731
        got, want = outcome_pair(lambda: getattr(tl, op)(x, y), f_t)
        if want is not None:
            compare(got, want)


OPERATORS = [("+", lambda x, y: x + y), ("-", lambda x, y: x - y), ("*", lambda x, y: x * y),
             ("/", lambda x, y: x / y), ("//", lambda x, y: x // y), ("%", lambda x, y: x % y),
             ("**", lambda x, y: x ** y), ("&", lambda x, y: x & y), ("|", lambda x, y: x | y),
             ("^", lambda x, y: x ^ y), ("<<", lambda x, y: x << y), (">>", lambda x, y: x >> y),
             ("<", lambda x, y: x < y), ("<=", lambda x, y: x <= y), ("==", lambda x, y: x == y),
             ("!=", lambda x, y: x != y), (">", lambda x, y: x > y), (">=", lambda x, y: x >= y)]


@pytest.mark.parametrize("sym,f", OPERATORS, ids=[o[0] for o in OPERATORS])
@pytest.mark.parametrize("dt", ["bool", "int32", "int64", "float32", "float64"])
@pytest.mark.parametrize("scalar", [2, 1.5, True, None])
def test_python_operators_and_reflected(sym, f, dt, scalar):
    a = from_np(values(dt, (4,), positive=True, nonzero=True), dt)
    b = from_np(values(dt, (4,), positive=True, nonzero=True), dt) if scalar is None else scalar
    bt = to_torch(b)
    for x, y, xt, yt in ((a, b, to_torch(a), bt), (b, a, bt, to_torch(a))):
        got, want = outcome_pair(lambda: f(x, y), lambda: f(xt, yt))
        if want is not None:
            compare(got, want)


INPLACE_OPS = [("+=", lambda x, y: x.__iadd__(y)), ("-=", lambda x, y: x.__isub__(y)),
               ("*=", lambda x, y: x.__imul__(y)), ("/=", lambda x, y: x.__itruediv__(y)),
               ("add_", lambda x, y: x.add_(y)), ("mul_", lambda x, y: x.mul_(y)), ("div_", lambda x, y: x.div_(y)),
               ("pow_", lambda x, y: x.pow_(y)), ("maximum", lambda x, y: x.clamp_min_(y))]


@pytest.mark.parametrize("sym,f", INPLACE_OPS, ids=[o[0] for o in INPLACE_OPS])
@pytest.mark.parametrize("dts", [("int32", "int32"), ("int32", "float32"), ("float32", "int64"),
                                 ("float16", "float64"), ("float32", "complex64"), ("bool", "bool")],
                         ids=lambda d: "%s-%s" % d)
@pytest.mark.parametrize("other", ["tensor", "scalar", "bigger"])
def test_inplace_casting_and_shape(sym, f, dts, other):
    a = from_np(values(dts[0], (2, 3), positive=True, nonzero=True), dts[0])
    if other == "tensor":
        b = from_np(values(dts[1], (3,), positive=True, nonzero=True), dts[1])
    elif other == "bigger":
        b = from_np(values(dts[1], (4, 2, 3), positive=True, nonzero=True), dts[1])
    else:
        b = {"int32": 2, "int64": 2, "float32": 1.5, "float64": 1.5, "complex64": 1j, "bool": True}[dts[1]]
    before = np.asarray(a.to(tl.float64) if dts[0] == "bfloat16" else a).copy()
    at, bt = to_torch(a), to_torch(b)
    try:
        want = f(at, bt)
    except (RuntimeError, TypeError, NotImplementedError) as e:
        with pytest.raises(type(e)):
            f(a, b)
        assert np.array_equal(np.asarray(a), before)  # untouched
        return
    got = f(a, b)
    assert got is a
    compare(a, want)


UNARY = ["abs", "neg", "sign", "sgn", "ceil", "floor", "round", "trunc", "fix", "frac", "sqrt", "rsqrt", "square", "exp",
         "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "arcsin", "acos", "atan", "sinh",
         "cosh", "tanh", "asinh", "acosh", "atanh", "sigmoid", "logit", "relu", "erf", "erfc", "erfinv",
         "digamma", "lgamma", "reciprocal", "deg2rad", "rad2deg", "angle", "conj_physical", "isnan", "isinf",
         "isposinf", "isneginf", "isfinite", "isreal", "signbit", "nan_to_num", "logical_not", "bitwise_not",
         "positive"]
SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 0.5, -0.5, 1.0, -1.0, 2.5, 3.5, -2.5, 1e-3, 0.99])


def compare_special(got, src, *args, n_special=len(SPECIAL)):
    """got (tensorlib, 1-D) against torch: the first n_special elements (inf, NaN, signed zeros,
    where torch's vectorized kernels differ by CPU) against torch's scalar path, the rest
    against the in-process torch with compare()'s tolerances."""
    want = scalar_call(src, *args)
    if isinstance(want[0], str):
        raise AssertionError(f"torch's scalar path raises {want[1]} for {src}")
    arr, dtname = want
    assert name(got.dtype) == dtname, (got.dtype, dtname)
    g = np.asarray(got.to(tl.float32) if dtname == "bfloat16" else
                   got.to(tl.complex64) if dtname == "complex32" else got)
    assert_special_equal(g[:n_special], arr[:n_special], TOL.get(dtname, 0.0))
    return g


@pytest.mark.parametrize("op", UNARY)
@pytest.mark.parametrize("dt", DTYPES + ["complex32"])
def test_unary(op, dt):
    specials = dt in ("float16", "bfloat16", "float32", "float64")
    if specials:
        a = np.concatenate([SPECIAL, values(dt, (10,))])
    elif dt == "complex32":
        a = values("complex64", (8,))
    else:
        a = values(dt, (3, 5))
    if op in ("erfinv", "logit", "atanh", "asin", "acos") and dt.startswith("float"):
        a = np.clip(a, -1, 1) if op != "logit" else np.abs(np.clip(a, -1, 1))
    if op == "lgamma" and dt.startswith("float"):  # torch's lgamma at poles/negatives differs by branch only
        a = np.abs(a) + 0.1
    x = from_np(a, dt if dt != "complex32" else "complex64").to(getattr(tl, dt))
    k = len(SPECIAL) if specials else 0
    xt = to_torch(x[k:])
    got, want = outcome_pair(lambda: getattr(tl, op)(x), lambda: getattr(torch, op)(xt))
    if want is None:
        return
    compare(got[k:], want)
    if specials:
        compare_special(got, f"lambda torch, x: torch.{op}(x)", x)
    # method, in-place and out= forms give the function's result
    if op == "positive":
        return
    assert_tl_equal(getattr(x, op)(), got)
    if got.dtype == x.dtype:
        y = x.clone()
        assert getattr(y, op + "_")() is y
        assert_tl_equal(y, got)
    out = tl.empty(0, dtype=got.dtype)
    assert getattr(tl, op)(x, out=out) is out
    assert_tl_equal(out, got)


@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
@pytest.mark.parametrize("eps", [None, 0.0, 1e-3, 0.1, 0.5])
def test_logit_half_types_round_each_step_as_torch(dt, eps):
    """torch computes logit of float16/bfloat16 in the half type: the clamp bounds, 1 - x and the
    quotient each rounded to it (float32 throughout differs in ~38% of float16 results). Every
    value of [0, 1] the type holds (and specials), bit for bit, function, in place and out=."""
    tdt = getattr(torch, dt)
    bits = torch.arange(0, 1 << 16, dtype=torch.int32).to(torch.int16).view(tdt)
    t = torch.cat([bits[(bits >= 0) & (bits <= 1)], torch.tensor([0.0, -0.0, 1.0, 2.0, -0.5, float("nan")]).to(tdt)])
    x = tl.from_numpy(t.float().numpy()).to(getattr(tl, dt))
    want = np.asarray(torch.logit(t, eps=eps).float())
    for got in (tl.logit(x, eps=eps), x.clone().logit_(eps=eps), tl.logit(x, eps=eps, out=tl.empty(0, dtype=x.dtype))):
        assert got.dtype == x.dtype
        assert np.array_equal(np.asarray(got.to(tl.float32)), want, equal_nan=True)


def assert_tl_equal(a, b):
    """Two tensorlib results of the same computation agree: dtype, shape, values (NaN == NaN)."""
    assert a.dtype == b.dtype and tuple(a.shape) == tuple(b.shape)
    wide = {"bfloat16": tl.float32, "complex32": tl.complex64}.get(name(a.dtype))
    x, y = (np.asarray(a.to(wide)), np.asarray(b.to(wide))) if wide else (np.asarray(a), np.asarray(b))
    assert np.array_equal(x, y, equal_nan=x.dtype.kind in "fc"), (x, y)


@pytest.mark.parametrize("dt", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("decimals", [-1, 0, 1, 3])
def test_round_decimals(dt, decimals):
    x = from_np(values("float64", (20,)) * 50, dt)
    compare(tl.round(x, decimals=decimals), torch.round(to_torch(x), decimals=decimals))
    compare(x.round(decimals=decimals), torch.round(to_torch(x), decimals=decimals))


@pytest.mark.parametrize("dt", ["float32", "float64", "bfloat16"])
def test_activations(dt):
    import torch.nn.functional as F
    x = from_np(np.concatenate([SPECIAL, values("float64", (20,))]), dt)
    k = len(SPECIAL)
    xt = to_torch(x[k:])
    for f_tl, f_t, src in (
            # gelu(-0.0) is -0.0 (x/2 near 0): torch's float64 and bfloat16 kernels agree, its
            # float32 kernel gives +0.0 by the order of its additions; the float64 answer is kept
            (tl.gelu, F.gelu, "lambda torch, x: torch.nn.functional.gelu(x.double()).to(x.dtype)"),
            (lambda v: tl.gelu(v, approximate="tanh"), lambda v: F.gelu(v, approximate="tanh"),
             "lambda torch, x: torch.nn.functional.gelu(x, approximate='tanh')"),
            (tl.silu, F.silu, "lambda torch, x: torch.nn.functional.silu(x)"),
            (tl.mish, F.mish, "lambda torch, x: torch.nn.functional.mish(x)"),
            (lambda v: tl.logit(v, eps=0.1), lambda v: torch.logit(v, eps=0.1),
             "lambda torch, x: torch.logit(x, eps=0.1)"),
            (lambda v: tl.nan_to_num(v, nan=1.0, posinf=2.0), lambda v: torch.nan_to_num(v, nan=1.0, posinf=2.0),
             "lambda torch, x: torch.nan_to_num(x, nan=1.0, posinf=2.0)")):
        got = f_tl(x)
        compare(got[k:], f_t(xt))
        compare_special(got, src, x)


@pytest.mark.parametrize("dt", ["int32", "float32", "float64", "int64", "uint8", "float16"])
def test_clamp_where_lerp_masked_fill(dt):
    a = from_np(values(dt, (3, 4)), dt)
    at = to_torch(a)
    for lo, hi in ((-1, 2), (None, 1), (0.5, None), (2, -1)):
        got, want = outcome_pair(lambda: tl.clamp(a, lo, hi), lambda: torch.clamp(at, lo, hi))
        if want is not None:
            compare(got, want)
    lo_t, hi_t = from_np(values(dt, (4,)), dt), from_np(values(dt, (3, 1)), dt)
    compare(tl.clamp(a, lo_t, hi_t), torch.clamp(at, to_torch(lo_t), to_torch(hi_t)))
    compare(tl.clamp_min(a, lo_t), torch.clamp_min(at, to_torch(lo_t)))
    compare(tl.clamp_max(a, hi_t), torch.clamp_max(at, to_torch(hi_t)))
    b = a.clone()
    b.clamp_(-1, 1)
    compare(b, torch.clamp(at, -1, 1))
    cond = a > 0
    compare(tl.where(cond, a, 0), torch.where(to_torch(cond), at, 0))
    other = from_np(values("float64", (4,)), "float64")
    compare(tl.where(cond, a, other), torch.where(to_torch(cond), at, to_torch(other)))
    compare(a.masked_fill(cond, 7), at.masked_fill(to_torch(cond), 7))
    c = a.clone()
    c.masked_fill_(cond, 3)
    compare(c, at.masked_fill(to_torch(cond), 3))
    if dt.startswith("float"):
        e = from_np(values(dt, (3, 4)), dt)
        w = from_np(rng.random((3, 4)), dt)
        compare(tl.lerp(a, e, 0.3), torch.lerp(at, to_torch(e), 0.3))
        compare(tl.lerp(a, e, w), torch.lerp(at, to_torch(e), to_torch(w)))
        compare(tl.isclose(a, e + 1e-6), torch.isclose(at, to_torch(e) + 1e-6))
        assert tl.allclose(a, a + 1e-9) == torch.allclose(at, at + 1e-9)
    assert tl.equal(a, a.clone()) and not tl.equal(a, a[:1])


def test_integer_division_by_zero_and_wrap():
    x = tl.tensor([5, -7, 3], dtype=tl.int32)
    for f in (lambda: x // 0, lambda: x % 0, lambda: tl.div(x, tl.zeros(3, dtype=tl.int32), rounding_mode="trunc"),
              lambda: tl.fmod(x, 0), lambda: tl.remainder(x, tl.tensor([1, 0, 1], dtype=tl.int32))):
        with pytest.raises(RuntimeError, match="ZeroDivisionError"):
            f()
    for dt in ("int8", "int16", "int32", "int64"):
        info = np.iinfo(dt)
        a = tl.tensor([info.min, info.max, info.min], dtype=getattr(tl, dt))
        at = to_torch(a)
        compare(a // -1, at // -1)
        compare(a * 3, at * 3)
        compare(a + a, at + at)
        compare(-a, -at)
        compare(abs(a), abs(at))
        compare(a % -1, at % -1)


def test_bool_and_other_forbidden_uses():
    b = tl.tensor([True, False])
    with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with two bool tensors"):
        b - b
    with pytest.raises(RuntimeError, match="with a bool tensor is not supported"):
        b - 1
    with pytest.raises(RuntimeError, match="Negation, the `-` operator, on a bool tensor"):
        -b
    with pytest.raises(RuntimeError):
        +b
    with pytest.raises(NotImplementedError, match='"bitwise_and_cpu" not implemented for \'Float\''):
        tl.ones(2) & tl.ones(2)
    with pytest.raises(RuntimeError, match="Integers to negative|torch.sign|sgn"):
        tl.sign(tl.ones(2, dtype=tl.complex64))
    with pytest.raises(RuntimeError, match="For integral input tensors, argument alpha must not be a floating point"):
        tl.add(tl.ones(2, dtype=tl.int32), 1, alpha=0.5)
    with pytest.raises(RuntimeError, match="imag is not implemented"):
        tl.ones(2).imag


def test_wrong_operand_types():
    x = tl.ones(3)
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \+: 'Tensor' and 'str'"):
        x + "a"
    with pytest.raises(TypeError, match="add.*'other'.*str"):
        tl.add(x, "a")
    with pytest.raises(TypeError, match="exp.*'input'.*list"):
        tl.exp([1.0])
    with pytest.raises(TypeError):
        x.mul(None)
    assert (x == None) is False  # noqa: E711
    assert (x != "a") is True


def test_shape_mismatch_and_inplace_broadcast():
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(2\) must match the size of tensor b \(3\) at non-singleton dimension 1"):
        tl.ones(1, 2) + tl.ones(3)
    x = tl.ones(2, 3)
    x.add_(tl.ones(3))
    with pytest.raises(RuntimeError, match=r"output with shape \[2, 3\] doesn't match the broadcast shape \[3, 2, 3\]"):
        x.add_(tl.ones(3, 2, 3))
    with pytest.raises(RuntimeError, match=r"output with shape \[3\] doesn't match the broadcast shape \[2, 3\]"):
        tl.ones(3).mul_(tl.ones(2, 3))
    assert x.tolist() == [[2.0] * 3] * 2


def test_out_semantics():
    a, b = tl.ones(2, 3), tl.ones(3)
    out = tl.empty(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = tl.add(a, b, out=out)
    assert r is out and out.shape == (2, 3)
    out2 = tl.zeros(5)
    with pytest.warns(UserWarning, match="An output with one or more elements was resized"):
        tl.add(a, b, out=out2)
    assert out2.shape == (2, 3)
    out3 = tl.zeros(2, 3, dtype=tl.int32)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Int"):
        tl.mul(a, b, out=out3)
    assert out3.tolist() == [[0] * 3] * 2
    out4 = tl.zeros(2, 3, dtype=tl.float64)
    tl.add(a, b, out=out4)
    assert out4.tolist() == [[2.0] * 3] * 2
    out5 = tl.zeros(2, 3, dtype=tl.float32)
    tl.lt(a, b, out=out5)  # bool result into a float out is allowed
    assert out5.tolist() == [[0.0] * 3] * 2


@pytest.mark.parametrize("dt", ["float32", "float16", "int64", "complex64"])
def test_layouts_noncontiguous_negative_strides_channels_last(dt):
    base = values(dt, (4, 6))
    a = from_np(base[:, ::-2].copy(), dt)
    nv = from_np(base, dt)[::2, 1::2]
    negative = from_np(np.ascontiguousarray(base)[::-1].copy(), dt)
    for x in (nv, nv.t(), negative, a.t()):
        xt = to_torch(x)
        compare(x * 2 + x, xt * 2 + xt)
        compare(tl.neg(x), torch.neg(xt))
    cl = tl.ones(2, 3, 4, 5, dtype=getattr(tl, dt)).contiguous(memory_format=tl.channels_last)
    r = cl + 1
    assert r.is_contiguous(memory_format=tl.channels_last)
    assert tl.exp(cl.to(tl.float32)).is_contiguous(memory_format=tl.channels_last)
    z = tl.zeros(0, 3, dtype=getattr(tl, dt))
    assert (z + 1).shape == (0, 3)


def test_real_imag_views_and_conj():
    z = tl.tensor([1 + 2j, 3 - 4j])
    r, i = z.real, z.imag
    r.add_(10)
    assert z.tolist() == [11 + 2j, 13 - 4j]
    assert i.tolist() == [2.0, -4.0]
    assert tl.conj(z).tolist() == [11 - 2j, 13 + 4j]
    x = tl.ones(2)
    assert x.real is not None and tl.conj(x) is x


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=0, max_size=4), st.lists(st.integers(1, 4), min_size=0, max_size=4),
       st.data())
def test_hypothesis_broadcasting_like_numpy(sa, sb, data):
    sb = [1 if data.draw(st.booleans()) else s for s in sb]
    sa2 = list(sa)
    for i in range(1, min(len(sa2), len(sb)) + 1):
        if data.draw(st.booleans()):
            sa2[-i] = sb[-i] if sb[-i] != 1 else sa2[-i]
    a, b = rng.standard_normal(sa2), rng.standard_normal(sb)
    try:
        want = a - b
    except ValueError:
        with pytest.raises(RuntimeError, match="must match the size of tensor b"):
            tl.tensor(a) - tl.tensor(b)
        return
    got = tl.tensor(a) - tl.tensor(b)
    assert np.allclose(np.asarray(got), want)
