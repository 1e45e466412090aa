"""Bit-exact conversions between float32/float64 and the narrow float formats, and
tl.finfo / tl.iinfo.

Oracles: torch 2.13 (the reference for every rule) and ml_dtypes (decoding; encoding
where it agrees with torch). Each is skipped when not installed. Known differences, all
following torch:
  - float8_e4m3fn: torch 2.13 saturates finite overflow and +-inf to +-448; ml_dtypes
    (and older torch) give NaN.
  - float8_e8m0fnu: torch ignores the sign and maps 0 to code 0 (2**-127); ml_dtypes
    gives NaN for negatives and zero (positive inputs agree).
  - float8_e5m2 NaN: torch 0x7F | sign, ml_dtypes 0x7E | sign (both NaN).
  - NaN payloads: compared only as "is a NaN" (torch's own CPU paths disagree on them:
    float32->bfloat16 tensor casts write 0xFFFF while c10::BFloat16 writes 0x7FC0).
"""
import numpy as np
import pytest

import tensorlib as tl

try:
    import torch
except ImportError:  # pragma: no cover - exercised only without torch
    torch = None

try:
    import ml_dtypes
except ImportError:  # pragma: no cover
    ml_dtypes = None

needs_torch = pytest.mark.skipif(torch is None, reason="torch not installed")
needs_ml_dtypes = pytest.mark.skipif(ml_dtypes is None, reason="ml_dtypes not installed")

# name -> bits per code
FORMATS = {
    "float16": 16,
    "bfloat16": 16,
    "float8_e4m3fn": 8,
    "float8_e5m2": 8,
    "float8_e4m3fnuz": 8,
    "float8_e5m2fnuz": 8,
    "float8_e8m0fnu": 8,
}
FORMAT_NAMES = list(FORMATS)


def _code_np(name):
    return np.uint8 if FORMATS[name] == 8 else np.uint16


def _code_isnan(name, c):
    """Which codes of format `name` are NaN (bit rules, independent of any library)."""
    c = np.asarray(c).astype(np.uint32)
    if name == "float16":
        return ((c & 0x7C00) == 0x7C00) & ((c & 0x3FF) != 0)
    if name == "bfloat16":
        return ((c & 0x7F80) == 0x7F80) & ((c & 0x7F) != 0)
    if name == "float8_e4m3fn":
        return (c & 0x7F) == 0x7F
    if name == "float8_e5m2":
        return (c & 0x7F) > 0x7C
    if name in ("float8_e4m3fnuz", "float8_e5m2fnuz"):
        return c == 0x80
    if name == "float8_e8m0fnu":
        return c == 0xFF
    raise AssertionError(name)


def _all_codes(name):
    n = 1 << FORMATS[name]
    return np.arange(n, dtype=np.uint32).astype(_code_np(name))


# ------------------------------------------------------------------ tensorlib side

def tl_decode(name, codes):
    """codes (uint8/uint16 array) -> float32 array through tensorlib."""
    codes = np.ascontiguousarray(codes)
    raw = codes if codes.dtype == np.uint8 else codes.view(np.int16)
    t = tl.from_numpy(raw).view(getattr(tl, name)).to(tl.float32)
    return np.array(t.numpy(), dtype=np.float32, copy=True)


def tl_encode(name, x):
    """float32 / float64 array -> codes (uint8/uint16 array) through tensorlib."""
    x = np.ascontiguousarray(x)
    t = tl.from_numpy(x).to(getattr(tl, name))
    if FORMATS[name] == 8:
        return np.array(t.view(tl.uint8).numpy(), copy=True)
    return np.array(t.view(tl.int16).numpy(), copy=True).view(np.uint16)


# ------------------------------------------------------------------ oracles

def torch_decode(name, codes):
    raw = codes if codes.dtype == np.uint8 else codes.view(np.int16)
    t = torch.from_numpy(np.ascontiguousarray(raw)).view(getattr(torch, name))
    return t.to(torch.float32).numpy()


