"""Random numbers: generator state and reproducibility, distribution moments and
goodness-of-fit (KS / chi-square) with fixed seeds, dtypes, shapes, torch's errors.
Never exact values from torch (a different generator)."""
import math

import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")
stats = pytest.importorskip("scipy.stats")

N = 200_000


def sample(fn, seed=1234):
    tl.manual_seed(seed)
    return fn().numpy().astype(np.float64).ravel()


def test_philox_known_answer():
    # Random123 known-answer vectors for philox4x32_10
    assert tl._C._philox(0, 0, 1) == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]
    ctr = (0xFFFFFFFF << 32) | 0xFFFFFFFF
    assert tl._C._philox((0xFFFFFFFF << 32) | 0xFFFFFFFF, ctr, 1)[0] != 0  # runs with max values


def test_seed_api():
    g = tl.manual_seed(42)
    assert g is tl.default_generator
    assert tl.initial_seed() == 42
    a = tl.rand(5).numpy()
    tl.manual_seed(42)
    np.testing.assert_array_equal(a, tl.rand(5).numpy())
    s = tl.seed()
    assert tl.initial_seed() == s
    assert tl.manual_seed(-1).initial_seed() == 2**64 - 1
    with pytest.raises(ValueError):
        tl.manual_seed(2**64)


def test_generator_objects_and_state():
    g = tl.Generator(device="cpu").manual_seed(7)
    assert str(g.device) == "cpu"
    st = g.get_state()
    assert st.dtype == tl.uint8 and st.dim() == 1
    a = tl.randn(10, generator=g).numpy()
    b = tl.randn(10, generator=g).numpy()
    assert not np.array_equal(a, b)
    g.set_state(st)
    np.testing.assert_array_equal(tl.randn(10, generator=g).numpy(), a)
    # a separate generator does not disturb the default one
    tl.manual_seed(3)
    x = tl.rand(4).numpy()
    tl.manual_seed(3)
    tl.rand(4, generator=tl.Generator().manual_seed(9))
    np.testing.assert_array_equal(tl.rand(4).numpy(), x)
    with pytest.raises(RuntimeError, match="CPUGeneratorImplState"):
        g.set_state(tl.zeros(3, dtype=tl.uint8))
    with pytest.raises(TypeError):
        tl.rand(3, generator=5)


def test_thread_count_independent():
    n = tl.get_num_threads()
    try:
        out = []
        for t in (1, 2):
            tl.set_num_threads(t)
            tl.manual_seed(5)
            out.append((tl.randn(300_001).numpy(), tl.rand(100_003, dtype=tl.float64).numpy(),
                        tl.randint(0, 1000, (70_001,)).numpy()))
        for x, y in zip(*out):
            np.testing.assert_array_equal(x, y)
    finally:
        tl.set_num_threads(n)


@pytest.mark.parametrize("dtype", [tl.float32, tl.float64])
def test_uniform_ks(dtype):
    x = sample(lambda: tl.rand(N, dtype=dtype))
    assert x.min() >= 0 and x.max() < 1
    assert stats.kstest(x, "uniform").pvalue > 1e-3
    y = sample(lambda: tl.empty(N, dtype=dtype).uniform_(-2, 3))
    assert y.min() >= -2 and y.max() < 3
    assert abs(y.mean() - 0.5) < 0.02


@pytest.mark.parametrize("dtype", [tl.float32, tl.float64])
def test_normal_ks_and_moments(dtype):
    x = sample(lambda: tl.randn(N, dtype=dtype))
    assert stats.kstest(x, "norm").pvalue > 1e-3
    assert abs(x.mean()) < 0.01 and abs(x.std() - 1) < 0.01
    assert abs(stats.skew(x)) < 0.03 and abs(stats.kurtosis(x)) < 0.05
    y = sample(lambda: tl.empty(N, dtype=dtype).normal_(3, 2))
    assert abs(y.mean() - 3) < 0.03 and abs(y.std() - 2) < 0.02


def test_randn_tails_and_noncontiguous():
    x = sample(lambda: tl.randn(2_000_000))
    # tail mass beyond 4 sigma: 6.3e-5
    assert 40 < np.sum(np.abs(x) > 4) < 250
    t = tl.zeros(400, 600).t()
    tl.manual_seed(2)
    t.normal_()
    v = t.numpy()
    assert abs(v.mean()) < 0.02 and abs(v.std() - 1) < 0.02
    h = tl.zeros(1000, dtype=tl.float16).normal_()
    assert h.dtype == tl.float16 and abs(h.float().numpy().std() - 1) < 0.1


def test_complex_randn():
    z = sample(lambda: tl.randn(N, dtype=tl.complex64).view(tl.float32))
    assert abs(z.var() - 0.5) < 0.01


