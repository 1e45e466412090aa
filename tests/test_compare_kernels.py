"""Comparison and logical kernels with a bool output (csrc/kernels/ew_binary.c), which carry
AVX2 and AVX-512 clones: every length around the vector widths (tails of 1..63 bytes), the
tensor-tensor, tensor-scalar, scalar-tensor and strided branches, every real dtype, and the
special values (NaN, +-inf, +-0, subnormals) against the mathematical answer (Python's own
comparisons on the values), with torch 2.13 for the result dtype and plain values."""
import operator

import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")

LENGTHS = [0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 257, 1003]
OPS = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt,
       "ge": operator.ge, "logical_and": lambda a, b: bool(a) and bool(b),
       "logical_or": lambda a, b: bool(a) or bool(b), "logical_xor": lambda a, b: bool(a) != bool(b)}
DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float32", "float64", "complex64", "complex128"]
SPECIAL = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40, -1e-40, 5e-324, 0.5, -0.5, 1.0, 3.0]


def data(dt, n, seed):
    rng = np.random.default_rng(seed)
    if dt == "bool":
        return rng.integers(0, 2, n).astype(bool)
    if dt in ("uint8", "int8", "int16", "int32", "int64"):
        lo = 0 if dt == "uint8" else -3
        return rng.integers(lo, 4, n).astype(dt)  # small range: many ties
    base = np.array(SPECIAL)[rng.integers(0, len(SPECIAL), n)]
    a = base.astype(dt if not dt.startswith("complex") else ("float32" if dt == "complex64" else "float64"))
    if dt.startswith("complex"):
        c = a.astype(dt)
        c.imag = np.where(rng.random(n) < 0.3, np.array(SPECIAL)[rng.integers(0, len(SPECIAL), n)], 0)
        return c
    return a


def expect(f, xs, ys):
    return [bool(f(x, y)) for x, y in zip(xs, ys)]


def supported(op, dt):
    return not (dt.startswith("complex") and op in ("lt", "le", "gt", "ge"))


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("op", list(OPS))
def test_every_length_and_branch(op, dt):
    if not supported(op, dt):
        pytest.skip("no ordering on complex")
    f, g = OPS[op], getattr(tl, op)
    for n in LENGTHS:
        a, b = data(dt, n, n), data(dt, n, n + 1000)
        if n:
            b[: n // 3] = a[: n // 3]  # equal pairs, NaN == NaN included
        xs, ys = a.tolist(), b.tolist()
        x, y = tl.tensor(a), tl.tensor(b)
        r = g(x, y)
        assert r.dtype == tl.bool and tuple(r.shape) == (n,)
        assert np.asarray(r).tolist() == expect(f, xs, ys), (op, dt, n, "tensor-tensor")
        for s in ([xs[n // 2]] if n else []) + SPECIAL[:5]:
            if dt in ("bool", "uint8", "int8", "int16", "int32", "int64") and s != s or s in (np.inf, -np.inf):
                continue  # keep the scalar in the tensor's own kind (no promotion to float)
            sv = {"bool": bool, "complex64": complex, "complex128": complex}.get(dt, type(s))(s)
            st = tl.tensor(np.array(sv, dtype=dt))
            assert np.asarray(g(x, st)).tolist() == expect(f, xs, [st.item()] * n), (op, dt, n, s, "tensor-scalar")
            assert np.asarray(g(st, x)).tolist() == expect(f, [st.item()] * n, xs), (op, dt, n, s, "scalar-tensor")
        if n >= 2:  # strided operands and output (the generic branch)
            m = n // 2
            o = tl.zeros(2 * m, dtype=tl.bool)
            g(x[: 2 * m : 2], y[1 : 2 * m : 2], out=o[::2])
            want = expect(f, xs[: 2 * m : 2], ys[1 : 2 * m : 2])
            assert np.asarray(o[::2]).tolist() == want, (op, dt, n, "strided")
            assert not np.asarray(o[1::2]).any()


@pytest.mark.parametrize("dt", ["float32", "float64", "int32", "int64", "uint8"])
def test_python_scalar_operators_against_torch(dt):
    rng = np.random.default_rng(3)
    for n in (1, 33, 64, 65, 1001):
        a = (rng.integers(-4, 5, n) / 2).astype(dt) if dt.startswith("float") else rng.integers(0, 5, n).astype(dt)
        x, t = tl.tensor(a), torch.from_numpy(a.copy())
        for s in (0.5, 2, 0):
            for fn in (operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge):
                assert np.asarray(fn(x, s)).tolist() == fn(t, s).tolist(), (dt, n, s, fn)
                assert np.asarray(fn(s, x)).tolist() == fn(s, t).tolist(), (dt, n, s, fn)


def test_isclose_tails():
    rng = np.random.default_rng(5)
    for n in LENGTHS:
        a = rng.standard_normal(n).astype(np.float32)
        b = (a + rng.standard_normal(n).astype(np.float32) * 1e-6 * (rng.random(n) < 0.5)).astype(np.float32)
        if n > 4:
            a[:3], b[:3] = np.nan, [np.nan, 1.0, np.inf]
        for en in (False, True):
            got = np.asarray(tl.isclose(tl.tensor(a), tl.tensor(b), equal_nan=en)).tolist()
            want = torch.isclose(torch.from_numpy(a), torch.from_numpy(b), equal_nan=en).tolist()
            assert got == want, (n, en)


@pytest.mark.parametrize("default", ["float32", "float64"])
@pytest.mark.parametrize("dt", ["bool", "uint8", "int8", "int16", "int32", "int64"])
def test_isclose_integers_as_torch(dt, default):
    """torch compares integers and bools exactly without tolerances (int64 beyond 2^53 too) and
    in the default float dtype with one (its rounding decides near 2^24 or 2^53)."""
    rng = np.random.default_rng(17)
    info = np.iinfo(np.int64 if dt == "bool" else dt)
    old = tl.get_default_dtype(), torch.get_default_dtype()
    tl.set_default_dtype(getattr(tl, default))
    torch.set_default_dtype(getattr(torch, default))
    try:
        for case in range(60):
            if dt == "bool":
                a, b = rng.random(40) < 0.5, rng.random(40) < 0.5
            else:
                a = rng.integers(info.min, info.max, 40, dtype=np.int64 if dt == "int64" else np.int32, endpoint=True)
                a = a.astype(dt)
                if dt in ("int32", "int64"):  # near the float types' precision limits
                    a[:4] = [2 ** 24, 2 ** 24 + 1, -(2 ** 24) - 3, 2 ** 31 - 1] if dt == "int32" else \
                        [2 ** 53, 2 ** 53 + 1, 2 ** 60 + 1, -(2 ** 62)]
                step = rng.integers(-3, 4, 40)
                b = np.clip(a.astype(np.float64) + step, info.min, info.max).astype(np.int64).astype(dt)
                b[:4] = a[:4] + np.array([1, -1, 2, 1], dtype=dt) if dt != "uint8" else b[:4]
            rtol, atol = [(0, 0), (1e-9, 0), (0.05, 0), (0, 0.5), (0, 1), (1e-3, 2.5)][case % 6]
            got = tl.isclose(tl.from_numpy(a), tl.from_numpy(b), rtol=rtol, atol=atol)
            want = torch.isclose(torch.from_numpy(a), torch.from_numpy(b), rtol=rtol, atol=atol)
            assert got.dtype == tl.bool and got.tolist() == want.tolist(), (case, rtol, atol)
    finally:
        tl.set_default_dtype(old[0])
        torch.set_default_dtype(old[1])
