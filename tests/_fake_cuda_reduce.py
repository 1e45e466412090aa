"""The reduction grid on "cuda" tensors of the host-memory stand-in backend
(tests/_fake_cuda.py): every call goes through the core's device path (torch's dims, dtype,
emptiness and out= rules, the geometry built from the CPU plan) and the backend's reduce entry,
whose stand-in is the core's host runner of the kernels/hd_reduce.h steps the CUDA kernel runs.
Each result is compared with tensorlib's CPU result of the same call (exact for integers, bool
and indices) and with torch 2.13 on the same values; a call the CPU refuses must be refused on
the device with the same exception and message. Run as a script in a subprocess (the
registration lasts for the process): `python _fake_cuda_reduce.py SECTION`; prints failures,
then `failures N` and `ok N` (N checks). With TL_EW_REAL=1 the grid runs on a real CUDA device."""
import math
import sys

import numpy as np
import torch

import _fake_cuda  # noqa: E402 (tests/ on the path)
from _grid import report  # noqa: E402

REAL, LOG = _fake_cuda.for_grid()
import tensorlib as tl  # noqa: E402

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "complex64"]
# float results: the device accumulates float16/bfloat16/float32 in float32 (the CPU in float64)
RTOL = {"float16": 4e-3, "bfloat16": 2e-2, "float32": 1e-5, "float64": 1e-6, "complex64": 1e-5, "complex128": 1e-6}
FAIL = []
COUNT = [0]
SKIP = object()
# (op, dtype) the device entry lacks: NotImplementedError naming the op, device and dtype
GAPS = [["logsumexp", "complex64"]]


