"""The default generator replays torch's CPU random stream: after the same manual_seed, the
same calls give torch's numbers. Exact everywhere except where torch's own vectorized and
scalar builds differ in the last bits: float32 normals drawn 16 at a time, and float32
uniforms scaled to a range other than [0, 1) (fused multiply-add or not); those compare with
a tolerance of a few float32 ulps, whichever path torch takes on this CPU."""
import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")

# Each program is a list of (description, call) where call(lib) draws from the default generator.
# The flag marks float32 normals of the 16-at-a-time path (tolerance instead of equality).
CALLS = [
    ("rand", lambda L: L.rand(7), False),
    ("rand f64", lambda L: L.rand(5, dtype=L.float64), False),
    ("rand f16", lambda L: L.rand(300, dtype=L.float16), False),
    ("rand bf16", lambda L: L.rand(300, dtype=L.bfloat16), False),
    ("rand 2d", lambda L: L.rand(3, 4), False),
    ("randn small", lambda L: L.randn(5), False),
    ("randn odd", lambda L: L.randn(3), False),
    ("randn 16", lambda L: L.randn(16), True),
    ("randn 37", lambda L: L.randn(37), True),
    ("randn f64 37", lambda L: L.randn(37, dtype=L.float64), False),
    ("randn f64 small", lambda L: L.randn(7, dtype=L.float64), False),
    ("randn f16 20", lambda L: L.randn(20, dtype=L.float16), False),
    ("randn bf16 40", lambda L: L.randn(40, dtype=L.bfloat16), False),
    ("randn complex", lambda L: L.randn(3, dtype=L.complex64), False),
    ("randn complex big", lambda L: L.randn(12, dtype=L.complex128), False),
    ("normal_ non-contiguous", lambda L: L.empty(4, 5).t().normal_(), False),
    ("uniform_", lambda L: L.empty(6).uniform_(2, 5), True),  # torch fuses the scaling (FMA) or not by CPU
    ("uniform_ f64", lambda L: L.empty(6, dtype=L.float64).uniform_(-1, 1), False),
    ("uniform_ f16", lambda L: L.empty(300, dtype=L.float16).uniform_(-1, 3), False),
    ("uniform_ bf16", lambda L: L.empty(300, dtype=L.bfloat16).uniform_(0.5, 0.75), False),
    ("normal_ 40", lambda L: L.empty(40).normal_(2, 5), True),
    ("normal scalars", lambda L: L.normal(2.0, 3.0, size=(20,)), True),
    ("normal tensors", lambda L: L.normal(L.zeros(5), L.ones(5) * 2), False),
    ("randint", lambda L: L.randint(0, 10, (9,)), False),
    ("randint negative", lambda L: L.randint(-5, 5, (9,), dtype=L.int16), False),
    ("randint 2^32", lambda L: L.randint(0, 2 ** 32, (3,)), False),
    ("randint big", lambda L: L.randint(-3, 2 ** 40, (4,)), False),
    ("randint_like", lambda L: L.randint_like(L.zeros(5), 10), False),
    ("random_ int64", lambda L: L.empty(5, dtype=L.int64).random_(), False),
    ("random_ int32", lambda L: L.empty(5, dtype=L.int32).random_(), False),
    ("random_ uint8", lambda L: L.empty(5, dtype=L.uint8).random_(), False),
    ("random_ bool", lambda L: L.empty(5, dtype=L.bool).random_(), False),
    ("random_ f32", lambda L: L.empty(5).random_(), False),
    ("random_ f64", lambda L: L.empty(5, dtype=L.float64).random_(), False),
    ("random_ to", lambda L: L.empty(5, dtype=L.int64).random_(7), False),
    ("random_ from to", lambda L: L.empty(5, dtype=L.uint8).random_(3, 9), False),
    ("randperm", lambda L: L.randperm(10), False),
    ("randperm big", lambda L: L.randperm(3000), False),
    ("bernoulli p f32", lambda L: L.bernoulli(L.full((40,), 0.3)), False),
    ("bernoulli p f64", lambda L: L.bernoulli(L.full((10,), 0.6, dtype=L.float64)), False),
    ("bernoulli_ scalar", lambda L: L.empty(30).bernoulli_(0.4), False),
    ("exponential_", lambda L: L.empty(20).exponential_(), False),
    ("cauchy_", lambda L: L.empty(10).cauchy_(), False),
    ("log_normal_", lambda L: L.empty(10).log_normal_(), False),
    ("geometric_", lambda L: L.empty(10).geometric_(0.3), False),
    ("multinomial replacement", lambda L: L.multinomial(L.tensor([0.1, 0.5, 0.4]), 10, True), False),
    ("multinomial", lambda L: L.multinomial(L.tensor([[0.1, 0.5, 0.2, 0.2], [0.3, 0.3, 0.2, 0.2]]), 3), False),
    ("multinomial past the positive categories",
     lambda L: L.multinomial(L.tensor([[0.5, 0.0, 0.2, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 1.0, 0.0]]), 5), False),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_multinomial_without_replacement_grid(dtype):
    """Rows with zeros, as many samples as categories: torch's categories, in its order, also
    those of probability 0 drawn once the positive ones are spent (torch 2.13 no longer refuses)."""
    rng = np.random.default_rng(9)
    for case in range(120):
        rows, cats = int(rng.integers(1, 4)), int(rng.integers(1, 13))
        p = rng.random((rows, cats)).astype(dtype)
        p[rng.random((rows, cats)) < 0.5] = 0
        p[:, int(rng.integers(cats))] += 0.25
        n = int(rng.integers(1, cats + 1))
        for q in (p, p[0]):
            tl.manual_seed(case)
            torch.manual_seed(case)
            _check(tl.multinomial(tl.from_numpy(q), n), torch.multinomial(torch.from_numpy(q), n), False,
                   f"case {case} {q.shape} n={n}")


def _np(t):
    t = t.resolve_conj() if hasattr(t, "resolve_conj") else t
    if t.dtype.is_complex:
        return np.stack([t.real.double().numpy(), t.imag.double().numpy()])
    return t.double().numpy()


def _check(got, want, approx, what):
    assert tuple(got.shape) == tuple(want.shape), what
    assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1], what
    g, w = _np(got), _np(want)
    if approx:  # a few float32 ulps of each value's magnitude
        np.testing.assert_allclose(g, w, rtol=4e-6, atol=4e-6 * np.abs(w).max(), err_msg=what)
    else:
        np.testing.assert_array_equal(g, w, err_msg=what)


