"""Elementwise benchmark rows (issue #3): tensorlib vs NumPy vs torch, same thread count.

Each row is ``(name, {"tensorlib": fn, "numpy": fn, "torch": fn})``; when
benchmarks/harness.py exists its ``bench`` runs them, otherwise this file times them
itself (best of several repeats) and prints times and ratios. Run:
``python benchmarks/bench_elementwise.py [--quick]``.
"""
import sys
import timeit

import numpy as np

import tensorlib as tl

try:
    import torch
except ImportError:  # pragma: no cover
    torch = None


def _data(n, dtype="float32", shape=None):
    shape = shape or (n,)
    a = np.random.default_rng(0).standard_normal(shape).astype(dtype)
    return a


def rows(quick=False):
    """The benchmark rows: (name, {library: callable})."""
    big = 10**6 if quick else 10**7
    out = []

    def triple(name, make):
        fns = {}
        for lib in ("tensorlib", "numpy", "torch"):
            if lib == "torch" and torch is None:
                continue
            fns[lib] = make(lib)
        out.append((name, fns))

    def conv(lib, a):
        if lib == "numpy":
            return a
        if lib == "torch":
            return torch.from_numpy(np.ascontiguousarray(a)) if a.flags.c_contiguous or a.ndim < 2 \
                else torch.from_numpy(a.T.copy()).T
        return tl.tensor(np.ascontiguousarray(a)) if a.flags.c_contiguous or a.ndim < 2 else tl.tensor(a.T.copy()).t()

    for n in (10**3, 10**6, big):
        a, b = _data(n), _data(n)

        def mk(lib, a=a, b=b):
            x, y = conv(lib, a), conv(lib, b)
            return lambda: x + y
        triple("add f32 %.0e" % n, mk)
    side = int(big ** 0.5)
    m, row, col = _data(0, shape=(side, side)), _data(0, shape=(side,)), _data(0, shape=(side, 1))
    triple("add broadcast row %dx%d" % (side, side), lambda lib: (lambda x, y: lambda: x + y)(conv(lib, m), conv(lib, row)))
    triple("add broadcast col %dx%d" % (side, side), lambda lib: (lambda x, y: lambda: x + y)(conv(lib, m), conv(lib, col)))
    mt = np.asfortranarray(m)
    triple("add transposed %dx%d" % (side, side), lambda lib: (lambda x, y: lambda: x + y)(conv(lib, m), conv(lib, mt)))
    ai, bf = _data(big).astype(np.int32), _data(big)
    triple("int32+f32 %.0e" % big, lambda lib: (lambda x, y: lambda: x + y)(conv(lib, ai), conv(lib, bf)))
    triple("mul by scalar f32 %.0e" % big, lambda lib: (lambda x: lambda: x * 2.5)(conv(lib, bf)))
    for fname in ("exp", "sin", "tanh"):
        def mk(lib, fname=fname):
            x = conv(lib, bf)
            f = getattr({"numpy": np, "torch": torch, "tensorlib": tl}[lib], fname)
            return lambda: f(x)
        triple("%s f32 %.0e" % (fname, big), mk)
    # Vectorized transcendental kernels (csrc/kernels/vmath.c): every op in float32 and
    # float64 at 1e6 elements; log/log1p get positive inputs, sigmoid's NumPy row is 1/(1+exp(-x)).
    pos32 = np.abs(_data(10**6)) + np.float32(0.01)
    std32 = _data(10**6)

    def np_sigmoid(x):
        return 1 / (1 + np.exp(-x))
    for dt in ("float32", "float64"):
        for fname in ("exp", "expm1", "log", "log1p", "sin", "cos", "tanh", "sigmoid"):
            src = (pos32 if fname in ("log", "log1p") else std32).astype(dt)

            def mk(lib, fname=fname, src=src):
                x = conv(lib, src)
                if lib == "numpy":
                    f = np_sigmoid if fname == "sigmoid" else getattr(np, fname)
                else:
                    f = getattr({"torch": torch, "tensorlib": tl}[lib], fname)
                return lambda: f(x)
            triple("%s %s 1e6" % (fname, "f32" if dt == "float32" else "f64"), mk)

    def mk_where(lib):
        x, y = conv(lib, bf), conv(lib, ai.astype(np.float32))
        c = x > 0
        w = {"numpy": np.where, "torch": torch.where if torch else None, "tensorlib": tl.where}[lib]
        return lambda: w(c, x, y)
    triple("where f32 %.0e" % big, mk_where)
    triple("lt f32 %.0e" % big, lambda lib: (lambda x, y: lambda: x < y)(conv(lib, bf), conv(lib, _data(big))))
    triple("eq scalar f32 %.0e" % big, lambda lib: (lambda x: lambda: x == 0.5)(conv(lib, bf)))
    s1, s2 = _data(10), _data(10)
    triple("a+b 10 elems (overhead)", lambda lib: (lambda x, y: lambda: x + y)(conv(lib, s1), conv(lib, s2)))
    return out


def _time(fn, n_min=0.2):
    fn()
    number, t = 1, 0.0
    while True:
        t = timeit.timeit(fn, number=number)
        if t >= n_min / 5:
            break
        number *= 4
    return min(timeit.repeat(fn, number=number, repeat=5)) / number


def main():
    quick = "--quick" in sys.argv
    if torch is not None:
        torch.set_num_threads(tl.get_num_threads())
    a = np.ones(big_copy := (32 * 2**20 // 4), dtype=np.float32)
    b = np.empty_like(a)
    t = _time(lambda: np.copyto(b, a))
    print("threads=%d  memcpy bandwidth (read+write) %.1f GB/s" % (tl.get_num_threads(), 2 * big_copy * 4 / t / 1e9))
    print("%-28s %12s %12s %12s %10s %10s" % ("row", "tensorlib", "numpy", "torch", "tl/np", "tl/torch"))
    for name, fns in rows(quick):
        ts = {k: _time(f) for k, f in fns.items()}
        tt, tn, tp = ts.get("tensorlib"), ts.get("numpy"), ts.get("torch")
        fmt = lambda v: "%10.2fus" % (v * 1e6) if v is not None else "%12s" % "-"  # noqa: E731
        print("%-28s %s %s %s %10.2f %10.2f" % (name, fmt(tt), fmt(tn), fmt(tp), tt / tn, tt / tp if tp else float("nan")))


if __name__ == "__main__":
    main()