@pytest.mark.parametrize("name,args,cdf", [
    ("exponential_", (2.0,), lambda: stats.expon(scale=0.5).cdf),
    ("cauchy_", (1.0, 2.0), lambda: stats.cauchy(loc=1.0, scale=2.0).cdf),
    ("log_normal_", (0.5, 0.3), lambda: stats.lognorm(s=0.3, scale=math.exp(0.5)).cdf),
])
@pytest.mark.parametrize("dtype", [tl.float32, tl.float64])
def test_continuous_samplers_ks(name, args, cdf, dtype):
    x = sample(lambda: getattr(tl.empty(N, dtype=dtype), name)(*args))
    assert stats.kstest(x, cdf()).pvalue > 1e-3


def chi2_ok(counts, probs):
    expected = np.asarray(probs) * counts.sum()
    return stats.chisquare(counts, expected).pvalue > 1e-3


def test_geometric_chi_square():
    x = sample(lambda: tl.empty(N).geometric_(0.3)).astype(np.int64)
    assert x.min() >= 1
    k = np.arange(1, 15)
    probs = list(0.3 * 0.7 ** (k - 1)) + [0.7 ** 14]
    counts = np.array([np.sum(x == i) for i in k] + [np.sum(x > 14)])
    assert chi2_ok(counts, probs)


@pytest.mark.parametrize("dtype", [tl.int64, tl.int8, tl.uint8, tl.float32, tl.bool])
def test_random_integer_ranges(dtype):
    tl.manual_seed(11)
    t = tl.empty(60_000, dtype=dtype)
    if dtype == tl.bool:
        v = t.random_().numpy().astype(np.int64)
        assert set(np.unique(v)) == {0, 1}
        return
    v = t.random_(-3 if dtype not in (tl.uint8,) else 0, 7).numpy().astype(np.int64)
    lo = -3 if dtype != tl.uint8 else 0
    assert v.min() == lo and v.max() == 6
    counts = np.bincount(v - lo)
    assert chi2_ok(counts, np.full(len(counts), 1 / len(counts)))
    w = tl.empty(20_000, dtype=dtype).random_(5).numpy()
    assert w.min() == 0 and w.max() == 4


def test_randint_forms():
    tl.manual_seed(0)
    a = tl.randint(10, (3, 4))
    assert a.dtype == tl.int64 and tuple(a.shape) == (3, 4)
    b = tl.randint(-5, 5, (1000,), dtype=tl.int16).numpy()
    assert b.dtype == np.int16 and b.min() >= -5 and b.max() < 5
    c = tl.randint_like(tl.zeros(2, 3), 4)
    assert c.dtype == tl.float32 and c.numpy().max() < 4
    big = tl.randint(0, 2**62, (1000,)).numpy()
    assert big.max() > 2**60


def test_randperm():
    tl.manual_seed(0)
    p = tl.randperm(1000).numpy()
    assert p.dtype == np.int64
    np.testing.assert_array_equal(np.sort(p), np.arange(1000))
    assert not np.array_equal(p, np.arange(1000))
    # position of element 0 is uniform over many draws
    pos = [int(np.argmax(tl.randperm(5).numpy() == 0)) for _ in range(2000)]
    assert chi2_ok(np.bincount(pos, minlength=5), [0.2] * 5)
    assert tl.randperm(0).numel() == 0
    assert tl.randperm(4, dtype=tl.float32).dtype == tl.float32


def test_bernoulli_forms():
    tl.manual_seed(0)
    p = tl.full((N,), 0.3)
    x = tl.bernoulli(p).numpy()
    assert x.dtype == np.float32 and set(np.unique(x)) <= {0.0, 1.0}
    assert abs(x.mean() - 0.3) < 0.01
    y = tl.bernoulli(tl.zeros(N), 0.8).numpy()
    assert abs(y.mean() - 0.8) < 0.01
    z = tl.zeros(N, dtype=tl.bool).bernoulli_(0.25).numpy()
    assert abs(z.mean() - 0.25) < 0.01
    col = tl.tensor([[0.0], [1.0]])
    w = tl.zeros(2, 1000).bernoulli_(col).numpy()
    assert w[0].sum() == 0 and w[1].sum() == 1000
    assert tl.zeros(3).bernoulli().dtype == tl.float32


def test_normal_forms():
    tl.manual_seed(0)
    m = tl.full((N,), 5.0)
    a = tl.normal(m, 2.0).numpy()
    assert abs(a.mean() - 5) < 0.03 and abs(a.std() - 2) < 0.02
    b = tl.normal(1.0, tl.full((N,), 0.5)).numpy()
    assert abs(b.mean() - 1) < 0.01 and abs(b.std() - 0.5) < 0.01
    c = tl.normal(tl.zeros(3, 1), tl.ones(1, 4))
    assert tuple(c.shape) == (3, 4)
    d = tl.normal(2.0, 3.0, size=(4, 5))
    assert tuple(d.shape) == (4, 5) and d.dtype == tl.float32
    e = tl.normal(tl.zeros(4, names=("x",)), 1.0)
    assert e.names == ("x",)