@pytest.mark.parametrize("seed", [0, 3, 2 ** 40 + 5])
def test_one_program_matches_torch(seed):
    """All calls in one stream: each must also leave the generator where torch leaves it."""
    tl.manual_seed(seed)
    torch.manual_seed(seed)
    for what, call, approx in CALLS:
        _check(call(tl), call(torch), approx, what)
    assert tl.initial_seed() == torch.initial_seed()


@pytest.mark.parametrize("i", range(len(CALLS)), ids=[c[0] for c in CALLS])
def test_each_call_from_a_fresh_seed(i):
    what, call, approx = CALLS[i]
    tl.manual_seed(11)
    torch.manual_seed(11)
    _check(call(tl), call(torch), approx, what)
    _check(tl.rand(3), torch.rand(3), False, what + " (the stream after it)")


def test_generator_objects_and_state():
    g, h = tl.Generator().manual_seed(5), torch.Generator().manual_seed(5)
    _check(tl.rand(4, generator=g), torch.rand(4, generator=h), False, "generator=")
    st = g.get_state()
    a = tl.randn(3, generator=g)  # leaves a cached Box-Muller sample behind
    g.set_state(st)
    b = tl.randn(3, generator=g)
    assert tl.equal(a, b)
    _check(tl.randn(3, generator=g), torch.randn(3, generator=(lambda: (torch.randn(3, generator=h), h)[1])()),
           False, "after a state round trip")


def test_bad_states_and_kinds():
    g = tl.Generator()
    st = g.get_state()
    bad = st.clone()
    bad[0] = 7  # no such kind
    with pytest.raises(RuntimeError):
        g.set_state(bad)
    bad = st.clone()
    bad[20:24] = tl.tensor([255, 255, 0, 0], dtype=tl.uint8)  # position past the MT19937 words
    with pytest.raises(RuntimeError):
        g.set_state(bad)
    assert tl.equal(g.get_state(), st)
    with pytest.raises(RuntimeError):
        g.set_state(st[:-1])
    with pytest.raises(ValueError):
        tl.Generator(kind="xorshift")
    assert tl.Generator().kind == "mt19937" and tl.Generator(kind="philox").kind == "philox"


def test_philox_generator_is_reproducible_across_threads():
    n = tl.get_num_threads()
    try:
        out = []
        for threads in (1, 2):
            tl.set_num_threads(threads)
            g = tl.Generator(kind="philox").manual_seed(9)
            out.append((tl.rand(300000, generator=g), tl.randn(300000, generator=g)))
        assert tl.equal(out[0][0], out[1][0]) and tl.equal(out[0][1], out[1][1])
        g = tl.Generator(kind="philox").manual_seed(9)
        assert not tl.equal(tl.rand(100, generator=g), tl.Generator().manual_seed(9) and tl.rand(100))
    finally:
        tl.set_num_threads(n)
