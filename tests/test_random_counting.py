"""poisson and binomial: with the default generator after manual_seed, torch 2.13's CPU numbers
bit for bit (the same rejection samplers, float32 constants in float where torch keeps them
there, the same draws in the same order), the generator left where torch leaves it (a rand
after the call agrees too); torch's dtypes, broadcasting, errors and messages; a Philox
generator's samples have the distribution's mean and variance."""
import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")

RATES = np.concatenate([np.linspace(0, 30, 121), [0.5, 9.99, 10.0, 10.01, 99.5, 1e4, 1e6, 1e9, np.inf]])
COUNT = np.array([0, 1, 5, 10, 19.5, 20, 21, 50, 100, 1000, 1e5, 1e7, -3, np.inf, 7, 10.5, 2 ** 40])
PROB = np.array([0.5, 0.3, 0.9, 0.99, 0.01, 0.7, 0.5, 0.2, 0.45, 0.55, 0.5, 0.1, 0.5, 0.5, np.nan, 0.5, 1e-9])


def _same_stream(call, seed):
    """call(lib) -> tensor, drawn after manual_seed(seed); then a rand(4) from the same stream."""
    out = []
    for lib in (torch, tl):
        lib.manual_seed(seed)
        r = call(lib)
        out.append((r.dtype, tuple(r.shape), r.double().numpy(), lib.rand(4).double().numpy()))
    (dt_a, sh_a, a, ra), (dt_b, sh_b, b, rb) = out
    assert str(dt_a).split(".")[-1] == str(dt_b).split(".")[-1] and sh_a == sh_b
    np.testing.assert_array_equal(b, a)  # NaN at the same places, values bit for bit
    np.testing.assert_array_equal(rb, ra)


@pytest.mark.parametrize("dt", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("seed", [0, 1, 7, 123])
def test_poisson_is_torchs_stream(dt, seed):
    _same_stream(lambda lib: lib.poisson(lib.tensor(RATES).to(getattr(lib, dt))), seed)


@pytest.mark.parametrize("shape", [(), (0,), (3, 4), (4, 3)])
def test_poisson_shapes_and_layouts(shape):
    n = int(np.prod(shape))
    rates = np.linspace(0.5, 40, n).reshape(shape)
    _same_stream(lambda lib: lib.poisson(lib.tensor(rates)), 3)
    if len(shape) == 2:  # a transposed input: drawn in the result's (row-major) order
        _same_stream(lambda lib: lib.poisson(lib.tensor(rates).t()), 4)
        _same_stream(lambda lib: lib.poisson(lib.tensor(rates)[:, ::2]), 5)


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("seed", [0, 1, 7, 123])
def test_binomial_is_torchs_stream(dt, seed):
    c, p = np.repeat(COUNT, len(PROB)), np.tile(PROB, len(COUNT))
    _same_stream(lambda lib: lib.binomial(lib.tensor(c).to(getattr(lib, dt)), lib.tensor(p).to(getattr(lib, dt))), seed)


@pytest.mark.filterwarnings("ignore:An output with one or more elements was resized")  # (torch's own)
def test_binomial_broadcasts():
    _same_stream(lambda lib: lib.binomial(lib.tensor([[10.0], [200.0]]), lib.tensor([0.1, 0.5, 0.95])), 9)
    _same_stream(lambda lib: lib.binomial(lib.tensor([10.0]), lib.tensor([0.5, 0.2])), 9)
    _same_stream(lambda lib: lib.binomial(lib.tensor(30.0), lib.tensor(0.4)), 9)


def _outcome(f, lib):
    try:
        return "ok", f(lib)
    except Exception as e:  # noqa: BLE001 - compared with torch's
        return type(e).__name__, str(e).replace("torch", "tensorlib")


@pytest.mark.parametrize("call", [
    lambda lib: lib.poisson(lib.tensor([1.0, -1.0])),
    lambda lib: lib.poisson(lib.tensor([float("nan")])),
    lambda lib: lib.poisson(lib.tensor([1, 2])),
    lambda lib: lib.poisson(lib.tensor([1.0], dtype=lib.complex64)),
    lambda lib: lib.poisson(lib.tensor([1.0]).to(lib.float8_e4m3fn)),
    lambda lib: lib.poisson([1.0]),
    lambda lib: lib.binomial(lib.tensor([10.0], dtype=lib.float16), lib.tensor([0.5], dtype=lib.float16)),
    lambda lib: lib.binomial(lib.tensor([10.0], dtype=lib.bfloat16), lib.tensor([0.5], dtype=lib.bfloat16)),
    lambda lib: lib.binomial(lib.tensor([10.0]), lib.tensor([0.5], dtype=lib.float64)),
    lambda lib: lib.binomial(lib.tensor([10]), lib.tensor([0.5])),
    lambda lib: lib.binomial(lib.tensor([10.0]), lib.tensor([1])),
    lambda lib: lib.binomial(lib.ones(2), lib.ones(3)),
    lambda lib: lib.binomial(lib.ones(2), 0.5),
    lambda lib: lib.binomial(lib.ones(2, device="meta"), lib.ones(2, device="meta")),
])
def test_errors(call):
    got, want = _outcome(call, tl), _outcome(call, torch)
    assert got[0] == want[0], (got, want)
    assert got[1].split(" If you")[0].split(" You may")[0] == want[1].split(" If you")[0].split(" You may")[0] \
        or got[0] == "NotImplementedError"  # (the meta refusal: torch appends its compile-time advice)


def test_meta_and_generators():
    m = tl.poisson(tl.ones(2, 3, device="meta", dtype=tl.float64))
    assert m.is_meta and m.shape == (2, 3) and m.dtype == tl.float64
    g = tl.Generator(kind="philox")
    g.manual_seed(5)
    a = tl.poisson(tl.full((4000,), 3.5), g)
    g.manual_seed(5)
    assert tl.equal(a, tl.poisson(tl.full((4000,), 3.5), generator=g))  # reproducible from the seed
    for lam in (3.5, 250.0):  # both samplers: mean and variance lambda
        x = tl.poisson(tl.full((40000,), lam), g).double().numpy()
        assert abs(x.mean() - lam) < 5 * np.sqrt(lam / x.size) and abs(x.var() / lam - 1) < 0.05
    for n, p in ((8.0, 0.3), (500.0, 0.4), (500.0, 0.93)):  # inversion and BTRS, p above 1/2 too
        x = tl.binomial(tl.full((40000,), n, dtype=tl.float64), tl.full((40000,), p, dtype=tl.float64), g).numpy()
        assert abs(x.mean() - n * p) < 5 * np.sqrt(n * p * (1 - p) / x.size)
        assert abs(x.var() / (n * p * (1 - p)) - 1) < 0.05
        assert x.min() >= 0 and x.max() <= n and np.all(x == np.floor(x))
