"""The dense-product grid (mm, bmm, matmul in all its 1-D/2-D/batched forms, mv, dot, vdot, addmm,
addmv, baddbmm, addbmm, outer, addr; out=, in-place, names, errors) on "cuda" tensors of the
host-memory stand-in backend (tests/_fake_cuda.py): every call goes through the core's device path
(torch's checks in ops/linalg.c, then backend/gemm.c: row-major results as C^T = B^T A^T, transposed
operands passed as BLAS transpositions, other layouts copied dense on the device, batch dims merged
into one stride or looped) and the backend's gemm entry, whose stand-in is the core's host runner of
the same call. The operands hold small integers (complex: both parts), so every product, alpha and
beta of the grid is exact in each dtype (float16 and bfloat16 included): each result must equal
tensorlib's CPU result exactly (values, dtype, shape, names), and torch 2.13's; a call the CPU
refuses must be refused on the device with the same exception and message, and integer products
(which cuBLAS has not) with torch's CUDA message. A few random-valued products compare within float
tolerance. Run as a script in a subprocess: `python _fake_cuda_blas.py`; prints failures, then
`failures N` and `ok N`. With TL_EW_REAL=1 the grid runs on a real CUDA device (cuBLAS)."""

import operator

import numpy as np
import torch

import _fake_cuda  # noqa: E402 (tests/ on the path)
from _grid import report, outcome  # noqa: E402

REAL, LOG = _fake_cuda.for_grid()
import tensorlib as tl  # noqa: E402

FLOATS = ["float32", "float64", "float16", "bfloat16", "complex64", "complex128"]
FAIL = []
COUNT = [0]


def make(dt, shape, seed):
    """(tensorlib CPU tensor, torch tensor) of small integers (complex: both parts)."""
    rng = np.random.default_rng(seed)
    v = rng.integers(-3, 4, size=shape).astype(np.float64)
    if dt.startswith("complex"):
        v = v + 1j * rng.integers(-3, 4, size=shape)
    if dt == "bfloat16":
        return tl.tensor(v.astype(np.float32)).to(tl.bfloat16), torch.tensor(v.astype(np.float32)).to(torch.bfloat16)
    if dt == "bool":
        v = v > 0
    elif dt == "uint8":
        v = np.abs(v)
    t = torch.tensor(v).to(getattr(torch, dt))
    return tl.tensor(v, dtype=getattr(tl, dt)), t


def values(x):
    x = x.cpu().rename(None) if isinstance(x, tl.Tensor) else x
    if x.dtype in (tl.bfloat16, tl.float16, torch.bfloat16, torch.float16):
        x = x.float()
    return x.numpy() if isinstance(x, tl.Tensor) else x.detach().numpy()


def check(what, f, xs, ts, tol=None, torch_ok=True):
    """f(m, *operands) on the CPU, on the device (operands moved first, views taken by f) and in
    torch; tol None: the device result must equal the CPU's exactly."""
    rc, ec = outcome(lambda: f(tl, *xs))
    rg, eg = outcome(lambda: f(tl, *[x.cuda() for x in xs]))
    COUNT[0] += 1
    if ec is not None or eg is not None:
        if type(ec) is not type(eg) or str(ec) != str(eg):
            FAIL.append(f"{what}: CPU {type(ec).__name__}({ec}) vs device {type(eg).__name__}({eg})")
        return
    if not rg.is_cuda or rc.dtype != rg.dtype or rc.shape != rg.shape or rc.names != rg.names:
        FAIL.append(f"{what}: device {rg.dtype} {rg.shape} {rg.names} cuda={rg.is_cuda} vs CPU {rc.dtype} {rc.shape} "
                    f"{rc.names}")
        return
    a, b = values(rc), values(rg)
    ok = np.array_equal(a, b, equal_nan=True) if tol is None else np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True)
    if not ok:
        FAIL.append(f"{what}: device {b} vs CPU {a}")
    if not torch_ok:
        return
    rt, et = outcome(lambda: f(torch, *ts))
    if et is not None:
        FAIL.append(f"{what}: torch refused ({et}) what tensorlib computed")
        return
    COUNT[0] += 1
    t = values(rt)
    if t.shape != b.shape or not np.allclose(b, t, rtol=tol or 0, atol=tol or 0, equal_nan=True):
        FAIL.append(f"{what}: device {b} vs torch {t}")


