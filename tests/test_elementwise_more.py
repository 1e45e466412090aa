"""addcmul, addcdiv, gcd, lcm, heaviside, nextafter, ldexp against torch 2.13: values,
dtypes (three-way promotion), in-place and out= forms, torch's errors."""
import numpy as np
import pytest

import tensorlib as tl
from conftest import assert_same_outcome

torch = pytest.importorskip("torch")
from _torch_scalar import assert_special_equal, scalar_call  # noqa: E402

DTYPES = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool",
          "complex64", "complex128"]


def pair(shape, dtype, seed):
    a = np.asarray(np.random.default_rng(seed).integers(-6, 7, size=shape), dtype=np.float64)
    if dtype == "uint8":
        a = np.asarray(np.abs(a))
    x, t = tl.from_numpy(a.copy()), torch.from_numpy(a.copy())
    if dtype == "bool":
        return x != 0, t != 0
    return x.to(getattr(tl, dtype)), t.to(getattr(torch, dtype))


def same(x, t):
    assert str(x.dtype).split(".")[-1] == str(t.dtype).split(".")[-1]
    assert tuple(x.shape) == tuple(t.shape)
    tn = t.to(torch.float32).numpy() if t.dtype == torch.bfloat16 else t.numpy()
    xn = x.float().numpy() if x.dtype == tl.bfloat16 else x.numpy()
    np.testing.assert_allclose(xn, tn, rtol=1e-6, atol=0, equal_nan=True)


def check(f, *specs):
    xs, ts = zip(*[pair(*s) for s in specs])
    assert_same_outcome(lambda: f(tl, *xs), lambda: f(torch, *ts), message=True, compare=same)


SHAPES = [((3, 4), (3, 4), (3, 4)), ((2, 1, 4), (3, 1), (4,)), ((), (5,), ()), ((0, 2), (2,), (0, 1))]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shapes", SHAPES)
@pytest.mark.parametrize("value", [1, 2, -0.5])
def test_addcmul(dtype, shapes, value):
    check(lambda L, a, b, c: L.addcmul(a, b, c, value=value), *[(s, dtype, i) for i, s in enumerate(shapes)])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shapes", SHAPES)
def test_addcdiv(dtype, shapes):
    check(lambda L, a, b, c: L.addcdiv(a, b, c, value=0.5), *[(s, dtype, i) for i, s in enumerate(shapes)])


@pytest.mark.parametrize("dtypes", [("int64", "float32", "int32"), ("float16", "float32", "float64"),
                                    ("int8", "uint8", "int16"), ("float32", "int64", "int64"), ("bool", "int8", "int8"),
                                    ("complex64", "float64", "float32")])
@pytest.mark.parametrize("op", ["addcmul", "addcdiv"])
def test_addc_promotion(dtypes, op):
    check(lambda L, a, b, c: getattr(L, op)(a, b, c), *[((3,), d, i) for i, d in enumerate(dtypes)])


@pytest.mark.parametrize("op", ["addcmul", "addcdiv"])
def test_addc_inplace_and_out(op):
    (x, t), (b, tb), (c, tc) = pair((2, 3), "float32", 0), pair((3,), "float32", 1), pair((2, 3), "float32", 2)
    c, tc = c.abs() + 1, tc.abs() + 1
    r, e = getattr(x, op + "_")(b, c, value=3), getattr(t, op + "_")(tb, tc, value=3)
    assert r is x and e is t
    same(x, t)
    o, to = tl.empty(2, 3, dtype=tl.float64), torch.empty(2, 3, dtype=torch.float64)
    getattr(tl, op)(x, b, c, out=o)
    getattr(torch, op)(t, tb, tc, out=to)
    same(o, to)
    check(lambda L, a, b, c: getattr(a, op + "_")(b, c), ((3,), "int64", 0), ((3,), "float32", 1), ((3,), "float32", 2))


