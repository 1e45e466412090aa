"""The random grid on "cuda" tensors of the host-memory stand-in backend (tests/_fake_cuda.py):
every sampler goes through the core's device path (generator choice and device check,
validation, the counter reservation, the geometry) and the backend's random entry, whose
stand-in is the core's host runner of the per-block function of kernels/hd_random.h that the
CUDA kernel runs. Each result is compared with the CPU's Generator(kind="philox") seeded the
same (bitwise), and the two generators' states after each call (the counters advance alike).
Run as a script in a subprocess (the registration lasts for the process):
`python _fake_cuda_random.py`; prints failures, then `failures N` and `ok N` (N checks). With
TL_EW_REAL=1 the grid runs on a real CUDA device (tests/test_cuda_random.py), the float64
transcendental samplers compared within a few ulps (libdevice's log/sin/cos/exp/tan)."""
import math
import sys

import numpy as np

import _fake_cuda  # noqa: E402 (tests/ on the path)
from _grid import report  # noqa: E402

REAL, LOG = _fake_cuda.for_grid()
import tensorlib as tl  # noqa: E402

FAIL = []
COUNT = [0]
FLOATS = ["float16", "bfloat16", "float32", "float64"]
INTS = ["bool", "uint8", "int8", "int16", "int32", "int64"]
SHAPES = [(), (0,), (0, 3), (1,), (7,), (1000,), (3, 5, 4), (2, 1, 9)]


def check(ok, *what):
    COUNT[0] += 1
    if not ok:
        FAIL.append(" ".join(str(w) for w in what))


def pair(seed):
    """A CPU Philox generator and a CUDA generator, both seeded `seed`."""
    g = tl.Generator(kind="philox")
    g.manual_seed(seed)
    h = tl.Generator(device="cuda")
    h.manual_seed(seed)
    return g, h


def host(x):
    """Values as float64/complex128 numpy (exact for every sampled dtype) or int64."""
    x = x.cpu()
    if x.dtype.is_complex:
        return x.to(tl.complex128).numpy()
    if x.dtype.is_floating_point:
        return x.to(tl.float64).numpy()
    return x.to(tl.int64).numpy()


def same(a, b, what, tol=0.0):
    """Bitwise equal (tol 0), or within a relative tolerance (real device, libdevice math)."""
    check(tuple(a.shape) == tuple(b.shape) and a.dtype == b.dtype and a.device.type == "cpu"
          and b.device.type == "cuda", what, "shape/dtype/device", a.shape, b.shape, a.dtype, b.dtype, b.device)
    x, y = host(a), host(b)
    if x.shape != y.shape:
        return
    if tol == 0.0:
        ok = np.array_equal(x, y) and np.array_equal(np.signbit(x.real), np.signbit(y.real)) if x.dtype.kind != "i" \
            else np.array_equal(x, y)
    else:
        ok = np.allclose(x, y, rtol=tol, atol=0.0, equal_nan=True)
    check(ok, what, "values differ", x.ravel()[:6], y.ravel()[:6])


def states(g, h, what):
    check(tl.equal(g.get_state(), h.get_state()), what, "generator states differ after the call")


TRANSCENDENTAL = {"normal64", "exponential_", "cauchy_", "log_normal_", "geometric_"}


def tol_for(kind, dt):
    if not REAL:
        return 0.0
    if kind in TRANSCENDENTAL and dt in ("float64", "complex128"):
        return 1e-12
    if kind in TRANSCENDENTAL:  # float64 values rounded to a narrower dtype: an ulp of it at most
        return {"float32": 2e-7, "float16": 1e-3, "bfloat16": 8e-3}.get(dt, 0.0)
    return 0.0


def run(make, what, kind="", dt="", seed=5, copies=False):
    """make(generator, device) -> tensor; CPU philox vs CUDA, then one more call each (in step).
    copies: make moves parameters to the device (and normal reads std back to check it)."""
    g, h = pair(seed)
    try:
        a = make(g, "cpu")
    except Exception as e:  # the CUDA call must raise the same
        try:
            make(h, "cuda")
            check(False, what, "CPU raised", repr(e), "CUDA did not")
        except Exception as f:
            check(type(e) is type(f) and str(e) == str(f), what, "errors differ", repr(e), repr(f))
        return
    n = len(LOG)
    b = make(h, "cuda")
    log = LOG[n:]
    same(a, b, what, tol_for(kind, dt))
    states(g, h, what)
    if not REAL:
        check(len([e for e in log if e[0] == "random"]) == (1 if a.numel() else 0), what, "random entry calls", log)
        check(not any(e[0] == "elementwise" or (e[0] == "copy" and not copies) for e in log), what,
              "host copies or element-wise calls", log)
    same(make(g, "cpu"), make(h, "cuda"), what + " (2nd call)", tol_for(kind, dt))