def refused(what, f, xs, kernel):
    """An integer product on the device: torch's CUDA dispatch error (cuBLAS has no integers)."""
    COUNT[0] += 1
    _, eg = outcome(lambda: f(tl, *[x.cuda() for x in xs]))
    cname = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}
    want = f"\"{kernel}\" not implemented for '{cname[str(xs[0].dtype).split('.')[-1]]}'"
    if type(eg) is not NotImplementedError or str(eg) != want:
        FAIL.append(f"{what}: device {type(eg).__name__}({eg}), wanted NotImplementedError({want})")


# views taken on either device: name -> (shape of the stored tensor for a wanted (R, C), view)
VIEWS = {
    "": (lambda r, c: (r, c), lambda x: x),
    "T": (lambda r, c: (c, r), lambda x: x.t()),
    "step": (lambda r, c: (r, 2 * c), lambda x: x[:, ::2]),
    "rowstep": (lambda r, c: (2 * r, c), lambda x: x[::2]),
}


def grid_mm(dt):
    for M, K, N in [(3, 4, 5), (1, 4, 1), (4, 1, 3), (3, 0, 2), (0, 3, 2), (2, 3, 0), (5, 7, 2)]:
        for va, (sa, fa) in VIEWS.items():
            for vb, (sb, fb) in VIEWS.items():
                (xa, ta), (xb, tb) = make(dt, sa(M, K), M + K), make(dt, sb(K, N), K + N + 1)
                check(f"mm {dt} {M}x{K}{va} @ {K}x{N}{vb}", lambda m, a, b, fa=fa, fb=fb: m.mm(fa(a), fb(b)),
                      [xa, xb], [ta, tb])
        xa, ta = make(dt, (M, K), 1)
        xb, tb = make(dt, (K, N), 2)
        xi, ti = make(dt, (M, N), 3)
        for beta, alpha in [(1, 1), (0.5, 2), (0, 1), (2, 0), (-1, 3)]:
            check(f"addmm {dt} {M}x{K}x{N} beta={beta} alpha={alpha}",
                  lambda m, i, a, b, beta=beta, alpha=alpha: m.addmm(i, a, b, beta=beta, alpha=alpha),
                  [xi, xa, xb], [ti, ta, tb])
        for ishape in [(N,), (1, N), (M, 1), ()]:
            xj, tj = make(dt, ishape, 4)
            check(f"addmm {dt} input {ishape}", lambda m, i, a, b: m.addmm(i, a.t().t(), b, beta=2), [xj, xa, xb],
                  [tj, ta, tb])
        if dt.startswith("complex"):
            check(f"addmm {dt} complex alpha", lambda m, i, a, b: m.addmm(i, a, b, beta=1j, alpha=1 - 1j),
                  [xi, xa, xb], [ti, ta, tb])
    # beta == 0: NaN in the input does not propagate
    xa, ta = make(dt, (2, 3), 5)
    xb, tb = make(dt, (3, 2), 6)
    xn, tn = tl.full((2, 2), float("nan"), dtype=getattr(tl, dt)), torch.full((2, 2), float("nan"), dtype=getattr(torch, dt))
    check(f"addmm {dt} beta=0 NaN input", lambda m, i, a, b: m.addmm(i, a, b, beta=0), [xn, xa, xb], [tn, ta, tb])