@pytest.mark.parametrize("case", [
    lambda L: L.addcmul(L.ones(2), 2.0, L.ones(2)), lambda L: L.addcmul(L.ones(2), L.ones(2), L.ones(2), value=1j),
    lambda L: L.addcdiv(L.ones(2), L.ones(2, dtype=L.int64), L.ones(2, dtype=L.int64)),
    lambda L: L.addcmul(L.ones(2), L.ones(3), L.ones(2)), lambda L: L.heaviside(L.ones(2), L.ones(2, dtype=L.int64)),
    lambda L: L.heaviside(L.ones(2, dtype=L.complex64), L.ones(2, dtype=L.complex64)),
    lambda L: L.gcd(L.ones(2), L.ones(2)), lambda L: L.gcd(L.ones(2, dtype=L.int64), 4),
    lambda L: L.lcm(L.ones(2, dtype=L.bool), L.ones(2, dtype=L.bool)),
])
def test_errors_match_torch(case):
    assert_same_outcome(lambda: case(tl), lambda: case(torch), message=True, compare=same)


INTS = ["int64", "int32", "int16", "int8", "uint8"]


@pytest.mark.parametrize("dtype", INTS)
@pytest.mark.parametrize("op", ["gcd", "lcm"])
def test_gcd_lcm(op, dtype):
    check(lambda L, a, b: getattr(L, op)(a, b), ((4, 5), dtype, 0), ((5,), dtype, 1))


@pytest.mark.parametrize("op", ["gcd", "lcm"])
def test_gcd_lcm_extremes(op):
    lo, hi = np.iinfo(np.int64).min, np.iinfo(np.int64).max
    a = np.array([lo, lo, 0, 2 ** 62, hi, -7, 0], dtype=np.int64)
    b = np.array([0, -1, 0, 3, hi - 1, 21, -5], dtype=np.int64)
    same(getattr(tl, op)(tl.from_numpy(a), tl.from_numpy(b)), getattr(torch, op)(torch.from_numpy(a), torch.from_numpy(b)))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "int64", "uint8", "bool"])
def test_heaviside(dtype):
    check(lambda L, a, b: L.heaviside(a, b), ((3, 4), dtype, 0), ((4,), dtype, 1))
    v = [float("nan"), -0.0, 0.0, -1.0, 2.0, float("inf")]
    if dtype.startswith("float") or dtype == "bfloat16":  # special values: torch's scalar path
        x, h = tl.tensor(v, dtype=getattr(tl, dtype)), tl.tensor([0.5], dtype=getattr(tl, dtype))
        got, want = tl.heaviside(x, h), scalar_call("lambda torch, x, h: torch.heaviside(x, h)", x, h)
        assert str(got.dtype).split(".")[-1] == want[1]
        assert_special_equal(np.asarray(got.to(tl.float32)), want[0])


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_nextafter_bit_exact(dtype):
    v = [0.0, -0.0, 1.0, -1.0, 65504.0, 1e-7, -3.5, float("inf"), float("nan"), 2.0]
    w = [1.0, -1.0, 2.0, 0.0, float("inf"), 0.0, -4.0, 0.0, 1.0, 2.0]
    x = tl.nextafter(tl.tensor(v, dtype=getattr(tl, dtype)), tl.tensor(w, dtype=getattr(tl, dtype)))
    # inf/NaN/signed-zero operands: torch's scalar path, its vectorized kernels differ by CPU
    bits = {"float32": "int32", "float64": "int64", "float16": "int16", "bfloat16": "int16"}[dtype]
    t = scalar_call(f"lambda torch, a, b: torch.nextafter(a, b).view(torch.{bits})",
                    tl.tensor(v, dtype=getattr(tl, dtype)), tl.tensor(w, dtype=getattr(tl, dtype)))
    assert x.view(getattr(tl, bits)).tolist() == t[0].tolist()


@pytest.mark.parametrize("dtypes", [("float32", "int64"), ("float16", "int64"), ("int64", "int64"), ("float64", "int32"),
                                    ("bfloat16", "int16"), ("float32", "float32")])
def test_ldexp(dtypes):
    check(lambda L, a, b: L.ldexp(a, b), ((3, 4), dtypes[0], 0), ((4,), dtypes[1], 1))
    same(tl.ldexp(tl.ones(2, dtype=tl.float16), tl.tensor([100, -30])),
         torch.ldexp(torch.ones(2, dtype=torch.float16), torch.tensor([100, -30])))


def test_names_unify():
    a = tl.ones(2, 3, names=("N", "C"))
    b = tl.ones(3, names=("C",))
    assert tl.addcmul(a, b, a).names == ("N", "C")
    assert tl.gcd(a.long(), b.long()).names == ("N", "C")