def torch_encode(name, x):
    t = torch.from_numpy(np.ascontiguousarray(x)).to(getattr(torch, name))
    if FORMATS[name] == 8:
        return t.view(torch.uint8).numpy()
    return t.view(torch.int16).numpy().view(np.uint16)


def ml_dtype(name):
    return np.float16 if name == "float16" else getattr(ml_dtypes, name)


def ml_decode(name, codes):
    with np.errstate(invalid="ignore"):
        return codes.view(ml_dtype(name)).astype(np.float32)


def ml_encode(name, x):
    with np.errstate(invalid="ignore", over="ignore"):
        return x.astype(ml_dtype(name)).view(_code_np(name))


def assert_same_floats(got, want, what):
    """Bit-identical float32 arrays, except that NaN only has to meet NaN."""
    got = np.asarray(got, dtype=np.float32)
    want = np.asarray(want, dtype=np.float32)
    assert got.shape == want.shape
    gn, wn = np.isnan(got), np.isnan(want)
    bad = np.nonzero(gn != wn)[0]
    assert bad.size == 0, "%s: NaN-ness differs at %d places, first index %d" % (what, bad.size, bad[0])
    gb, wb = got.view(np.uint32), want.view(np.uint32)
    bad = np.nonzero((gb != wb) & ~wn)[0]
    if bad.size:
        i = bad[:5]
        raise AssertionError("%s: %d mismatches, e.g. %s" % (
            what, bad.size, [(int(k), hex(int(gb[k])), hex(int(wb[k]))) for k in i]))


def assert_same_codes(name, got, want, src, what):
    """Bit-identical codes, except that a NaN source only needs a NaN code on both sides."""
    got = np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape == src.shape
    nan_in = np.isnan(src)
    assert _code_isnan(name, got[nan_in]).all(), "%s: NaN input gave a non-NaN code" % what
    bad = np.nonzero((got != want) & ~nan_in)[0]
    if bad.size:
        i = bad[:5]
        raise AssertionError("%s: %d mismatches (src bits, got, want): %s" % (
            what, bad.size,
            [(src[k].item(), hex(int(got[k])), hex(int(want[k]))) for k in i]))


# ------------------------------------------------------------------ input sweeps

def _f32_from_bits(bits):
    return np.asarray(bits, dtype=np.uint32).view(np.float32)


_SPECIAL_BITS = [
    0x00000000, 0x80000000,                          # +-0
    0x7F800000, 0xFF800000,                          # +-inf
    0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001,  # NaNs, quiet and signalling
    0x7FBFFFFF, 0x7FFFFFFF, 0xFFFFFFFF, 0x7FA00000, 0x7FF00000, 0x7FE00000,
    0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF,  # float32 subnormals
    0x00400000, 0x00400001, 0x003FFFFF, 0x00800000, 0x80800000,
    0x7F7FFFFF, 0xFF7FFFFF,                          # float32 max
]


def _neighbours(v):
    """v and the float32 values 1 and 2 ulps either side of it."""
    v = np.asarray(v, dtype=np.float32)
    up1 = np.nextafter(v, np.float32(np.inf))
    dn1 = np.nextafter(v, np.float32(-np.inf))
    up2 = np.nextafter(up1, np.float32(np.inf))
    dn2 = np.nextafter(dn1, np.float32(-np.inf))
    return np.concatenate([v, up1, dn1, up2, dn2])


def _format_points(name):
    """Every representable value of the format, the midpoints (ties) between neighbours,
    and their float32 neighbours, with both signs."""
    codes = _all_codes(name)
    vals = _decode_reference(name, codes)
    vals = np.unique(vals[np.isfinite(vals)].astype(np.float64))
    vals = vals[vals >= 0]
    mids = (vals[:-1] + vals[1:]) / 2          # exact in float64
    # past the top: the next binade's midpoint and power of two (overflow boundaries)
    top = vals[-1]
    step = vals[-1] - vals[-2]
    extra = np.array([top + step / 2, top + step, top * 2, top * 4, top * 1.0625])
    pts = np.concatenate([vals, mids, extra]).astype(np.float32)
    pts = _neighbours(pts)
    return np.concatenate([pts, -pts])