def grid_batched(dt):
    for B, M, K, N in [(2, 3, 4, 5), (1, 2, 2, 2), (0, 2, 3, 4), (3, 1, 4, 1), (2, 3, 0, 2)]:
        xa, ta = make(dt, (B, M, K), B + M)
        xb, tb = make(dt, (B, K, N), K + N)
        xat, tat = make(dt, (B, K, M), 7)
        xbp, tbp = make(dt, (K, B, N), 8)
        check(f"bmm {dt} {B}x{M}x{K}x{N}", lambda m, a, b: m.bmm(a, b), [xa, xb], [ta, tb])
        check(f"bmm {dt} {B}x{M}x{K}x{N} transposed a, permuted b",
              lambda m, a, b: m.bmm(a.transpose(1, 2), b.permute(1, 0, 2)), [xat, xbp], [tat, tbp])
        check(f"bmm {dt} {B}x{M}x{K}x{N} step", lambda m, a, b: m.bmm(a[:, :, ::2], b[:, ::2]),
              [make(dt, (B, M, 2 * K), 9)[0], make(dt, (B, 2 * K, N), 10)[0]],
              [make(dt, (B, M, 2 * K), 9)[1], make(dt, (B, 2 * K, N), 10)[1]])
        xi, ti = make(dt, (B, M, N), 11)
        for beta, alpha in [(1, 1), (0.5, -2), (0, 1)]:
            check(f"baddbmm {dt} {B}x{M}x{K}x{N} beta={beta} alpha={alpha}",
                  lambda m, i, a, b, beta=beta, alpha=alpha: m.baddbmm(i, a, b, beta=beta, alpha=alpha),
                  [xi, xa, xb], [ti, ta, tb])
            xj, tj = make(dt, (M, N), 12)
            check(f"addbmm {dt} {B}x{M}x{K}x{N} beta={beta} alpha={alpha}",
                  lambda m, i, a, b, beta=beta, alpha=alpha: m.addbmm(i, a, b, beta=beta, alpha=alpha),
                  [xj, xa, xb], [tj, ta, tb])


MATMUL_SHAPES = [((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 2)), ((3, 4), (4, 2)), ((2, 3, 4), (4, 2)),
                 ((2, 3, 4), (4,)), ((4,), (2, 4, 3)), ((3, 4), (2, 4, 5)), ((2, 1, 3, 4), (5, 4, 2)),
                 ((2, 3, 3, 4), (3, 4, 2)), ((1, 3, 4), (2, 1, 4, 2)), ((0, 3, 4), (4, 2)), ((2, 3, 0), (0, 5)),
                 ((0,), (0,)), ((3, 0), (0,))]


def grid_matmul(dt):
    for i, (sa, sb) in enumerate(MATMUL_SHAPES):
        (xa, ta), (xb, tb) = make(dt, sa, 20 + i), make(dt, sb, 40 + i)
        check(f"matmul {dt} {sa} @ {sb}", lambda m, a, b: m.matmul(a, b), [xa, xb], [ta, tb])
        check(f"@ {dt} {sa} @ {sb}", lambda m, a, b: a @ b, [xa, xb], [ta, tb])
        if len(sa) >= 2 and len(sb) >= 2:  # the matrix dims transposed in storage
            xat, tat = make(dt, sa[:-2] + (sa[-1], sa[-2]), 60 + i)
            xbt, tbt = make(dt, sb[:-2] + (sb[-1], sb[-2]), 80 + i)
            check(f"matmul {dt} {sa}T @ {sb}T", lambda m, a, b: m.matmul(a.transpose(-1, -2), b.transpose(-1, -2)),
                  [xat, xbt], [tat, tbt])
    # a batch dim broadcast (stride 0) inside, and batch dims that do not merge
    xa, ta = make(dt, (3, 1, 2, 4), 100)
    xb, tb = make(dt, (3, 5, 4, 2), 101)
    check(f"matmul {dt} expanded batch", lambda m, a, b: m.matmul(a.expand(3, 5, 2, 4), b[:, ::2]), [xa, xb], [ta, tb])
    xa, ta = make(dt, (4, 3, 2, 4), 102)
    check(f"matmul {dt} unmergeable batch", lambda m, a, b: m.matmul(a.permute(1, 0, 2, 3)[:, ::2], b[:2, :, :, :].sum(1)),
          [xa, xb], [ta, tb], tol=None)