def make(dt, shape, seed, specials):
    """(tl CPU tensor, torch tensor) of dtype dt with the same values; specials: NaN, inf, -0."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape)) if shape else 1
    if dt == "bool":
        a = rng.integers(0, 2, n).astype(bool)
    elif dt in ("uint8", "int8", "int16", "int32", "int64"):
        lo, hi = (0, 6) if dt == "uint8" else (-4, 5)  # small: products stay exact, ties for arg*
        a = rng.integers(lo, hi, n).astype(dt)
    else:
        a = rng.integers(-8, 9, n) / 4.0  # exact in every float dtype, ties for arg*
        if specials and n >= 4:
            a[rng.integers(0, n)] = np.nan
            a[rng.integers(0, n)] = np.inf
            a[rng.integers(0, n)] = -0.0
        if dt.startswith("complex"):
            a = (a + 1j * np.roll(a, 1)).astype(dt)
    a = a.reshape(shape)
    t = torch.from_numpy(np.ascontiguousarray(a))
    if dt in ("float16", "bfloat16", "float32"):
        t = t.to(getattr(torch, dt))
    x = tl.tensor(t.to(torch.float32).numpy() if dt == "bfloat16" else t.numpy())
    if dt == "bfloat16":
        x = x.to(tl.bfloat16)
    return x, t


# shapes: (name, base shape, view applied to both tl and torch tensors)
SHAPES = [
    ("0d", (), lambda x: x),
    ("empty", (0,), lambda x: x),
    ("empty3", (2, 0, 3), lambda x: x),
    ("1d", (7,), lambda x: x),
    ("3d", (3, 4, 5), lambda x: x),
    ("strided", (3, 8, 5), lambda x: x[:, ::2]),
    ("permuted", (4, 5, 3), lambda x: x.permute(2, 0, 1)),
    ("expanded", (1, 4, 1), lambda x: x.expand(3, 4, 5)),
    ("flipped", (3, 4, 5), lambda x: x.transpose(0, 2)[1:]),
]


def dims_for(ndim):
    if ndim == 0:
        return [None, 0, -1]
    if ndim == 1:
        return [None, 0, -1, (0,)]
    return [None, 1, -1, 0, (0, 2), (-1, 0), (1,)]


def host(r):
    if isinstance(r, torch.Tensor):
        if r.dtype in (torch.bfloat16, torch.float16):
            r = r.float()
        return r.numpy()
    r = r.cpu()
    if r.dtype in (tl.bfloat16, tl.float16):
        r = r.float()
    return r.numpy()


def same(got, want, dt, what, tol_scale=None, exact=False, finite_only=False):
    """finite_only: complex results compared where both are finite (complex products and
    divisions with an infinite part differ by formula: C's Annex G recovery on tensorlib's CPU,
    the plain formula on the device as in torch's CUDA kernels, complex division in torch's
    CPU mean); "all": float results too (torch's var_mean gives a NaN mean where an infinity is
    reduced, tensorlib's CPU and device the infinity)."""
    COUNT[0] += 1
    if isinstance(want, tuple):
        if not isinstance(got, tuple) or len(got) != len(want):
            FAIL.append(f"{what}: tuple {type(got)} vs {type(want)}")
            return
        for k, (g, w) in enumerate(zip(got, want)):
            same(g, w, dt, f"{what}[{k}]", tol_scale, exact, finite_only)
        return
    if not got.is_cuda:
        FAIL.append(f"{what}: result on {got.device}")
        return
    g, w = host(got), host(want)
    if g.shape != w.shape or g.dtype != w.dtype:
        FAIL.append(f"{what}: shape/dtype {g.shape} {g.dtype} vs {w.shape} {w.dtype}")
        return
    if (finite_only == "all" and g.dtype.kind in "fc") or (finite_only and g.dtype.kind == "c"):
        keep = np.isfinite(g) & np.isfinite(w)
        g, w = g[keep], w[keep]
    if exact or g.dtype.kind in "biu":
        ok = np.array_equal(g, w, equal_nan=g.dtype.kind in "fc")
    else:
        r = RTOL.get(dt, 1e-5) if dt in RTOL else RTOL.get(str(g.dtype), 1e-6)
        atol = r * (tol_scale if tol_scale is not None else 1.0)
        with np.errstate(invalid="ignore"):
            ok = np.allclose(g, w, rtol=r, atol=atol, equal_nan=True)
            # infinities must agree exactly
            ok = ok and np.array_equal(np.isinf(g), np.isinf(w))
    if not ok:
        FAIL.append(f"{what}: {g.ravel()[:6]} vs {w.ravel()[:6]}")


def outcome(f, *a):
    try:
        return f(*a), None
    except Exception as e:  # noqa: BLE001 (compared below)
        return None, e


def check(what, dt, f, xc, xt, scale=None):
    """f(module, x): the device result against tensorlib's CPU result and torch's."""
    cpu, ec = outcome(f, tl, xc)
    if cpu is SKIP:
        return
    dev, ed = outcome(f, tl, xc.cuda())
    if ec is not None:
        COUNT[0] += 1
        if ed is None or type(ed) is not type(ec) or str(ed) != str(ec):
            FAIL.append(f"{what}: CPU raised {type(ec).__name__}: {ec}; device {type(ed).__name__}: {ed}")
        return
    if ed is not None:
        gap = isinstance(ed, NotImplementedError) and what.split()[:2] in GAPS and "is not implemented for cuda" in str(ed)
        COUNT[0] += gap
        if not gap:
            FAIL.append(f"{what}: device raised {type(ed).__name__}: {ed}")
        return
    same(dev, cpu, dt, what + " vs cpu", scale, finite_only=what.startswith("prod"))
    if what.startswith("prod") and dt in ("float16", "bfloat16"):
        return  # torch's CPU prod rounds to the half type each step; the device accumulates in float32
    tor, et = outcome(f, torch, xt)
    if et is None and tor is not SKIP:
        if isinstance(tor, torch.Tensor) or isinstance(tor, tuple):
            tor = tuple(tor) if isinstance(tor, tuple) else tor
            if isinstance(tor, tuple) and not isinstance(dev, tuple):
                return
            same(dev if not isinstance(dev, tuple) else tuple(dev), tor, dt, what + " vs torch", scale,
                 finite_only="all" if "_mean" in what else True)


def scale_of(xc, dim):
    """An absolute tolerance scale for sums: the largest sum of |x| over the reduced elements."""
    if xc.numel() == 0:
        return 1.0
    a = xc.abs().double() if xc.dtype != tl.bool else xc.double()
    a = tl.where(tl.isfinite(a), a, tl.zeros_like(a))
    s = a.sum() if dim is None or dim == () else a.sum(dim)
    return max(1.0, float(s.max()))


def is_tuple(d):
    return isinstance(d, tuple)


# op name -> f(module, x, dim, keepdim)
def _sum(m, x, d, k):
    return m.sum(x) if d is None and not k else m.sum(x, d, k)


def _int_only(fn):
    def f(m, x, d, k):
        if is_tuple(d):
            return SKIP
        return fn(m, x, d, k)
    return f


OPS = {
    "basic": {
        "sum": _sum,
        "nansum": lambda m, x, d, k: m.nansum(x) if d is None else m.nansum(x, d, k),
        "mean": lambda m, x, d, k: m.mean(x) if d is None else m.mean(x, d, k),
        "prod": _int_only(lambda m, x, d, k: m.prod(x) if d is None else m.prod(x, d, k)),
    },
    "extrema": {
        "amax": lambda m, x, d, k: m.amax(x, () if d is None else d, k),
        "amin": lambda m, x, d, k: m.amin(x, () if d is None else d, k),
        "max": _int_only(lambda m, x, d, k: m.max(x) if d is None else tuple(m.max(x, d, k))),
        "min": _int_only(lambda m, x, d, k: m.min(x) if d is None else tuple(m.min(x, d, k))),
        "argmax": _int_only(lambda m, x, d, k: m.argmax(x, d, k)),
        "argmin": _int_only(lambda m, x, d, k: m.argmin(x, d, k)),
        "aminmax": _int_only(lambda m, x, d, k: tuple(m.aminmax(x, dim=d, keepdim=k))),
    },
    "logic": {
        "all": lambda m, x, d, k: m.all(x) if d is None else m.all(x, d, k),
        "any": lambda m, x, d, k: m.any(x) if d is None else m.any(x, d, k),
        "count_nonzero": lambda m, x, d, k: SKIP if k else m.count_nonzero(x, d),
    },
    "stats": {
        "var": lambda m, x, d, k: m.var(x, d, keepdim=k),
        "std0": lambda m, x, d, k: m.std(x, d, keepdim=k, correction=0),
        "var2": lambda m, x, d, k: m.var(x, d, keepdim=k, correction=2),
        "var_mean": lambda m, x, d, k: tuple(m.var_mean(x, d, keepdim=k)),
        "std_mean": lambda m, x, d, k: tuple(m.std_mean(x, d, keepdim=k)),
        "logsumexp": lambda m, x, d, k: SKIP if d is None else m.logsumexp(x, d, k),
    },
    "norm": {
        f"norm{p}": (lambda p: lambda m, x, d, k: m.linalg.vector_norm(x, p, d, k))(p)
        for p in (2, 1, math.inf, -math.inf, 0, 3, 0.5)
    },
}
OPS["norm"]["Tensor.norm"] = lambda m, x, d, k: x.norm(dim=d, keepdim=k)


def grid(section):
    for op, f in OPS[section].items():
        for dt in DTYPES:
            for si, (sname, shape, view) in enumerate(SHAPES):
                xc0, xt0 = make(dt, shape, hash((op, dt, sname)) % 1000, specials=si % 2 == 0)
                xc, xt = view(xc0), view(xt0)
                for d in dims_for(xc.dim()):
                    for k in (False, True):
                        fk = (lambda f, d, k: lambda m, x: f(m, x, d, k))(f, d, k)
                        check(f"{op} {dt} {sname} dim={d} keepdim={k}", dt, fk, xc, xt, scale_of(xc, d))


def section_dtype_out():
    """dtype= (the cast runs on the device) and out= (device results written into device outputs)."""
    for dt in ("bool", "int8", "int32", "int64", "float16", "float32", "float64"):
        xc, xt = make(dt, (3, 4, 5), 7, specials=False)
        for dto in ("int32", "int64", "float32", "float64"):
            cases = {
                "sum": lambda m, x, o=dto: m.sum(x, 1, dtype=getattr(m, o)),
                "sum_all": lambda m, x, o=dto: m.sum(x, dtype=getattr(m, o)),
                "prod": lambda m, x, o=dto: m.prod(x, 2, dtype=getattr(m, o)),
                "nansum": lambda m, x, o=dto: m.nansum(x, (0, 1), dtype=getattr(m, o)),
                "mean": lambda m, x, o=dto: m.mean(x, -1, dtype=getattr(m, o)),
                "norm": lambda m, x, o=dto: m.linalg.vector_norm(x, 2, 1, dtype=getattr(m, o)),
            }
            for name, f in cases.items():
                check(f"{name} {dt} dtype={dto}", dto, f, xc, xt, scale_of(xc, None))
    # out=: a device result into device outputs (resized, cast where torch casts)
    xc, xt = make("float32", (3, 4), 3, specials=False)
    x = xc.cuda()
    for name, call, out in [
        ("sum", lambda m, x, o: m.sum(x, 1, out=o), lambda m: m.empty(3)),
        ("sum resize", lambda m, x, o: m.sum(x, 0, out=o), lambda m: m.empty(0)),
        ("mean", lambda m, x, o: m.mean(x, 0, out=o), lambda m: m.empty(4, dtype=m.float64)),
        ("amax", lambda m, x, o: m.amax(x, 1, out=o), lambda m: m.empty(3)),
        ("max", lambda m, x, o: m.max(x, 1, out=o), lambda m: (m.empty(3), m.empty(3, dtype=m.int64))),
        ("argmax", lambda m, x, o: m.argmax(x, 0, out=o), lambda m: m.empty(4, dtype=m.int64)),
        ("all", lambda m, x, o: m.all(x, 1, out=o), lambda m: m.empty(3, dtype=m.bool)),
        ("var", lambda m, x, o: m.var(x, 1, out=o), lambda m: m.empty(3)),
        ("logsumexp", lambda m, x, o: m.logsumexp(x, 1, out=o), lambda m: m.empty(3)),
    ]:
        oc, od = out(tl), out(tl)
        od = tuple(t.cuda() for t in od) if isinstance(od, tuple) else od.cuda()
        rc, rd = call(tl, xc, oc), call(tl, x, od)
        rt = call(torch, xt, out(torch))
        if isinstance(rc, tuple):
            same(tuple(rd), tuple(rc), "float32", f"out= {name} vs cpu")
            same(tuple(od), tuple(rc), "float32", f"out= {name} (out)")
            same(tuple(rd), tuple(rt), "float32", f"out= {name} vs torch")
        else:
            same(rd, rc, "float32", f"out= {name} vs cpu")
            same(od, rc, "float32", f"out= {name} (out)")
            same(rd, rt, "float32", f"out= {name} vs torch")
            COUNT[0] += 1
            if rd.data_ptr() != od.data_ptr():
                FAIL.append(f"out= {name}: not the out tensor")


def expect(what, exc, msg, f):
    COUNT[0] += 1
    try:
        f()
    except exc as e:
        if msg not in str(e):
            FAIL.append(f"{what}: message {e!s}")
        return
    except Exception as e:  # noqa: BLE001
        FAIL.append(f"{what}: {type(e).__name__}: {e}")
        return
    FAIL.append(f"{what}: no error")


def section_errors():
    x = tl.arange(12.).reshape(3, 4).cuda()
    # torch's texts (as its meta tensors give them): a failed copy, or the out device check of the
    # (values, indices) and argmax kernels
    mix = "Attempting to copy from device cuda to device cpu, but cross-device copies are not allowed!"
    expect("sum out= on cpu", RuntimeError, mix, lambda: tl.sum(x, 1, out=tl.empty(3)))
    expect("amax out= on cpu", RuntimeError, mix, lambda: tl.amax(x, 1, out=tl.empty(3)))
    expect("mean out= on cpu", RuntimeError, mix, lambda: tl.mean(x, 1, out=tl.empty(3)))
    expect("max out= on cpu", RuntimeError, "Expected out tensor to have device cuda:0, but got cpu instead",
           lambda: tl.max(x, 1, out=(tl.empty(3), tl.empty(3, dtype=tl.int64))))
    expect("argmax out= on cpu", RuntimeError, "Expected out tensor to have device cuda:0, but got cpu instead",
           lambda: tl.argmax(x, 1, out=tl.empty(3, dtype=tl.int64)))
    expect("cpu sum out= on cuda", RuntimeError, "Attempting to copy from device cpu to device cuda, but cross-device",
           lambda: tl.sum(x.cpu(), 1, out=tl.empty(3).cuda()))
    e = tl.empty(2, 0).cuda()
    expect("amax of empty dim", IndexError, "amax(): Expected reduction dim 1 to have non-zero size.", lambda: e.amax(1))
    expect("max of empty", RuntimeError, "max(): Expected reduction dim to be specified for input.numel() == 0.",
           lambda: e.max())
    expect("argmax of empty", IndexError, "argmax(): Expected reduction dim to be specified", lambda: e.argmax())
    expect("max(dim) of empty dim", IndexError, "max(): Expected reduction dim 1 to have non-zero size.",
           lambda: e.max(1))
    expect("mean of int", RuntimeError, "mean(): could not infer output dtype", lambda: x.long().mean())
    expect("argmax of complex", RuntimeError, "argmax(): does not support complex input",
           lambda: x.to(tl.complex64).argmax())
    expect("dup dims", RuntimeError, "dim 1 appears multiple times in the list of dims", lambda: x.sum((1, 1)))
    expect("bad dim", IndexError, "Dimension out of range", lambda: x.sum(2))
    # dtypes the device entry lacks: NotImplementedError naming the op, the device and the dtype
    expect("logsumexp complex", NotImplementedError, "logsumexp is not implemented for cuda tensors of dtype complex64",
           lambda: x.to(tl.complex64).logsumexp(1))
    expect("sum uint16", NotImplementedError, "sum is not implemented for cuda tensors of dtype uint16",
           lambda: tl.zeros(3, dtype=tl.uint16, device="cuda").sum())
    # (median, mode: tests/test_cuda_index.py)
    # names: the reduced dims' names dropped, the kept ones kept, as on the CPU
    xn = tl.arange(24.).reshape(2, 3, 4).refine_names("A", "B", "C")
    gn = xn.rename(None).cuda().refine_names("A", "B", "C")
    for what, f in [("sum", lambda t: t.sum("B")), ("max", lambda t: t.max("C")[0]),
                    ("std", lambda t: t.std("A", keepdim=True)), ("argmax", lambda t: t.argmax("B")),
                    ("all", lambda t: t.all("C")), ("mean", lambda t: t.mean(("A", "C")))]:
        a, b = f(xn), f(gn)
        COUNT[0] += 1
        if a.names != b.names or not tl.equal(a.rename(None), b.cpu().rename(None)):
            FAIL.append(f"names {what}: {b.names} vs {a.names}")
    # the stand-in saw the calls it should have: one reduce call per reduction, none for refusals
    if not REAL:
        n = len(LOG)
        x.sum(0)
        COUNT[0] += 1
        calls = [c for c in LOG[n:] if c[0] == "reduce"]
        if len(calls) != 1 or calls[0][5:] != (1, 1, 4, 3):  # nkept, nred, nout, nelem
            FAIL.append(f"sum(0) calls: {calls}")
        n = len(LOG)
        x.t().contiguous().t().sum()  # a full reduction of a transposed tensor: dims merged into one
        calls = [c for c in LOG[n:] if c[0] == "reduce"]
        COUNT[0] += 1
        if len(calls) != 1 or calls[0][5:] != (0, 1, 1, 12):
            FAIL.append(f"sum() calls: {calls}")


def section_large():
    """Longer rows (a GPU splits them over blocks): sums, extremes with ties and NaNs."""
    rng = np.random.default_rng(5)
    for dt in ("float32", "float64", "int32", "float16"):
        a = rng.integers(-50, 50, (4, 5000)).astype(np.float64)
        a[1, 3000] = np.nan
        a[1, 4000] = np.nan
        a = a.astype(dt) if dt != "float16" else a.astype(np.float16)
        t = torch.from_numpy(a)
        xc = tl.tensor(a)
        for name, f in [("sum", lambda m, x: m.sum(x, 1)), ("sum_all", lambda m, x: m.sum(x)),
                        ("argmax", lambda m, x: m.argmax(x, 1)), ("argmin_all", lambda m, x: m.argmin(x)),
                        ("max", lambda m, x: tuple(m.max(x, 1))), ("amin0", lambda m, x: m.amin(x, 0)),
                        ("var", lambda m, x: m.var(x, 1)), ("prod_t", lambda m, x: m.prod(x.t()[:3] / 50, 0)),
                        ("logsumexp", lambda m, x: m.logsumexp(x, 1))]:
            if dt == "int32" and name in ("var", "logsumexp", "prod_t"):
                continue
            check(f"large {name} {dt}", dt, f, xc, t, scale_of(xc, None))


if __name__ == "__main__":
    sec = sys.argv[1]
    if sec in OPS:
        grid(sec)
    else:
        globals()["section_" + sec]()
    report(FAIL, COUNT[0])