def _decode_reference(name, codes):
    """float32 value of every code by a spelled-out rule (no tensorlib, no oracle)."""
    c = codes.astype(np.int64)
    if name == "float16":
        return codes.view(np.float16).astype(np.float32)
    if name == "bfloat16":
        return (c.astype(np.uint32) << 16).view(np.float32)
    if name == "float8_e8m0fnu":
        out = np.ldexp(1.0, c - 127).astype(np.float32)
        out[c == 255] = np.nan
        return out
    ebits, mbits, bias, fnuz = {
        "float8_e4m3fn": (4, 3, 7, False), "float8_e5m2": (5, 2, 15, False),
        "float8_e4m3fnuz": (4, 3, 8, True), "float8_e5m2fnuz": (5, 2, 16, True)}[name]
    sign = np.where(c & 0x80, -1.0, 1.0)
    e = (c >> mbits) & ((1 << ebits) - 1)
    m = c & ((1 << mbits) - 1)
    mag = np.where(e == 0, np.ldexp(m.astype(np.float64), 1 - bias - mbits),
                   np.ldexp((m + (1 << mbits)).astype(np.float64), e - bias - mbits))
    out = (sign * mag).astype(np.float32)
    if name == "float8_e5m2":
        out[(c & 0x7F) == 0x7C] = np.inf * sign[(c & 0x7F) == 0x7C]
    out[_code_isnan(name, codes)] = np.nan
    return out


def _sweep(name):
    rng = np.random.default_rng(20240613 + FORMATS[name] + len(name))
    random_bits = rng.integers(0, 1 << 32, size=1_000_000, dtype=np.uint64).astype(np.uint32)
    top = float(np.nanmax(np.abs(_decode_reference(name, _all_codes(name))[
        np.isfinite(_decode_reference(name, _all_codes(name)))])))
    # values spread over the format's own range (log-uniform magnitudes)
    in_range = (np.exp(rng.uniform(np.log(top) - 60, np.log(top) * 1.01, 200_000))
                * rng.choice([-1.0, 1.0], 200_000)).astype(np.float32)
    # all float32 values whose low mantissa bits are zero (every exponent, every sign)
    grid = (np.arange(1 << 16, dtype=np.uint32) << 16) | np.uint32(0x8000)
    grid2 = np.arange(1 << 16, dtype=np.uint32) << 16
    return np.concatenate([
        _f32_from_bits(_SPECIAL_BITS), _format_points(name), _f32_from_bits(random_bits),
        in_range, _f32_from_bits(grid), _f32_from_bits(grid2)])


_SWEEPS = {}


def sweep(name):
    if name not in _SWEEPS:
        _SWEEPS[name] = _sweep(name)
    return _SWEEPS[name]


# ------------------------------------------------------------------ decoding

@pytest.mark.parametrize("name", FORMAT_NAMES)
def test_decode_matches_spelled_out_rule(name):
    codes = _all_codes(name)
    assert_same_floats(tl_decode(name, codes), _decode_reference(name, codes), name)


@needs_torch
@pytest.mark.parametrize("name", FORMAT_NAMES)
def test_decode_every_code_matches_torch(name):
    codes = _all_codes(name)
    # tile so torch takes its vectorized path for every code (its scalar tail returns a
    # different NaN payload for float16)
    want = torch_decode(name, np.tile(codes, 4))[: codes.size]
    assert_same_floats(tl_decode(name, codes), want, name)


@needs_ml_dtypes
@pytest.mark.parametrize("name", FORMAT_NAMES)
def test_decode_every_code_matches_ml_dtypes(name):
    codes = _all_codes(name)
    assert_same_floats(tl_decode(name, codes), ml_decode(name, codes), name)


@pytest.mark.parametrize("name", FORMAT_NAMES)
def test_decode_nan_codes(name):
    codes = _all_codes(name)
    got = tl_decode(name, codes)
    assert (np.isnan(got) == _code_isnan(name, codes)).all()


