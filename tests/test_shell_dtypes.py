"""Element-wise ops on torch's "shell" dtypes (uint16/uint32/uint64 and the five float8
formats) and the refusals of the element-wise registry, against torch 2.13.

torch computes a few ops on those dtypes (comparisons, mul, bitwise ops, the is* tests,
rounding of integers, where, abs for float8) and refuses the rest, naming the kernel that
lacks the dtype. tensorlib runs the same set and refuses the rest with torch's message;
the sweep below checks every registry op against every dtype.
"""
import os
import re

import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (float4_e2m1fn_x2 is left out here: torch cannot make a non-zero one; its byte-wise eq/ne/
# where/isnan/isreal are tested in test_float4_bytewise_ops_as_torch)
ALL_DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
              "complex32", "complex64", "complex128", "uint16", "uint32", "uint64", "float8_e4m3fn",
              "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu"]
WIDE_UINT = ["uint16", "uint32", "uint64"]
FLOAT8 = ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu"]


def _registry(kind):
    src = open(os.path.join(ROOT, "csrc", "ops", "ew_ops.h")).read()
    body = src.split("#define TL_%s_OPS(X)" % kind)[1].split("#define")[0]
    return [n for n in re.findall(r"X\((\w+), \w+, ", body) if hasattr(torch, n) and hasattr(tl, n)]


UNARY = _registry("UNARY")
BINARY = _registry("BINARY")

# torch computes these, tensorlib refuses them (none left: complex32 isclose is torch's composite)
TORCH_ONLY = set()
# ops whose registry entry takes a leading parameter: the arguments put before the tensor
LEADING = {"polygamma": (2,)}


def _outcome(lib, fn):
    try:
        r = fn(lib)
    except Exception as e:  # noqa: BLE001 - the exception is what is compared
        return type(e).__name__, str(e).split("\n")[0]
    if isinstance(r, bool):
        return "ok", r
    return "ok", str(r.dtype).split(".")[-1]


@pytest.mark.parametrize("dt", ALL_DTYPES)
@pytest.mark.parametrize("op", UNARY + BINARY)
def test_registry_op_dtype_support_and_refusal_as_torch(op, dt):
    """Every registry op on every dtype: both compute (same result dtype) or both refuse with
    torch's exception type and message."""
    n = 1 if op in UNARY else 2

    def call(lib):
        a = lib.ones(3, dtype=getattr(lib, dt))
        return getattr(lib, op)(*LEADING.get(op, ()), *([a] * n))

    t, got = _outcome(torch, call), _outcome(tl, call)
    if (op, dt) in TORCH_ONLY:
        assert t[0] == "ok" and got[0] == "NotImplementedError"
        return
    assert got == t