def factories():
    for dt in FLOATS + ["complex64", "complex128"]:
        d = getattr(tl, dt)
        for sh in SHAPES:
            run(lambda g, dev: tl.rand(sh, dtype=d, device=dev, generator=g), f"rand {dt} {sh}", "u", dt)
            k = "normal64" if dt in ("float64", "complex128") else "normal"
            run(lambda g, dev: tl.randn(sh, dtype=d, device=dev, generator=g), f"randn {dt} {sh}", k, dt)
        if not dt.startswith("complex"):
            run(lambda g, dev: tl.normal(2.0, 3.0, (33,), dtype=d, device=dev, generator=g), f"normal {dt}",
                "normal64" if dt == "float64" else "normal", dt)
            run(lambda g, dev: tl.rand_like(tl.empty(4, 5, dtype=d, device=dev), generator=g), f"rand_like {dt}",
                "u", dt)
            run(lambda g, dev: tl.randn_like(tl.empty(4, 5, dtype=d, device=dev), generator=g), f"randn_like {dt}",
                "normal64" if dt == "float64" else "normal", dt)
    for dt in INTS + FLOATS:
        d = getattr(tl, dt)
        lo, hi = (0, 2) if dt == "bool" else (0, 200) if dt == "uint8" else (-50, 70)
        for sh in SHAPES:
            run(lambda g, dev: tl.randint(lo, hi, sh, dtype=d, device=dev, generator=g), f"randint {dt} {sh}")
        run(lambda g, dev: tl.randint_like(tl.empty(3, 4, dtype=d, device=dev), hi, generator=g), f"randint_like {dt}")
    run(lambda g, dev: tl.randint(-(1 << 62), 1 << 62, (500,), device=dev, generator=g), "randint wide range")
    run(lambda g, dev: tl.randint(3, (40,), device=dev, generator=g), "randint(high, size)")
    run(lambda g, dev: tl.normal(2.0, 3.0, (33,), device=dev, generator=g), "normal(number, number, size)",
        "normal")
    # the documented promise: the same numbers on both devices
    run(lambda g, dev: tl.rand(1000, device=dev, generator=g), "rand(1000) seed 5")


def layouts(dev, dt, case):
    """A fresh tensor of dtype dt on dev, in one of several layouts (non-contiguous ones too)."""
    d = getattr(tl, dt)
    if case == "contig":
        return tl.empty(6, 7, dtype=d, device=dev)
    if case == "t":
        return tl.empty(7, 6, dtype=d, device=dev).t()
    if case == "step":
        return tl.empty(30, dtype=d, device=dev)[1::3]
    if case == "permute":
        return tl.empty(2, 3, 4, dtype=d, device=dev).permute(2, 0, 1)
    if case == "narrow":
        return tl.empty(5, 8, dtype=d, device=dev)[1:4, 2:7]
    if case == "0d":
        return tl.empty((), dtype=d, device=dev)
    return tl.empty(0, 4, dtype=d, device=dev).t()


CASES = ["contig", "t", "step", "permute", "narrow", "0d", "empty"]


