"""diff, trapezoid/trapz/cumulative_trapezoid, bincount, histogram, cov, corrcoef,
quantile/nanquantile, dist and cosine_similarity (tensorlib/_stats.py: compositions of tensorlib's
ops) on "cuda" tensors of the host-memory stand-in backend (tests/_fake_cuda.py): each result must
equal the CPU's result of the same call bit for bit (values, dtype, shape) and stay on the device,
and a call the CPU refuses must be refused on the device with the same exception and message.
Run as a script: `python _fake_cuda_stats.py`; prints failures, then `failures N` and `ok N`."""

import _fake_cuda_index as fi  # noqa: E402 (installs the stand-in; its check() compares CPU and device)
from _grid import report  # noqa: E402

import tensorlib as tl  # noqa: E402

check, make = fi.check, fi.make


def near(what, f, *args):
    """As check, for the calls made of a matrix product or a norm: the device's products and
    reductions sum in another order than the CPU's, so values agree within rounding."""
    rc, ec = fi.outcome(lambda: f(*args))
    rg, eg = fi.outcome(lambda: f(*[a.cuda() for a in args]))
    fi.COUNT[0] += 1
    if ec is not None or eg is not None:
        if type(ec) is not type(eg) or str(ec) != str(eg):
            fi.FAIL.append(f"{what}: CPU {ec!r} vs device {eg!r}")
    elif not (rg.is_cuda and fi.close(rc, rg)):
        fi.FAIL.append(f"{what}: device {rg.cpu()} vs CPU {rc}")


for dt in ("float32", "float64", "int64", "int32", "bool", "float16"):
    x = make(dt, (4, 6), 1)
    for n in (0, 1, 2):
        check(f"{dt} diff n={n}", lambda x: tl.diff(x, n), x)
        check(f"{dt} diff dim 0 T n={n}", lambda x: tl.diff(x.t(), n, 0), x)
    check(f"{dt} diff prepend", lambda x, p: tl.diff(x, prepend=p), x, make(dt, (4, 1), 2))
    for op in ("trapezoid", "trapz", "cumulative_trapezoid"):
        check(f"{dt} {op}", lambda x: getattr(tl, op)(x), x)
        check(f"{dt} {op} dx", lambda x: getattr(tl, op)(x, dx=0.5, dim=0), x)
        check(f"{dt} {op} x", lambda x, s: getattr(tl, op)(x, s), x, make("float32", (6,), 3))
    near(f"{dt} cov", lambda x: tl.cov(x), x)
    near(f"{dt} corrcoef", lambda x: tl.corrcoef(x), x)
    near(f"{dt} cov fweights", lambda x, w: tl.cov(x, fweights=w), x, make("int64", (6,), 4).abs())
for dt in ("int64", "int32", "uint8"):
    x = make(dt, (20,), 5).abs()
    check(f"{dt} bincount", lambda x: tl.bincount(x), x)
    check(f"{dt} bincount w", lambda x, w: tl.bincount(x, w, minlength=30), x, make("float32", (20,), 6))
    check(f"{dt} bincount neg", lambda x: tl.bincount(x), make(dt, (20,), 5) if dt != "uint8" else x.float())
for dt in ("float32", "float64"):
    x = make(dt, (5, 7), 7)
    check(f"{dt} histogram", lambda x: tl.histogram(x, 5), x)
    check(f"{dt} histogram w density", lambda x, w: tl.histogram(x, 4, weight=w, density=True), x, make(dt, (5, 7), 8).abs())
    check(f"{dt} histogram edges", lambda x, e: tl.histogram(x, e), x, tl.tensor([-4., 0., 1., 6.]).to(x.dtype))
    for interp in ("linear", "lower", "higher", "midpoint", "nearest"):
        for op in ("quantile", "nanquantile"):
            check(f"{dt} {op} {interp}", lambda x: getattr(tl, op)(x, 0.3, 1, interpolation=interp), x)
            check(f"{dt} {op} {interp} q", lambda x, q: getattr(tl, op)(x, q, interpolation=interp), x,
                  tl.tensor([0., 0.5, 0.9]).to(x.dtype))
    check(f"{dt} quantile bad q", lambda x: tl.quantile(x, 1.5), x)
    check(f"{dt} dist", lambda x, y: tl.dist(x, y), x, make(dt, (7,), 9))
    check(f"{dt} dist 1", lambda x, y: tl.dist(x, y, 1), x, make(dt, (7,), 9))
    near(f"{dt} cosine_similarity", lambda x, y: tl.cosine_similarity(x, y, 1), x, make(dt, (7,), 9))
report(fi.FAIL, fi.COUNT[0])