def _wide_values(dt, n, rng):
    hi = {"uint16": 2 ** 16, "uint32": 2 ** 32, "uint64": 2 ** 64}[dt]
    v = rng.integers(0, hi, size=n, dtype=np.uint64)
    v[: min(n, 4)] = np.array([0, 1, hi - 1, hi // 2], dtype=np.uint64)[: min(n, 4)]
    return v.astype(getattr(np, dt))


def _pair(arr, dt):
    """The same values as a tensorlib tensor (a view of arr; tl.tensor's copy of a view with
    negative strides, which from_numpy refuses as torch) and a torch tensor."""
    x = tl.from_numpy(arr) if min(arr.strides, default=0) >= 0 else tl.tensor(arr)
    return x, torch.from_numpy(np.array(arr, order="C", copy=True))


def _same(a, b):
    assert str(a.dtype).split(".")[-1] == str(b.dtype).split(".")[-1]
    assert tuple(a.shape) == tuple(b.shape)
    if b.dtype in (torch.uint16, torch.uint32, torch.uint64):
        # torch's uint tensors have no numpy(): compare through int64 bit patterns
        w = {torch.uint16: np.uint16, torch.uint32: np.uint32, torch.uint64: np.uint64}[b.dtype]
        bb = b.contiguous().view(torch.int16 if w is np.uint16 else torch.int32 if w is np.uint32 else torch.int64)
        np.testing.assert_array_equal(np.asarray(a), bb.numpy().view(w))
    else:
        np.testing.assert_array_equal(np.asarray(a), b.numpy())


def _layouts(dt, rng):
    """(name, numpy array) cases: 0-d, empty, contiguous, transposed, strided, negative strides."""
    base = _wide_values(dt, 24, rng)
    yield "0d", base[2:3].reshape(())
    yield "empty", base[:0].reshape(0, 3)
    yield "contig", base.reshape(4, 6)
    yield "transposed", base.reshape(4, 6).T
    yield "strided", base.reshape(4, 6)[::2, 1::2]
    yield "negative", base.reshape(4, 6)[::-1, ::-2]


WIDE_UNARY = ["isnan", "isinf", "isposinf", "isneginf", "isfinite", "isreal", "signbit", "ceil", "floor",
              "trunc", "round", "nan_to_num"]
WIDE_BINARY = ["mul", "eq", "ne", "bitwise_and", "bitwise_or", "bitwise_xor"]


@pytest.mark.parametrize("dt", WIDE_UINT)
@pytest.mark.parametrize("op", WIDE_UNARY)
def test_wide_uint_unary(op, dt):
    rng = np.random.default_rng(1)
    for _, arr in _layouts(dt, rng):
        a, ta = _pair(arr, dt)
        _same(getattr(tl, op)(a), getattr(torch, op)(ta))


@pytest.mark.parametrize("dt", WIDE_UINT)
@pytest.mark.parametrize("op", WIDE_BINARY)
def test_wide_uint_binary(op, dt):
    rng = np.random.default_rng(2)
    for _, arr in _layouts(dt, rng):
        a, ta = _pair(arr, dt)
        other = _wide_values(dt, arr.size, rng).reshape(arr.shape)
        b, tb = _pair(other, dt)
        _same(getattr(tl, op)(a, b), getattr(torch, op)(ta, tb))
        _same(getattr(tl, op)(a, a), getattr(torch, op)(ta, ta))
    # broadcasting, a Python scalar (negative ones wrap as torch's), a 0-d tensor
    x = _wide_values(dt, 12, rng).reshape(3, 4)
    a, ta = _pair(x, dt)
    col, tcol = _pair(np.ascontiguousarray(x[:, :1]), dt)
    _same(getattr(tl, op)(a, col), getattr(torch, op)(ta, tcol))
    for s in (0, 3, -1, True):
        _same(getattr(tl, op)(a, s), getattr(torch, op)(ta, s))
    z, tz = _pair(x[1, 2:3].reshape(()), dt)
    _same(getattr(tl, op)(a, z), getattr(torch, op)(ta, tz))


@pytest.mark.parametrize("dt", WIDE_UINT)
def test_wide_uint_inplace_out_and_where(dt):
    rng = np.random.default_rng(3)
    x = _wide_values(dt, 12, rng).reshape(3, 4)
    y = _wide_values(dt, 12, rng).reshape(3, 4)
    a, ta = _pair(x, dt)
    b, tb = _pair(y, dt)
    for m in ("mul_", "bitwise_and_", "bitwise_or_", "bitwise_xor_", "eq_", "ne_"):
        r, tr = a.clone(), ta.clone()
        getattr(r, m)(b)
        getattr(tr, m)(tb)
        _same(r, tr)
    out, tout = tl.empty(3, 4, dtype=tl.int64), torch.empty(3, 4, dtype=torch.int64)
    tl.mul(a, b, out=out)
    torch.mul(ta, tb, out=tout)
    _same(out, tout)
    cond = rng.integers(0, 2, size=(3, 4)).astype(bool)
    c, tc = tl.from_numpy(cond), torch.from_numpy(cond)
    _same(tl.where(c, a, b), torch.where(tc, ta, tb))
    _same(tl.where(c, a, 7), torch.where(tc, ta, 7))
    assert tl.equal(a, a) and not tl.equal(a, b) == (not torch.equal(ta, tb))
    # mixing with another integer dtype is refused as torch
    for other in (tl.int64, tl.uint8):
        with pytest.raises(RuntimeError, match="Promotion for uint16, uint32, uint64 types is not supported"):
            a * tl.ones(3, 4, dtype=other)


def _f8_all(dt):
    bits = np.arange(256, dtype=np.uint8)
    t = torch.from_numpy(bits).view(getattr(torch, dt))
    return tl.from_numpy(bits).view(getattr(tl, dt)), t


def _same_f8(a, b):
    """Equal bit patterns, but NaNs compare by NaN-ness: the sign and payload of a NaN result
    depend on the CPU's operand order (x86 keeps the first NaN operand; vector kernels vary)."""
    if b.dtype == torch.bool:
        np.testing.assert_array_equal(np.asarray(a), b.numpy())
        return
    assert str(a.dtype).split(".")[-1] == str(b.dtype).split(".")[-1]
    got_nan, want_nan = np.isnan(np.asarray(a.float())), b.float().isnan().numpy()
    np.testing.assert_array_equal(got_nan, want_nan)
    np.testing.assert_array_equal(np.asarray(a.view(tl.uint8))[~got_nan], b.view(torch.uint8).numpy()[~want_nan])


F8_UNARY = {"isnan": FLOAT8, "isreal": FLOAT8, "isinf": ["float8_e5m2"], "isfinite": ["float8_e5m2"]}


@pytest.mark.parametrize("dt", FLOAT8)
def test_float8_unary_every_bit_pattern(dt):
    a, ta = _f8_all(dt)
    for op, dts in F8_UNARY.items():
        if dt in dts:
            _same_f8(getattr(tl, op)(a), getattr(torch, op)(ta))


@pytest.mark.parametrize("dt", FLOAT8[:4])
def test_float8_abs_every_bit_pattern(dt):
    """abs clears the sign as IEEE and ml_dtypes do (torch 2.13's float8 abs leaves -0 and
    negative NaNs alone: x < 0 ? -x : x); NaN in, NaN out."""
    ml_dtypes = pytest.importorskip("ml_dtypes")
    a, ta = _f8_all(dt)
    got = tl.abs(a)
    want = np.abs(np.arange(256, dtype=np.uint8).view(getattr(ml_dtypes, dt)))
    nan = np.isnan(want.astype(np.float32))
    np.testing.assert_array_equal(np.isnan(np.asarray(got.float())), nan)
    np.testing.assert_array_equal(np.asarray(got.view(tl.uint8))[~nan], want.view(np.uint8)[~nan])
    # away from zeros and NaNs, torch agrees
    tgot = torch.abs(ta)
    keep = ~nan & (np.asarray(a.float()) != 0)
    np.testing.assert_array_equal(np.asarray(got.view(tl.uint8))[keep], tgot.view(torch.uint8).numpy()[keep])


def test_float8_e8m0_isfinite_is_mathematical():
    """torch 2.13 calls e8m0's NaN (0xff) finite; tensorlib answers the mathematical False."""
    a, _ = _f8_all("float8_e8m0fnu")
    got = np.asarray(tl.isfinite(a))
    assert not got[255] and got[:255].all()


@pytest.mark.parametrize("dt", FLOAT8)
def test_float8_binary_every_pair(dt):
    a, ta = _f8_all(dt)
    x, tx = a.reshape(256, 1).expand(256, 256).contiguous(), ta.reshape(256, 1).expand(256, 256).contiguous()
    y, ty = a.reshape(1, 256).expand(256, 256).contiguous(), ta.reshape(1, 256).expand(256, 256).contiguous()
    for op in ("eq", "ne", "mul"):
        _same_f8(getattr(tl, op)(x, y), getattr(torch, op)(tx, ty))
    _same_f8(tl.where(x == y, x, y), torch.where(tx == ty, tx, ty))
    _same_f8(a == 2, ta == 2)
    r, tr = x.clone(), tx.clone()
    r.mul_(y)
    tr.mul_(ty)
    _same_f8(r, tr)


@pytest.mark.parametrize("dt", FLOAT8)
def test_float8_mul_by_one_element_refused_as_torch(dt):
    """torch multiplies by a one-element second operand in a reduced-float kernel without float8."""
    for lib in (tl, torch):
        a = lib.ones(3, dtype=getattr(lib, dt))
        for other in (2, lib.tensor(2.0).to(getattr(lib, dt)), lib.ones(1, dtype=getattr(lib, dt))):
            with pytest.raises(NotImplementedError, match='"mul_cpu_reduced_float" not implemented for'):
                lib.mul(a, other)
        assert lib.mul(lib.tensor(2.0).to(getattr(lib, dt)), a).dtype == getattr(lib, dt)


def test_masked_fill_refuses_shell_dtypes_as_torch():
    for dt in WIDE_UINT + FLOAT8:
        for lib in (tl, torch):
            with pytest.raises(NotImplementedError, match='"masked_fill" not implemented for'):
                lib.ones(2, dtype=getattr(lib, dt)).masked_fill(lib.tensor([True, False]), 1)


OUT_CASES = [("float32", "float64"), ("int32", "int64"), ("float32", "complex64"), ("complex64", "float64"),
             ("int32", "float32"), ("uint16", "uint16"), ("float32", "bool")]


@pytest.mark.parametrize("op", UNARY + ["conj_physical"])
def test_unary_out_dtype_checks_as_torch(op):
    """out= of another dtype: torch's exact-dtype ops ("Found dtype ... but expected ..."), the
    bool-only ops, then the cast check, in torch's order."""
    for idt, odt in OUT_CASES:
        def call(lib):
            return getattr(lib, op)(lib.ones(2, dtype=getattr(lib, idt)), out=lib.empty(2, dtype=getattr(lib, odt)))
        t = _outcome(torch, call)
        if t[0] == "TypeError":  # torch has no out= for this op (tensorlib accepts it)
            continue
        assert _outcome(tl, call) == t, (idt, odt)


def test_relu_of_bool_refused_as_torch():
    for lib in (tl, torch):
        with pytest.raises(RuntimeError, match="Boolean inputs not supported for relu"):
            lib.relu(lib.ones(2, dtype=lib.bool))


@pytest.mark.parametrize("dt", ["float16", "bfloat16", "float32", "float64"] + FLOAT8)
def test_fill_with_complex_value_names_the_dtype_as_torch(dt):
    for lib in (tl, torch):
        with pytest.raises(RuntimeError) as e:
            lib.ones(2, dtype=getattr(lib, dt)).fill_(1 + 2j)
        if lib is torch:
            assert str(e.value) == got
        else:
            got = str(e.value)


@pytest.mark.parametrize("dt", FLOAT8)
def test_float8_fill_and_full_check_the_range_as_torch(dt):
    """torch's overflow check for float8 targets: the finite range, an infinity only where the
    format has one, a complex value only without an imaginary part (e8m0: refused, its zero
    imaginary part being below the smallest power of two)."""
    values = [0, 3, -1, 1000, -1000, 0.0, 2.5, -1.0, 1e6, 1e40, -1e40, float("inf"), float("-inf"), float("nan"),
              3 + 0j, 1 + 2j, True]
    for v in values:
        def fill(lib):
            return lib.ones(2, dtype=getattr(lib, dt)).fill_(v)

        def full(lib):
            return lib.full((2,), v, dtype=getattr(lib, dt))

        for f in (fill, full):
            t, got = _outcome(torch, f), _outcome(tl, f)
            assert got == t, (v, f.__name__)
            if t[0] == "ok":
                np.testing.assert_array_equal(np.asarray(f(tl).view(tl.uint8)), f(torch).view(torch.uint8).numpy())


def test_float4_fill_refused_as_torch_but_zero():
    for lib in (tl, torch):
        with pytest.raises(NotImplementedError, match='"fill_cpu" not implemented for \'Float4_e2m1fn_x2\''):
            lib.zeros(2, dtype=lib.float4_e2m1fn_x2).fill_(1.5)
    # zero fills (tensorlib's superset: torch refuses every fill_, zeros() works in both)
    assert tl.zeros(2, dtype=tl.float4_e2m1fn_x2).fill_(0).view(tl.uint8).tolist() == [0, 0]


PAIR_DTYPES = [d for d in ALL_DTYPES if d not in ("float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu")]


@pytest.mark.parametrize("op", ["add", "mul", "eq", "lt", "maximum", "bitwise_and", "div", "floor_divide",
                                "remainder", "pow", "atan2", "logical_and", "where"])
def test_binary_dtype_pairs_as_torch(op):
    """Every pair of dtypes: the same result dtype, or torch's refusal (promotion of shell
    dtypes, the kernel's dispatch) with its message."""
    def call(a, b):
        def f(lib):
            x, y = lib.ones(3, dtype=getattr(lib, a)), lib.ones(3, dtype=getattr(lib, b))
            if op == "where":
                return lib.where(lib.tensor([True, False, True]), x, y)
            return getattr(lib, op)(x, y)
        return f

    for a in PAIR_DTYPES:
        for b in PAIR_DTYPES:
            f = call(a, b)
            assert _outcome(tl, f) == _outcome(torch, f), (a, b)


OUT_DTYPES = ["bool", "uint8", "int32", "int64", "float16", "float32", "float64", "complex64", "uint16", "float8_e4m3fn"]


@pytest.mark.parametrize("op", ["add", "mul", "eq", "lt", "maximum", "bitwise_and", "div", "floor_divide",
                                "remainder", "pow", "atan2", "logical_and", "sub", "fmod", "hypot", "copysign",
                                "xlogy", "gcd", "bitwise_left_shift", "fmax", "heaviside", "nextafter", "logaddexp"])
def test_binary_out_and_inplace_dtypes_as_torch(op):
    """out= and in-place of every dtype pair: torch's result (a float8 out= takes any result,
    cast on store) or its refusal, in its order (heaviside's own checks, the cast check, the
    kernel's dispatch); the values of the results too."""
    vals = np.array([1, 2, 3], dtype=np.int64)
    for inplace in (False, True):
        for a in OUT_DTYPES:
            for o in OUT_DTYPES:
                def f(lib, a=a, o=o):
                    x = lib.tensor(vals.tolist()).to(getattr(lib, a))
                    out = lib.tensor([2, 1, 3]).to(getattr(lib, o)) if o not in ("uint16",) else \
                        lib.zeros(3, dtype=getattr(lib, o))
                    if inplace:
                        if not hasattr(out, op + "_"):
                            return None
                        return getattr(out, op + "_")(x)
                    return getattr(lib, op)(x, x, out=out)
                if inplace and not hasattr(torch.Tensor, op + "_"):
                    continue  # tensorlib has a few in-place methods torch lacks (fmax_)
                t, got = _outcome(torch, f), _outcome(tl, f)
                assert got == t, (inplace, a, o)
                if t[0] == "ok":
                    want = f(torch).to(torch.float64) if o != "complex64" else f(torch)
                    res = np.asarray(f(tl).to(tl.float64) if o != "complex64" else f(tl))
                    # (float16 ops compute in float32 and round once; torch rounds some steps to half)
                    np.testing.assert_allclose(res, want.numpy(), rtol=2e-3 if "float16" in (a, o) else 0)


@pytest.mark.parametrize("src", ["float16", "bfloat16", "complex32"])
@pytest.mark.parametrize("op", ["exp", "sin", "sqrt", "abs", "neg", "reciprocal"])
def test_half_op_into_wider_out_rounds_through_its_dtype_as_torch(op, src):
    """A float16/bfloat16/complex32 op written into a wider out= is computed in the op's dtype
    and then cast (torch); tensorlib's float32 compute rounds once to the op's dtype first."""
    vals = np.linspace(0.1, 9.7, 37)
    for odt in ("float32", "float64", "complex64", "complex128"):
        def f(lib):
            x = lib.tensor(vals.tolist()).to(getattr(lib, src))
            return getattr(lib, op)(x, out=lib.empty(37, dtype=getattr(lib, odt)))
        t, got = _outcome(torch, f), _outcome(tl, f)
        assert got == t, odt
        if t[0] == "ok":
            want = f(torch).to(torch.complex128).numpy()
            np.testing.assert_array_equal(np.asarray(f(tl).to(tl.complex128)), want)


@pytest.mark.parametrize("dt", ["bool", "int32", "float16", "float32", "complex64"] + WIDE_UINT + FLOAT8)
def test_unary_inplace_every_dtype_as_torch(dt):
    """Every in-place unary registry op on every dtype: the same dtype or the same refusal
    (conj_physical_ of any real tensor is a no-op returning it, as torch's)."""
    for op in UNARY:
        if not hasattr(torch.Tensor, op + "_") or not hasattr(tl.Tensor, op + "_"):
            continue

        def f(lib):
            a = lib.ones(3, dtype=getattr(lib, dt))
            r = getattr(a, op + "_")(*LEADING.get(op, ()))
            assert r is a
            return a
        assert _outcome(tl, f) == _outcome(torch, f), op


F4_A, F4_B = [0, 0x11, 0x88, 0x0F, 0xFF, 0x7E], [0x88, 0x11, 0x00, 0x0F, 0xFF, 0x7F]


def _f4(lib, b):
    return lib.tensor(b, dtype=lib.uint8).view(lib.float4_e2m1fn_x2)


@pytest.mark.parametrize("call", [
    lambda L: _f4(L, F4_A) == _f4(L, F4_B), lambda L: _f4(L, F4_A) != _f4(L, F4_B),
    lambda L: L.eq(_f4(L, F4_A), _f4(L, F4_B)), lambda L: L.isnan(_f4(L, F4_A)), lambda L: L.isreal(_f4(L, F4_A)),
    lambda L: L.where(L.tensor([True, False, True, False, True, False]), _f4(L, F4_A), _f4(L, F4_B)).view(L.uint8),
    lambda L: L.where(L.tensor([[True], [False]]), _f4(L, F4_A), _f4(L, F4_B)).view(L.uint8),
    lambda L: L.eq(_f4(L, F4_A), _f4(L, F4_B), out=L.empty(6, dtype=L.bool)),
    lambda L: _f4(L, F4_A).eq_(_f4(L, F4_B)).view(L.uint8), lambda L: _f4(L, F4_A).ne_(_f4(L, F4_B)).view(L.uint8),
    lambda L: L.where(L.tensor([True, False] * 3), _f4(L, F4_A), _f4(L, F4_B),
                      out=L.empty(6, dtype=L.uint8).view(L.float4_e2m1fn_x2)).view(L.uint8),
    lambda L: (_f4(L, F4_A).reshape(6, 1) == _f4(L, F4_B)).sum(), lambda L: L.isinf(_f4(L, F4_A)),
    lambda L: L.isfinite(_f4(L, F4_A)),
])
def test_float4_bytewise_ops_as_torch(call):
    """float4_e2m1fn_x2 (two values per byte): torch compares and selects the bytes (+0 and -0
    pairs differ), isnan is False and isreal True; tensorlib runs them on uint8 views."""
    def outcome(lib):
        try:
            r = call(lib)
            return "ok", str(r.dtype).split(".")[-1], r.tolist()
        except Exception as e:  # noqa: BLE001 - compared with torch's
            return type(e).__name__, str(e)
    assert outcome(tl) == outcome(torch)