def inplace():
    samplers = [
        ("uniform_", "u", lambda x, g: x.uniform_(generator=g)),
        ("uniform_(-3, 5)", "u", lambda x, g: x.uniform_(-3, 5, generator=g)),
        ("normal_(2, 3)", "normal", lambda x, g: x.normal_(2, 3, generator=g)),
        ("exponential_", "exponential_", lambda x, g: x.exponential_(1.5, generator=g)),
        ("cauchy_", "cauchy_", lambda x, g: x.cauchy_(1.0, 2.0, generator=g)),
        ("log_normal_", "log_normal_", lambda x, g: x.log_normal_(0.5, 0.7, generator=g)),
        ("geometric_", "geometric_", lambda x, g: x.geometric_(0.3, generator=g)),
        ("bernoulli_", "b", lambda x, g: x.bernoulli_(0.3, generator=g)),
        ("random_", "i", lambda x, g: x.random_(generator=g)),
        ("random_(10)", "i", lambda x, g: x.random_(10, generator=g)),
        ("random_(-4, 9)", "i", lambda x, g: x.random_(-4, 9, generator=g) if x.dtype not in (tl.bool, tl.uint8)
         else x.random_(0, 2, generator=g)),
    ]
    for name, kind, f in samplers:
        dts = FLOATS + (["complex64", "complex128"] if name.startswith(("uniform", "normal")) else [])
        if kind in ("b", "i", "geometric_"):
            dts = dts + INTS
        for dt in dts:
            k = "normal64" if kind == "normal" and dt in ("float64", "complex128") else kind
            for case in CASES:
                run(lambda g, dev: f(layouts(dev, dt, case), g), f"{name} {dt} {case}", k, dt)
    # bernoulli(input, p=number) goes through bernoulli_ with a scalar p
    run(lambda g, dev: tl.bernoulli(tl.empty(50, device=dev), 0.25, generator=g), "bernoulli(x, p)")


def params():
    """bernoulli with a tensor p and normal with tensor mean/std: parameters read on the device,
    values of the CPU's Philox path (float64 draws, then p / mean + std * z per element)."""
    def on(x, dev):
        return x.to(dev) if isinstance(x, tl.Tensor) else x
    for dt in FLOATS:
        d = getattr(tl, dt)
        p2 = tl.linspace(0, 1, 20).reshape(4, 5).to(d)
        for what, p in (("4x5", p2), ("transposed", p2.t()), ("0-d", tl.tensor(0.4, dtype=d)),
                        ("empty", tl.empty(0, 3, dtype=d)), ("row", tl.linspace(0, 1, 5).to(d))):
            run(lambda g, dev: tl.bernoulli(on(p, dev), generator=g), f"bernoulli(p) {dt} {what}", copies=True)
        for odt in ["float32", "float64", "float16", "bool", "int64", "uint8", "complex64"]:
            run(lambda g, dev: tl.empty(4, 5, dtype=getattr(tl, odt), device=dev).bernoulli_(on(p2, dev), generator=g),
                f"bernoulli_(p {dt}) into {odt}", copies=True)
            run(lambda g, dev: tl.empty(5, 4, dtype=getattr(tl, odt), device=dev).t().bernoulli_(
                on(tl.linspace(0, 1, 5).to(d), dev), generator=g), f"bernoulli_(row p {dt}) into transposed {odt}",
                copies=True)
        m = (tl.arange(12.).reshape(3, 4) - 5).to(d)
        sd = (tl.arange(4.) / 2 + 0.25).to(d)
        cases = (("t,t", m, sd), ("t,n", m, 2.0), ("n,t", 1.5, sd), ("t.T,t", m.t(), (tl.arange(3.) + 1).to(d)),
                 ("0-d,t", tl.tensor(3.0, dtype=d), sd), ("empty", tl.empty(0, 4, dtype=d), sd),
                 ("t,0-d", m, tl.tensor(0.5, dtype=d)), ("t,zero std", m, tl.zeros(4, dtype=d)))
        for what, mm, ss in cases:
            run(lambda g, dev: tl.normal(on(mm, dev), on(ss, dev), generator=g), f"normal({what}) {dt}", "normal64", dt,
                copies=True)
    # errors: as the CPU's, and the devices must agree
    g, h = pair(4)
    for what, f in (("negative std", lambda g, d: tl.normal(tl.zeros(3, device=d), -tl.ones(3, device=d), generator=g)),
                    ("shapes", lambda g, d: tl.normal(tl.zeros(2, 3, device=d), tl.ones(2, device=d), generator=g)),
                    ("p shape", lambda g, d: tl.empty(3, device=d).bernoulli_(tl.rand(4, device=d), generator=g)),
                    ("int p", lambda g, d: tl.empty(3, device=d).bernoulli_(tl.ones(3, dtype=tl.int64, device=d),
                                                                             generator=g)),
                    ("int mean", lambda g, d: tl.normal(tl.ones(3, dtype=tl.int64, device=d), 1.0, generator=g))):
        try:
            f(g, "cpu")
            check(False, what, "CPU did not raise")
            continue
        except Exception as e:
            ce = e
        st = h.get_state()
        try:
            f(h, "cuda")
            check(False, what, "CUDA did not raise")
        except Exception as e:
            check(type(e) is type(ce) and str(e) == str(ce), what, repr(ce), repr(e))
        check(tl.equal(st, h.get_state()), what, "a refused call consumed counters")
    for what, f in (("mean cuda, std cpu", lambda: tl.normal(tl.zeros(3, device="cuda"), tl.ones(3), generator=h)),
                    ("p on the CPU", lambda: tl.empty(3, device="cuda").bernoulli_(tl.rand(3), generator=h))):
        try:
            f()
            check(False, what, "did not raise")
        except RuntimeError as e:
            check("device" in str(e), what, repr(e))