@pytest.mark.parametrize("name", FORMAT_NAMES)
def test_round_trip_every_non_nan_code(name):
    codes = _all_codes(name)
    keep = ~_code_isnan(name, codes)
    codes = codes[keep]
    back = tl_encode(name, tl_decode(name, codes))
    bad = np.nonzero(back != codes)[0]
    assert bad.size == 0, [(hex(int(codes[i])), hex(int(back[i]))) for i in bad[:5]]


@pytest.mark.parametrize("name", FORMAT_NAMES)
def test_decode_lengths_and_offsets(name):
    """Short, odd-length and misaligned arrays (vector tails) give the same values."""
    codes = _all_codes(name)[: 256 + 37]
    whole = tl_decode(name, codes)
    for start in (0, 1, 3):
        for n in (1, 2, 7, 8, 9, 15, 16, 17, 33, 100):
            part = tl_decode(name, codes[start:start + n].copy())
            assert_same_floats(part, whole[start:start + n], "%s[%d:+%d]" % (name, start, n))


# ------------------------------------------------------------------ encoding

@needs_torch
@pytest.mark.parametrize("name", FORMAT_NAMES)
def test_encode_float32_sweep_matches_torch(name):
    x = sweep(name)
    assert_same_codes(name, tl_encode(name, x), torch_encode(name, x), x, name)


@needs_torch
@pytest.mark.parametrize("name", FORMAT_NAMES)
def test_encode_float64_goes_through_float32_like_torch(name):
    x32 = sweep(name)[:400_000]
    x64 = x32.astype(np.float64)
    # nudge by less than half a float32 ulp: float64 -> float32 rounds back to x32, so a
    # direct float64 -> format rounding would differ from torch's two-step one at ties
    ulp = np.abs(np.spacing(x32)).astype(np.float64)
    finite = np.isfinite(x64)
    nudged = x64.copy()
    nudged[finite] += ulp[finite] * 0.25
    big = np.array([1e39, -1e39, 1e300, -1e300, 1e-46, -1e-46, 5e-324, np.nan, np.inf,
                    float.fromhex("0x1.ffffffp+127")])
    for x in (x64, nudged, big):
        got = tl_encode(name, x)
        assert_same_codes(name, got, torch_encode(name, x), x, name + " float64")
        with np.errstate(over="ignore", invalid="ignore"):
            x_as_f32 = x.astype(np.float32)
        assert_same_codes(name, got, tl_encode(name, x_as_f32), x, name + " float64 vs float32")


@needs_ml_dtypes
@pytest.mark.parametrize("name", FORMAT_NAMES)
def test_encode_matches_ml_dtypes_where_they_agree(name):
    x = sweep(name)
    got, want = tl_encode(name, x), ml_encode(name, x)
    ok = ~np.isnan(x)
    if name == "float8_e4m3fn":
        ok &= np.abs(x) < 464        # torch saturates, ml_dtypes gives NaN
    if name == "float8_e8m0fnu":
        ok &= x > 0                  # ml_dtypes: negatives and zero are NaN
    assert_same_codes(name, got[ok], want[ok], x[ok], name + " vs ml_dtypes")


@pytest.mark.parametrize("name", FORMAT_NAMES)
def test_encode_lengths_and_offsets(name):
    x = sweep(name)[:300]
    whole = tl_encode(name, x)
    for start in (0, 1, 5):
        for n in (1, 3, 7, 8, 9, 16, 17, 31, 64, 101):
            part = tl_encode(name, x[start:start + n].copy())
            assert (part == whole[start:start + n]).all(), (name, start, n)


F32 = np.float32