def grid_vector(dt):
    for M, K in [(3, 4), (1, 1), (0, 3), (3, 0), (5, 7)]:
        xa, ta = make(dt, (M, K), M + 2 * K)
        xv, tv = make(dt, (2 * K,), K)
        xw, tw = make(dt, (2 * K,), K + 1)
        xi, ti = make(dt, (M,), M)
        check(f"mv {dt} {M}x{K}", lambda m, a, v: m.mv(a, v[::2]), [xa, xv], [ta, tv])
        check(f"mv {dt} {M}x{K} T", lambda m, a, v: m.mv(a.t().contiguous().t(), v[:K]), [xa, xv], [ta, tv])
        for beta, alpha in [(1, 1), (2, 0.5), (0, 1)]:
            check(f"addmv {dt} {M}x{K} beta={beta} alpha={alpha}",
                  lambda m, i, a, v, beta=beta, alpha=alpha: m.addmv(i, a, v[1::2], beta=beta, alpha=alpha),
                  [xi, xa, xv], [ti, ta, tv])
        check(f"dot {dt} {K}", lambda m, v, w: m.dot(v[::2], w[1::2]), [xv, xw], [tv, tw])
        check(f"vdot {dt} {K}", lambda m, v, w: m.vdot(v[:K], w[K:]), [xv, xw], [tv, tw])
        check(f"outer {dt} {M}x{K}", lambda m, i, v: m.outer(i, v[::2]), [xi, xv], [ti, tv])
        xo, to = make(dt, (M, K), 3)
        check(f"addr {dt} {M}x{K}", lambda m, o, i, v: m.addr(o, i, v[::2], beta=2, alpha=-1), [xo, xi, xv],
              [to, ti, tv])


def grid_out_inplace(dt):
    xa, ta = make(dt, (3, 4), 1)
    xb, tb = make(dt, (4, 2), 2)
    xo, to = make(dt, (3, 2), 3)
    xw, tw = make(dt, (5,), 4)
    check(f"mm out= {dt}", lambda m, a, b, o: (m.mm(a, b, out=o), o)[1], [xa, xb, xo], [ta, tb, to])
    check(f"mm out= resized {dt}", lambda m, a, b, o: (m.mm(a, b, out=o), o)[1], [xa, xb, xw], [ta, tb, tw])
    check(f"matmul out= transposed {dt}", lambda m, a, b, o: (m.matmul(a, b, out=o.t()), o)[1],
          [xa, xb, make(dt, (2, 3), 5)[0]], [ta, tb, make(dt, (2, 3), 5)[1]])
    check(f"addmm_ {dt}", lambda m, o, a, b: o.clone().addmm_(a, b, beta=0.5, alpha=2), [xo, xa, xb], [to, ta, tb])
    xs, ts = make(dt, (3, 3), 6)
    check(f"@= {dt}", lambda m, o, a: operator.imatmul(o.clone(), a), [xs, make(dt, (3, 3), 7)[0]], [ts, make(dt, (3, 3), 7)[1]])
    xbo, tbo = make(dt, (2, 3, 2), 8)
    check(f"baddbmm_ {dt}", lambda m, o, a, b: o.clone().baddbmm_(a, b), [xbo, make(dt, (2, 3, 4), 9)[0], make(dt, (2, 4, 2), 10)[0]],
          [tbo, make(dt, (2, 3, 4), 9)[1], make(dt, (2, 4, 2), 10)[1]])
    other = "float64" if dt != "float64" else "float32"
    check(f"mm out= other dtype {dt}", lambda m, a, b, o: m.mm(a, b, out=o), [xa, xb, make(other, (3, 2), 0)[0]],
          [ta, tb, make(other, (3, 2), 0)[1]])


def grid_errors():
    xa, ta = make("float32", (3, 4), 1)
    xb, tb = make("float64", (4, 2), 2)
    xc, tc = make("float32", (5, 2), 3)
    check("mm dtype mismatch", lambda m, a, b: m.mm(a, b), [xa, xb], [ta, tb])
    check("mm shape mismatch", lambda m, a, b: m.mm(a, b), [xa, xc], [ta, tc])
    check("bmm 2-D", lambda m, a, b: m.bmm(a, b), [xa, xc], [ta, tc])
    check("matmul 0-d", lambda m, a: m.matmul(a, a[0, 0]), [xa], [ta])
    check("addmm complex beta on float", lambda m, a: m.addmm(a[:, :2], a, a.t()[:, :2], beta=1j), [xa], [ta])
    check("dot sizes", lambda m, a: m.dot(a[0], a[0, :3]), [xa], [ta])
    # device mix: torch's device check, the first argument's device first
    dev, cpu = xa.cuda(), make("float32", (4, 2), 4)[0]
    for name, f in [("mm", lambda: tl.mm(dev, cpu)), ("mm cpu first", lambda: tl.mm(cpu.t(), dev.t())),
                    ("matmul", lambda: tl.matmul(dev, cpu)), ("addmm input", lambda: tl.addmm(tl.ones(3, 2), dev, cpu.cuda())),
                    ("dot", lambda: tl.dot(dev[0], cpu[:, 0]))]:
        COUNT[0] += 1
        _, e = outcome(f)
        first, second = ("cpu", "cuda:0") if name in ("mm cpu first", "addmm input") else ("cuda:0", "cpu")
        want = f"Expected all tensors to be on the same device, but found at least two devices, {first} and {second}!"
        if type(e) is not RuntimeError or str(e) != want:
            FAIL.append(f"device mix {name}: {type(e).__name__}({e})")
    COUNT[0] += 1
    _, e = outcome(lambda: tl.addmm(tl.tensor(1.0), dev, cpu.cuda()))  # a 0-d CPU input goes with any device
    if e is not None:
        FAIL.append(f"0-d CPU input of addmm refused: {e}")