def sequence():
    """A run of mixed calls keeps the two generators in step (same counters consumed)."""
    g, h = pair(11)
    calls = [lambda g, d: tl.rand(5, device=d, generator=g), lambda g, d: tl.randn(7, dtype=tl.float64, device=d, generator=g),
             lambda g, d: tl.randint(0, 9, (3, 3), device=d, generator=g),
             lambda g, d: tl.empty(9, dtype=tl.float16, device=d).exponential_(generator=g),
             lambda g, d: tl.randn(3, dtype=tl.complex64, device=d, generator=g),
             lambda g, d: tl.empty(4, 4, device=d).t().uniform_(generator=g)]
    for i in range(3):
        for j, f in enumerate(calls):
            same(f(g, "cpu"), f(h, "cuda"), f"sequence {i} {j}", tol_for("normal64" if j == 1 else "exponential_" if j == 3 else "", "float64" if j == 1 else "float16"))
            states(g, h, f"sequence {i} {j}")


def default_generators():
    """tl.cuda.manual_seed / tl.manual_seed / the default generator of the device."""
    g = tl.Generator(kind="philox")
    for seed_fn in (tl.cuda.manual_seed, tl.cuda.manual_seed_all, tl.manual_seed):
        seed_fn(21)
        g.manual_seed(21)
        same(tl.rand(100, generator=g), tl.rand(100, device="cuda"), f"default generator after {seed_fn.__name__}")
        same(tl.randn(10, dtype=tl.float64, generator=g), tl.randn(10, dtype=tl.float64, device="cuda"),
             f"default generator after {seed_fn.__name__} (2nd)", tol_for("normal64", "float64"))
        check(tl.cuda.initial_seed() == 21, "initial_seed", tl.cuda.initial_seed())
    # state round trip, and a CPU philox state carried to the device generator
    st = tl.cuda.get_rng_state()
    check(st.dtype == tl.uint8 and st.device.type == "cpu", "get_rng_state dtype/device")
    a = tl.rand(64, device="cuda")
    tl.cuda.set_rng_state(st)
    same(a.cpu(), tl.rand(64, device="cuda"), "set_rng_state replays")
    g.manual_seed(99)
    tl.rand(17, generator=g)
    tl.cuda.set_rng_state(g.get_state())
    same(tl.rand(50, generator=g), tl.rand(50, device="cuda"), "CPU philox state on the device generator")
    check(tl.equal(tl.cuda.get_rng_state(), g.get_state()), "states after CPU state transfer")
    check(len(tl.cuda.get_rng_state_all()) == tl.cuda.device_count(), "get_rng_state_all")
    check(tl.cuda.default_generators[0].device == tl.device("cuda", 0) if tl.cuda.device_count() else True,
          "default_generators")
    before = tl.cuda.get_rng_state()
    tl.cuda.seed()
    check(not tl.equal(before, tl.cuda.get_rng_state()), "cuda.seed changes the state")
    s = tl.cuda.initial_seed()
    x = tl.rand(8, device="cuda")
    g.manual_seed(s)
    same(tl.rand(8, generator=g), x, "cuda.seed: initial_seed reproduces")
    tl.cuda.seed_all()
    gen = tl.Generator(device="cuda")
    check(gen.device == tl.device("cuda", 0) and gen.kind == "philox" and gen.initial_seed() == 67280421310721,
          "Generator(device='cuda')", gen.device, gen.kind, gen.initial_seed())