@pytest.mark.parametrize("name,value,code", [
    # float8_e4m3fn: no inf, saturation to 448 in torch 2.13, NaN 0x7F
    ("float8_e4m3fn", 448.0, 0x7E), ("float8_e4m3fn", 464.0, 0x7E),
    ("float8_e4m3fn", 470.0, 0x7E), ("float8_e4m3fn", 1e6, 0x7E),
    ("float8_e4m3fn", np.inf, 0x7E), ("float8_e4m3fn", -np.inf, 0xFE),
    ("float8_e4m3fn", np.nan, 0x7F), ("float8_e4m3fn", -0.0, 0x80),
    ("float8_e4m3fn", 2.0 ** -9, 0x01), ("float8_e4m3fn", 2.0 ** -10, 0x00),
    ("float8_e4m3fn", 3 * 2.0 ** -11, 0x01), ("float8_e4m3fn", 3 * 2.0 ** -10, 0x02),
    ("float8_e4m3fn", 5 * 2.0 ** -10, 0x02), ("float8_e4m3fn", 464.0 - 2.0 ** -16, 0x7E),
    # float8_e5m2: IEEE-like with inf
    ("float8_e5m2", 57344.0, 0x7B), ("float8_e5m2", 61439.0, 0x7B),
    ("float8_e5m2", 61440.0, 0x7C), ("float8_e5m2", np.inf, 0x7C),
    ("float8_e5m2", -np.inf, 0xFC), ("float8_e5m2", np.nan, 0x7F),
    ("float8_e5m2", 2.0 ** -16, 0x01), ("float8_e5m2", 2.0 ** -17, 0x00),
    # fnuz: single NaN 0x80, no -0
    ("float8_e4m3fnuz", 240.0, 0x7F), ("float8_e4m3fnuz", 248.0, 0x80),
    ("float8_e4m3fnuz", -248.0, 0x80), ("float8_e4m3fnuz", np.inf, 0x80),
    ("float8_e4m3fnuz", np.nan, 0x80), ("float8_e4m3fnuz", -0.0, 0x00),
    ("float8_e4m3fnuz", -2.0 ** -12, 0x00), ("float8_e4m3fnuz", -2.0 ** -10, 0x81),
    ("float8_e5m2fnuz", 57344.0, 0x7F), ("float8_e5m2fnuz", 61440.0, 0x80),
    ("float8_e5m2fnuz", -np.inf, 0x80), ("float8_e5m2fnuz", -0.0, 0x00),
    ("float8_e5m2fnuz", 2.0 ** -17, 0x01),
    # e8m0fnu: exponent only, sign ignored, ties (x1.5) up, 0 -> code 0
    ("float8_e8m0fnu", 1.0, 127), ("float8_e8m0fnu", -1.0, 127),
    ("float8_e8m0fnu", 1.5, 128), ("float8_e8m0fnu", 1.4999999, 127),
    ("float8_e8m0fnu", 0.0, 0), ("float8_e8m0fnu", -0.0, 0),
    ("float8_e8m0fnu", 2.0 ** -127, 0), ("float8_e8m0fnu", 2.0 ** 127, 254),
    ("float8_e8m0fnu", 1.5 * 2.0 ** 127, 255), ("float8_e8m0fnu", np.inf, 255),
    ("float8_e8m0fnu", np.nan, 255),
    # float16 / bfloat16
    ("float16", 65504.0, 0x7BFF), ("float16", 65519.0, 0x7BFF), ("float16", 65520.0, 0x7C00),
    ("float16", 2.0 ** -24, 0x0001), ("float16", 2.0 ** -25, 0x0000),
    ("float16", 3 * 2.0 ** -26, 0x0001), ("float16", -0.0, 0x8000),
    ("float16", 1 + 2.0 ** -11, 0x3C00), ("float16", 1 + 3 * 2.0 ** -11, 0x3C02),
    ("bfloat16", 1 + 2.0 ** -8, 0x3F80), ("bfloat16", 1 + 3 * 2.0 ** -8, 0x3F82),
    ("bfloat16", float.fromhex("0x1.fffffep+127"), 0x7F80), ("bfloat16", -0.0, 0x8000),
])
def test_encode_known_values(name, value, code):
    with np.errstate(over="ignore"):
        got = tl_encode(name, np.array([value], dtype=F32))[0]
    if _code_isnan(name, np.array([code]))[0]:
        assert _code_isnan(name, np.array([got]))[0], hex(int(got))
        if name != "bfloat16":  # bfloat16 NaN payload is torch-path dependent
            assert int(got) & 0x7F == code & 0x7F
    else:
        assert int(got) == code, (hex(int(got)), hex(code))