def test_multinomial():
    tl.manual_seed(0)
    probs = np.array([0.1, 0.2, 0.0, 0.7])
    s = tl.multinomial(tl.from_numpy(probs), 50_000, replacement=True).numpy()
    assert s.dtype == np.int64
    counts = np.bincount(s, minlength=4)
    assert counts[2] == 0
    assert chi2_ok(counts[[0, 1, 3]], [0.1, 0.2, 0.7])
    w = tl.multinomial(tl.from_numpy(probs), 3).numpy()
    assert sorted(w) == [0, 1, 3]
    # first draw without replacement follows the weights
    first = np.array([tl.multinomial(tl.tensor([1.0, 3.0]), 2).numpy()[0] for _ in range(3000)])
    assert chi2_ok(np.bincount(first, minlength=2), [0.25, 0.75])
    rows = tl.multinomial(tl.tensor([[1.0, 0.0], [0.0, 1.0]]), 4, True).numpy()
    np.testing.assert_array_equal(rows, [[0] * 4, [1] * 4])


def test_shapes_dtypes_names_like():
    x = tl.rand(2, 3, names=("a", "b"))
    assert x.names == ("a", "b")
    assert tuple(tl.randn((4, 5)).shape) == (4, 5)
    assert tl.rand(2, dtype=tl.float64).dtype == tl.float64
    assert tl.rand(3, dtype=tl.bfloat16).dtype == tl.bfloat16
    assert tl.rand_like(tl.zeros(2, 2, dtype=tl.float64)).dtype == tl.float64
    assert tuple(tl.randn_like(tl.zeros(3, 1)).shape) == (3, 1)
    assert tl.rand(0).numel() == 0


def _err(fn_t, fn_l):
    with pytest.raises(Exception) as et:
        fn_t()
    with pytest.raises(type(et.value)) as el:
        fn_l()
    assert str(el.value) == str(et.value)


@pytest.mark.parametrize("expr", [
    "rand(3, dtype=lib.int64)", "randn(3, dtype=lib.int64)", "empty(3).normal_(0, -1)", "empty(3).uniform_(2, 1)",
    "empty(3).exponential_(-1)", "empty(3).geometric_(0)", "empty(3).geometric_(1.5)", "empty(3).cauchy_(0, -1)",
    "empty(3).log_normal_(0, -1)", "empty(3).bernoulli_(1.5)", "bernoulli(lib.tensor([0.5, 1.5]))",
    "bernoulli(lib.tensor([1, 0]))", "normal(lib.zeros(3), lib.tensor([1., -1, 1]))", "normal(0., -1., (3,))",
    "randint(5, 3, (3,))", "empty(3, dtype=lib.int8).random_(0, 300)", "empty(3, dtype=lib.int8).random_(5, 2)",
    "multinomial(lib.tensor([0.5, -1.]), 1)", "multinomial(lib.tensor([0., 0.]), 1)",
    "multinomial(lib.tensor([0.5, 0.5]), 3)", "multinomial(lib.tensor([1, 2]), 1)", "multinomial(lib.ones(2, 2, 2), 1)",
    "multinomial(lib.tensor([0.5, 0.5]), 0)", "empty(3, dtype=lib.int64).exponential_()",
    "empty(3, dtype=lib.bool).uniform_()",
])
def test_errors_match_torch(expr):
    _err(lambda: eval(expr, {"lib": torch, **{k: getattr(torch, k) for k in dir(torch) if not k.startswith("_")}}),
         lambda: eval(expr, {"lib": tl, **{k: getattr(tl, k) for k in dir(tl) if not k.startswith("_")}}))


def test_errors_leave_input_untouched():
    t = tl.zeros(5)
    with pytest.raises(RuntimeError):
        t.normal_(0, -1)
    np.testing.assert_array_equal(t.numpy(), np.zeros(5))


@pytest.mark.parametrize("call", [
    "rand(3, out=LIB.empty(3, dtype=LIB.float64))",
    "randn(2, out=LIB.empty(2, dtype=LIB.float16))",
    "randint(5, (3,), out=LIB.empty(3, dtype=LIB.int32))",
    "randperm(4, out=LIB.empty(4, dtype=LIB.int32))",
    "normal(0., 1., (2,), out=LIB.empty(2, dtype=LIB.float64))",
    "rand(2, 2, out=LIB.empty(3))",
    "rand(2, dtype=LIB.float32, out=LIB.empty(2, dtype=LIB.float64))",
    "rand(2, device='meta', out=LIB.empty(2))",
])
def test_samplers_take_out_dtype_and_device_like_torch(call):
    """With out=, the sample has out's dtype and device (torch samples into out); a given
    dtype or device type that differs raises torch's error."""
    torch = pytest.importorskip("torch")
    got = []
    for lib in (tl, torch):
        lib.manual_seed(0)
        try:
            r = eval("lib." + call.replace("LIB", "lib"))
            got.append((str(r.dtype).split(".")[-1], tuple(r.shape), r.tolist()))
        except RuntimeError as e:
            got.append(("RuntimeError", str(e)))
    assert got[0] == got[1]