def grid_names():
    a = tl.arange(12.0).reshape(3, 4).rename("i", "k")
    b = tl.arange(8.0).reshape(4, 2).rename("k", "j")
    c = tl.arange(24.0).reshape(2, 3, 4).rename("b", "i", "k")
    check("named mm", lambda m, x, y: m.mm(x, y), [a, b], [], torch_ok=False)
    check("named matmul batched", lambda m, x, y: m.matmul(x, y), [c, b], [], torch_ok=False)
    check("named mv", lambda m, x, y: m.mv(x, y), [a, tl.arange(4.0).rename("k")], [], torch_ok=False)
    check("named duplicate", lambda m, x, y: m.mm(x, y), [a, tl.arange(8.0).reshape(4, 2).rename("k", "i")], [],
          torch_ok=False)
    check("named addmm", lambda m, i, x, y: m.addmm(i, x, y), [tl.zeros(3, 2).rename("i", "j"), a, b], [],
          torch_ok=False)


def grid_integers():
    for dt in ["int64", "int32", "int16", "int8", "uint8", "bool"]:
        (xa, _), (xb, _) = make(dt, (3, 4), 1), make(dt, (4, 2), 2)
        (x3, _), (y3, _) = make(dt, (2, 3, 4), 3), make(dt, (2, 4, 2), 4)
        (xv, _), (xi, _) = make(dt, (4,), 5), make(dt, (3,), 6)
        refused(f"mm {dt}", lambda m, a, b: m.mm(a, b), [xa, xb], "addmm_cuda")
        refused(f"matmul {dt}", lambda m, a, b: m.matmul(a, b), [xa, xb], "addmm_cuda")
        refused(f"matmul 3-D {dt}", lambda m, a, b: m.matmul(a, b), [x3, y3], "baddbmm_cuda")
        refused(f"matmul 3-D @ 2-D {dt}", lambda m, a, b: m.matmul(a, b), [x3, xb], "addmm_cuda")
        refused(f"bmm {dt}", lambda m, a, b: m.bmm(a, b), [x3, y3], "baddbmm_cuda")
        refused(f"mv {dt}", lambda m, a, v: m.mv(a, v), [xa, xv], "addmv_impl_cuda")
        refused(f"dot {dt}", lambda m, v: m.dot(v, v), [xv], "dot")
        refused(f"addmm {dt}", lambda m, i, a, b: m.addmm(i, a, b), [make(dt, (3, 2), 7)[0], xa, xb], "addmm_cuda")
        refused(f"baddbmm {dt}", lambda m, i, a, b: m.baddbmm(i, a, b), [make(dt, (2, 3, 2), 7)[0], x3, y3],
                "baddbmm_cuda")
        # an empty product has no dtype dispatch (torch returns the zeros first)
        check(f"mm empty {dt}", lambda m, a, b: m.mm(a[:, :0], b[:0]), [xa, xb], [], torch_ok=False)
        COUNT[0] += 1
        _, e = outcome(lambda: tl.outer(xi.cuda(), xv.cuda()))
        if type(e) is not NotImplementedError or "outer is not implemented for cuda tensors" not in str(e):
            FAIL.append(f"outer {dt}: {type(e).__name__}({e})")