# ------------------------------------------------------------------ finfo / iinfo

FLOAT_DTYPES = ["float16", "bfloat16", "float32", "float64", "complex32", "complex64",
                "complex128", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz",
                "float8_e5m2fnuz", "float8_e8m0fnu"]
INT_DTYPES = ["uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64"]
FINFO_FIELDS = ["bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype"]


@needs_torch
@pytest.mark.parametrize("name", FLOAT_DTYPES)
def test_finfo_matches_torch(name):
    mine, ref = tl.finfo(getattr(tl, name)), torch.finfo(getattr(torch, name))
    for f in FINFO_FIELDS:
        a, b = getattr(mine, f), getattr(ref, f)
        assert a == b and type(a) is type(b), (name, f, a, b)
    assert repr(mine) == repr(ref)


@needs_torch
@pytest.mark.parametrize("name", INT_DTYPES)
def test_iinfo_matches_torch(name):
    mine, ref = tl.iinfo(getattr(tl, name)), torch.iinfo(getattr(torch, name))
    for f in ["bits", "max", "min", "dtype"]:
        a, b = getattr(mine, f), getattr(ref, f)
        assert a == b and type(a) is type(b), (name, f, a, b)
    assert repr(mine) == repr(ref)


def test_finfo_values():
    f = tl.finfo(tl.float32)
    assert (f.bits, f.eps, f.tiny, f.dtype) == (32, 2.0 ** -23, 2.0 ** -126, "float32")
    assert f.max == float(np.finfo(np.float32).max) and f.min == -f.max
    assert f.smallest_normal == f.tiny and f.resolution == 1e-06
    h = tl.finfo(tl.float16)
    assert (h.bits, h.eps, h.max, h.min, h.tiny, h.resolution) == (
        16, 2.0 ** -10, 65504.0, -65504.0, 2.0 ** -14, 0.001)
    assert tl.finfo(tl.complex64).dtype == "float32"
    assert tl.finfo(tl.complex128) == tl.finfo(tl.float64)
    assert tl.finfo(tl.float8_e4m3fn).max == 448.0
    e = tl.finfo(tl.float8_e8m0fnu)
    assert (e.eps, e.max, e.min, e.tiny) == (1.0, 2.0 ** 127, 2.0 ** -127, 2.0 ** -127)
    i = tl.iinfo(tl.int64)
    assert (i.bits, i.min, i.max, i.dtype) == (64, -2 ** 63, 2 ** 63 - 1, "int64")
    assert tl.iinfo(tl.uint8).max == 255 and tl.iinfo(tl.uint8).min == 0


def test_finfo_default_dtype():
    assert tl.finfo().dtype == str(tl.get_default_dtype()).split(".")[-1]
    old = tl.get_default_dtype()
    tl.set_default_dtype(tl.float64)
    try:
        assert tl.finfo().dtype == "float64"
    finally:
        tl.set_default_dtype(old)
    assert tl.finfo().dtype == "float32"


@pytest.mark.parametrize("name", ["int32", "uint8", "bool", "int64"])
def test_finfo_rejects_non_float(name):
    with pytest.raises(TypeError):
        tl.finfo(getattr(tl, name))


@pytest.mark.parametrize("name", ["float32", "bool", "complex64", "bfloat16", "float8_e5m2"])
def test_iinfo_rejects_non_int(name):
    with pytest.raises(TypeError):
        tl.iinfo(getattr(tl, name))


def test_info_argument_errors():
    with pytest.raises(TypeError):
        tl.finfo("float32")
    with pytest.raises(TypeError):
        tl.finfo(None)
    with pytest.raises(TypeError):
        tl.iinfo()
    with pytest.raises(TypeError):
        tl.iinfo(np.int32)
    with pytest.raises(AttributeError):
        tl.finfo(tl.float32).eps = 1.0


def test_finfo_float4_like_torch():
    f = tl.finfo(tl.float4_e2m1fn_x2)
    assert f.bits == 8
    with pytest.raises(NotImplementedError):
        f.eps
    with pytest.raises(NotImplementedError):
        f.max
