"""Type promotion (seed 002): promote_types over every dtype pair, result_type over every
pair of operand kinds (dimensioned tensor, zero-dim tensor, Python scalar, NumPy scalar),
can_cast, and the out=/in-place casting rules, all against torch 2.13."""
import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")
from hypothesis import given, settings, strategies as st  # noqa: E402

ALL = ["bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64", "float16", "bfloat16",
       "float32", "float64", "complex32", "complex64", "complex128", "float8_e4m3fn", "float8_e5m2",
       "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu", "float4_e2m1fn_x2"]
ARITH = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
         "complex64", "complex128"]


def outcome(fn):
    try:
        return ("ok", str(fn()).split(".")[-1])
    except (RuntimeError, TypeError) as e:
        return ("raise", type(e).__name__)


@pytest.mark.parametrize("a", ALL)
def test_promote_types_table_matches_torch(a):
    for b in ALL:
        got = outcome(lambda: tl.promote_types(getattr(tl, a), getattr(tl, b)))
        want = outcome(lambda: torch.promote_types(getattr(torch, a), getattr(torch, b)))
        assert got == want, (a, b)


def test_promote_types_shell_message():
    with pytest.raises(RuntimeError, match="Promotion for uint16, uint32, uint64 types is not supported"):
        tl.promote_types(tl.uint16, tl.int32)
    with pytest.raises(RuntimeError, match="Promotion for Float8 Types is not supported"):
        tl.promote_types(tl.float8_e4m3fn, tl.float32)


@pytest.mark.parametrize("a", ALL)
def test_can_cast_matches_torch(a):
    for b in ALL:
        assert tl.can_cast(getattr(tl, a), getattr(tl, b)) == torch.can_cast(getattr(torch, a), getattr(torch, b)), (a, b)


def make(kind, dt, lib):
    """An operand of `kind` with dtype name dt (scalars ignore dt beyond its kind)."""
    if kind == "dim":
        return lib.ones(2, dtype=getattr(lib, dt))
    if kind == "zero":
        return lib.ones((), dtype=getattr(lib, dt))
    if kind == "np":
        return np.ones((), dtype=dt)[()]
    return {"bool": True, "int": 3, "float": 2.5, "complex": 1 + 2j}[dt]


KINDS = [("dim", d) for d in ARITH] + [("zero", d) for d in ARITH] + \
    [("py", k) for k in ("bool", "int", "float", "complex")]
NP_KINDS = [("np", d) for d in ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64",
                                "complex64", "complex128")]


@pytest.mark.parametrize("ka", KINDS + NP_KINDS, ids=lambda k: "%s-%s" % k)
def test_result_type_matches_torch(ka):
    for kb in KINDS:
        a_tl, b_tl = make(ka[0], ka[1], tl), make(kb[0], kb[1], tl)
        a_t, b_t = make(ka[0], ka[1], torch), make(kb[0], kb[1], torch)
        if ka[0] == "np":
            a_t = torch.tensor(a_t)  # torch treats NumPy scalars as 0-d tensors of their dtype
        if not isinstance(a_tl, tl.Tensor) and not isinstance(b_tl, tl.Tensor) and ka[0] != "np":
            continue
        want = outcome(lambda: torch.result_type(a_t, b_t) if isinstance(a_t, torch.Tensor)
                       else torch.result_type(b_t, a_t))
        got = outcome(lambda: tl.result_type(a_tl, b_tl) if isinstance(a_tl, tl.Tensor) or ka[0] == "np"
                      else tl.result_type(b_tl, a_tl))
        assert got == want, (ka, kb)


def test_seed_002_examples():
    f = tl.ones(1, dtype=tl.float)
    d = tl.ones(1, dtype=tl.double)
    cf = tl.ones(1, dtype=tl.complex64)
    cd = tl.ones(1, dtype=tl.complex128)
    i = tl.ones(1, dtype=tl.int)
    lg = tl.ones(1, dtype=tl.long)
    u = tl.ones(1, dtype=tl.uint8)
    b = tl.ones(1, dtype=tl.bool)
    lz = tl.tensor(1, dtype=tl.long)
    assert tl.add(5, 5).dtype == tl.int64
    assert (i + 5).dtype == tl.int32
    assert (i + lz).dtype == tl.int32
    assert (lg + i).dtype == tl.int64
    assert (b + lg).dtype == tl.int64
    assert (b + u).dtype == tl.uint8
    assert (f + d).dtype == tl.float64
    assert (cf + cd).dtype == tl.complex128
    assert (b + i).dtype == tl.int32
    assert tl.add(lg, f).dtype == tl.float32
    # out= casting rules
    lo = tl.zeros(1, dtype=tl.long)
    tl.add(i, f, out=f.clone())
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        tl.add(i, f, out=lo)
    with pytest.raises(RuntimeError, match="result type ComplexFloat can't be cast to the desired output type Float"):
        tl.add(cf, f, out=f.clone())
    with pytest.raises(RuntimeError, match="result type Long can't be cast to the desired output type Bool"):
        tl.add(lg, b, out=b.clone())
    assert lo.tolist() == [0]  # untouched


def test_default_dtype_follows_set_default_dtype():
    i = tl.ones(2, dtype=tl.int32)
    try:
        tl.set_default_dtype(tl.float64)
        assert (i + 1.5).dtype == tl.float64
        assert (i / 2).dtype == tl.float64
        assert (tl.ones(2, dtype=tl.float16) + 1j).dtype == tl.complex32
    finally:
        tl.set_default_dtype(tl.float32)
    assert (i + 1.5).dtype == tl.float32
    assert tl.sqrt(i).dtype == tl.float32


@pytest.mark.parametrize("dt", ["uint16", "uint32", "uint64", "float8_e4m3fn", "float8_e5m2", "float8_e8m0fnu"])
@pytest.mark.parametrize("other", ["self", "int32", "float32", "complex64"])
def test_shell_dtypes_in_arithmetic_like_torch(dt, other):
    """Shell dtypes have no kernels; torch still adds uint16..64 to a float (casting them)."""
    x, xt = tl.ones(2, dtype=getattr(tl, dt)), torch.ones(2, dtype=getattr(torch, dt))
    y = x if other == "self" else tl.ones(2, dtype=getattr(tl, other))
    yt = xt if other == "self" else torch.ones(2, dtype=getattr(torch, other))
    assert outcome(lambda: (x + y).dtype) == outcome(lambda: (xt + yt).dtype)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(ARITH), st.sampled_from(ARITH), st.sampled_from(ARITH),
       st.lists(st.sampled_from(["dim", "zero"]), min_size=2, max_size=2))
def test_hypothesis_promotion_associative_like_torch(a, b, c, kinds):
    """Two-step promotion of three operands matches torch (and the pairwise table)."""
    x_tl, y_tl = make(kinds[0], a, tl), make(kinds[1], b, tl)
    x_t, y_t = make(kinds[0], a, torch), make(kinds[1], b, torch)
    want = outcome(lambda: torch.result_type(x_t, y_t))
    got = outcome(lambda: tl.result_type(x_tl, y_tl))
    assert got == want
    assert str(tl.promote_types(getattr(tl, a), getattr(tl, c))) .split(".")[-1] == \
        str(torch.promote_types(getattr(torch, a), getattr(torch, c))).split(".")[-1]