def grid_random():
    """Random values: within float tolerance of the CPU (the same exactness is not expected)."""
    for dt, tol in [("float32", 1e-4), ("float64", 1e-10), ("complex64", 1e-4), ("complex128", 1e-10),
                    ("float16", 2e-2), ("bfloat16", 1e-1)]:
        g = torch.Generator().manual_seed(0)
        ta = torch.randn(4, 17, 9, generator=g).to(getattr(torch, dt))
        tb = torch.randn(9, 6, generator=g).to(getattr(torch, dt))
        xa = tl.tensor(ta.float().numpy() if dt in ("bfloat16", "float16") else ta.numpy()).to(getattr(tl, dt))
        xb = tl.tensor(tb.float().numpy() if dt in ("bfloat16", "float16") else tb.numpy()).to(getattr(tl, dt))
        check(f"random matmul {dt}", lambda m, a, b: m.matmul(a, b), [xa, xb], [ta, tb], tol=tol)
        check(f"random mm T {dt}", lambda m, a, b: m.mm(a[0].t(), a[1]), [xa, xb], [ta, tb], tol=tol)


def stand_in_checks():
    """What the stand-in's log shows of the calls (the real device has no log)."""
    def calls(f):
        del LOG[:]
        f()
        return [e for e in LOG if e[0] == "gemm"]

    def expect(what, got, want):
        COUNT[0] += 1
        if got != want:
            FAIL.append(f"{what}: {got} vs {want}")

    a, b = tl.ones(3, 4).cuda(), tl.ones(4, 5).cuda()
    # row-major c: C^T = B^T A^T, m = N, n = M; no copy, one call
    expect("mm call", [c[3:9] for c in calls(lambda: tl.mm(a, b))], [(0, 0, 5, 3, 4, 1)])
    expect("mm transposed operands", [c[3:9] for c in calls(lambda: tl.mm(b.t(), a.t()))], [(1, 1, 3, 5, 4, 1)])
    x, y = tl.ones(6, 3, 4).cuda(), tl.ones(6, 4, 2).cuda()
    expect("bmm: one strided call", [c[3:] for c in calls(lambda: tl.bmm(x, y))], [(0, 0, 2, 3, 4, 6, 8, 12, 6)])
    expect("matmul shared b: stride 0", [c[8:] for c in calls(lambda: tl.matmul(x, y[0]))], [(6, 0, 12, 6)])
    z = tl.ones(2, 3, 3, 4).cuda()
    expect("unmergeable batch: a call per outer index",
           len(calls(lambda: tl.matmul(z.transpose(0, 1), tl.ones(3, 2, 4, 2).cuda()))), 3)
    a6 = tl.ones(6, 8).cuda()
    expect("a non-BLAS layout: one call", len(calls(lambda: tl.mm(a6[::2, ::2], b))), 1)
    expect("a non-BLAS layout: copied on the device", sum(e[0] == "elementwise" for e in LOG), 1)
    # the switches travel in the call's flags
    m = tl.backends.cuda.matmul
    for attr, value, bit in [("allow_tf32", True, 1), ("allow_fp16_reduced_precision_reduction", False, 2),
                             ("allow_bf16_reduced_precision_reduction", (False, True), 4)]:
        setattr(m, attr, value)
        expect(f"flags {attr}", [c[2] for c in calls(lambda: tl.mm(a, b))], [bit])
        setattr(m, attr, not (value[0] if isinstance(value, tuple) else value))
        expect(f"flags {attr} back", [c[2] for c in calls(lambda: tl.mm(a, b))], [0])
    # k == 0: no call; beta scales the input element-wise
    expect("k=0: no gemm", calls(lambda: tl.addmm(tl.ones(3, 5).cuda(), a[:, :0], b[:0], beta=2)), [])


def main():
    for dt in FLOATS:
        grid_mm(dt)
        grid_batched(dt)
        grid_matmul(dt)
        grid_vector(dt)
        grid_out_inplace(dt)
    grid_errors()
    grid_names()
    grid_integers()
    grid_random()
    if not REAL:
        stand_in_checks()


if __name__ == "__main__":
    main()
    report(FAIL, COUNT[0])