def errors():
    """Errors as the CPU's (the same core checks) and torch's device check."""
    g, h = pair(1)
    cases = [
        ("uniform_ from > to", lambda g, d: tl.empty(3, device=d).uniform_(2, 1, generator=g)),
        ("normal_ std < 0", lambda g, d: tl.empty(3, device=d).normal_(0, -1, generator=g)),
        ("bernoulli_ p > 1", lambda g, d: tl.empty(3, device=d).bernoulli_(1.5, generator=g)),
        ("exponential_ lambda <= 0", lambda g, d: tl.empty(3, device=d).exponential_(0, generator=g)),
        ("geometric_ p", lambda g, d: tl.empty(3, device=d).geometric_(1.0, generator=g)),
        ("cauchy_ sigma", lambda g, d: tl.empty(3, device=d).cauchy_(0, 0, generator=g)),
        ("log_normal_ std", lambda g, d: tl.empty(3, device=d).log_normal_(0, 0, generator=g)),
        ("random_ from >= to", lambda g, d: tl.empty(3, dtype=tl.int64, device=d).random_(5, 5, generator=g)),
        ("random_ int8 bound", lambda g, d: tl.empty(3, dtype=tl.int8, device=d).random_(0, 1000, generator=g)),
        ("randint high <= low", lambda g, d: tl.randint(5, 2, (3,), device=d, generator=g)),
        ("uniform_ on int64", lambda g, d: tl.empty(3, dtype=tl.int64, device=d).uniform_(generator=g)),
        ("normal_ on int32", lambda g, d: tl.empty(3, dtype=tl.int32, device=d).normal_(generator=g)),
        ("exponential_ on int64", lambda g, d: tl.empty(3, dtype=tl.int64, device=d).exponential_(generator=g)),
        ("random_ on complex", lambda g, d: tl.empty(3, dtype=tl.complex64, device=d).random_(generator=g)),
        ("bernoulli_ on complex", lambda g, d: tl.empty(3, dtype=tl.complex64, device=d).bernoulli_(0.5, generator=g)),
    ]
    for what, f in cases:
        try:
            f(g, "cpu")
            check(False, what, "CPU did not raise")
            continue
        except Exception as e:
            ce = e
        st = h.get_state()
        try:
            f(h, "cuda")
            check(False, what, "CUDA did not raise")
        except Exception as e:
            check(type(e) is type(ce) and str(e) == str(ce), what, repr(ce), repr(e))
        check(tl.equal(st, h.get_state()), what, "a refused call consumed counters")

    def raises(exc, text, f, what):
        try:
            f()
            check(False, what, "did not raise")
        except exc as e:
            check(text in str(e), what, repr(e))
    cpu_g, cuda_g = pair(3)
    raises(RuntimeError, "Expected a 'cuda' device type for generator but found 'cpu'",
           lambda: tl.rand(3, device="cuda", generator=cpu_g), "CPU generator for a CUDA tensor")
    raises(RuntimeError, "Expected a 'cuda' device type for generator but found 'cpu'",
           lambda: tl.randint(0, 3, (3,), device="cuda", generator=tl.Generator()), "MT19937 generator for CUDA")
    raises(RuntimeError, "Expected a 'cpu' device type for generator but found 'cuda'",
           lambda: tl.rand(3, generator=cuda_g), "CUDA generator for a CPU tensor")
    raises(RuntimeError, "Expected a 'cpu' device type for generator but found 'cuda'",
           lambda: tl.randperm(3, generator=cuda_g), "CUDA generator for randperm on the CPU")
    raises(ValueError, "'philox' for a cuda generator", lambda: tl.Generator(device="cuda", kind="mt19937"),
           "Generator(device='cuda', kind='mt19937')")
    mt = tl.Generator()
    raises(RuntimeError, "Expected a Philox generator state", lambda: tl.cuda.set_rng_state(mt.get_state()),
           "MT19937 state into a CUDA generator")
    # randperm on the device: random keys sorted there (a permutation, reproducible from the seed,
    # in the asked dtype, into out=; n beyond the dtype refused as on the CPU)
    for n, dt in ((1, tl.int64), (17, tl.int64), (100, tl.int32), (50, tl.float32), (0, tl.int64)):
        tl.cuda.manual_seed(11)
        p = tl.randperm(n, device="cuda", dtype=dt)
        tl.cuda.manual_seed(11)
        o = tl.empty(n, dtype=dt, device="cuda")
        q = tl.randperm(n, out=o)
        check(p.is_cuda and p.dtype == dt and sorted(p.cpu().tolist()) == list(range(n)) and q is o
              and tl.equal(p.cpu(), o.cpu()), "randperm on CUDA", n, dt)
    raises(RuntimeError, "n must be less than or equal to 128 for int8",
           lambda: tl.randperm(300, device="cuda", dtype=tl.int8), "randperm int8 too long")
    # complex32 and the other dtypes the backend lacks
    for dt in ("uint16", "uint32", "uint64"):
        if hasattr(tl, dt):
            raises(NotImplementedError, "", lambda: tl.empty(3, dtype=getattr(tl, dt), device="cuda").random_(0, 5),
                   f"random_ {dt}")


def geometry():
    """What the core hands the backend: dims merged, size-1 dropped, counters from the generator."""
    if REAL:
        return
    g, h = pair(2)
    n = len(LOG)
    tl.rand(3, 4, 5, device="cuda", generator=h)
    e = LOG[n]
    check(e[0] == "random" and e[4] == 1 and e[5] == 60 and e[6] == 0, "contiguous 3-d is one dim", e)
    x = tl.empty(4, 6, device="cuda").t()
    n = len(LOG)
    x.uniform_(generator=h)
    check(LOG[n][4] == 2 and LOG[n][6] == 15, "transposed keeps two dims, counter after 60/4 blocks", LOG[n])
    n = len(LOG)
    tl.empty((), dtype=tl.float64, device="cuda").normal_(generator=h)
    check(LOG[n][4] == 0 and LOG[n][2] == 1, "0-d float64 normal: ndim 0, F64 mode", LOG[n])
    n = len(LOG)
    tl.empty(0, device="cuda").uniform_(generator=h)
    check(len(LOG) == n, "empty: no call", LOG[n:])


def counting():
    """poisson and binomial of CUDA tensors: sampled on the host with the device's (Philox)
    generator, so a CPU Philox generator of the same seed gives the same numbers and ends in the
    same state; the result is on the device, in the rates' (count's) dtype."""
    rates = np.concatenate([np.linspace(0, 30, 31), [0.5, 9.99, 10.0, 100.0, 1e4]])
    for dt in FLOATS:
        for shape in [(36,), (6, 6)]:
            g, h = pair(11)
            r = tl.tensor(rates.reshape(shape)).to(getattr(tl, dt))
            a = tl.poisson(r, g)
            b = tl.poisson(r.cuda(), generator=h)
            same(a, b, f"poisson {dt} {shape}")
            states(g, h, f"poisson {dt}")
    count = np.array([0, 1, 5, 20, 50, 100, 1000, 7.0])
    prob = np.array([0.5, 0.3, 0.9, 0.99, 0.01, 0.7, 0.45, 0.2])
    for dt in ("float32", "float64"):
        g, h = pair(12)
        c, p = tl.tensor(count).to(getattr(tl, dt)), tl.tensor(prob).to(getattr(tl, dt))
        a = tl.binomial(c.reshape(8, 1), p, g)
        b = tl.binomial(c.reshape(8, 1).cuda(), p.cuda(), generator=h)
        same(a, b, f"binomial {dt}")
        states(g, h, f"binomial {dt}")
    g, h = pair(13)
    for call, what in ((lambda: tl.binomial(tl.ones(2, device="cuda"), tl.ones(2)), "binomial device mix"),
                       (lambda: tl.poisson(tl.ones(2, device="cuda"), g), "poisson with a CPU generator")):
        try:
            call()
            check(False, what, "no error")
        except RuntimeError:
            check(True)


SECTIONS = {"factories": factories, "inplace": inplace, "params": params, "sequence": sequence, "default": default_generators,
            "errors": errors, "geometry": geometry, "counting": counting}

if __name__ == "__main__":
    for name in (sys.argv[1:] or list(SECTIONS)):
        SECTIONS[name]()
    report(FAIL, COUNT[0])
