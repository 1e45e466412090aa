"""masked_scatter_/masked_scatter, unique_consecutive, unique(dim=) and multinomial on "cuda" tensors
of the host-memory stand-in backend (tests/_fake_cuda.py). Each op is composed in the core from the
backend's entries (select, index, sort, scan, reduce, random, element-wise), whose stand-ins are
the core's host runners of what the CUDA kernels run. Each result must equal tensorlib's CPU
result of the same call bit for bit (values, dtype, shape), an in-place call must leave the device
tensor equal to the CPU one, and a call the CPU refuses must be refused on the device with the same
exception and message, leaving self as it was. multinomial on the device must give the numbers of
the CPU's Generator(kind="philox") of the same seed and leave both generators in the same state
(a refused call consumes nothing). Run as a script: `python _fake_cuda_misc.py`; prints failures,
then `failures N` and `ok N`. With TL_EW_REAL=1 the grid runs on a real CUDA device."""

import numpy as np

import _fake_cuda_index as fi  # noqa: E402 (installs the stand-in; its check() compares CPU and device)
from _grid import report  # noqa: E402

import tensorlib as tl  # noqa: E402

check, make, outcome, FAIL, COUNT = fi.check, fi.make, fi.outcome, fi.FAIL, fi.COUNT
DTYPES = fi.DTYPES + fi.MOVE_ONLY
FLOATS = ["float16", "bfloat16", "float32", "float64"]
DREW = [0]  # multinomial calls that drew (not refused)


def runs(dt, shape, seed, specials=True):
    """Values in {-1, 0, 1} (so runs and repeats), with NaN, -0 and 0 in float tensors."""
    rng = np.random.default_rng(seed)
    t = tl.tensor(rng.integers(-1, 2, shape).astype(np.float64))
    if specials and dt in FLOATS and t.numel() >= 6:
        f = t.reshape(-1)
        f[1], f[2], f[3], f[4] = float("nan"), float("nan"), -0.0, 0.0
    if dt == "bool":
        return t > 0
    if dt == "uint8":
        return t.abs().to(tl.uint8)
    return t.to(getattr(tl, dt))


def section_masked_scatter(dt):
    x = make(dt, (3, 4, 5), 41)
    src = make(dt, (70,), 42)
    views = [("", x), ("T", x.transpose(0, 2)), ("step", x[:, ::2]), ("flip", x.flip(1))]
    for vn, v in views:
        m = make("bool", v.shape, 43)
        n = int(m.sum())
        for mn, mk in (("", m), ("bcast last", m[0, 0]), ("bcast mid", m[:, :1]), ("T mask", m.transpose(0, 1).transpose(0, 1)),
                       ("all", tl.ones(v.shape, dtype=tl.bool)), ("none", tl.zeros(v.shape, dtype=tl.bool)),
                       ("0-d True", tl.tensor(True)), ("0-d False", tl.tensor(False))):
            check(f"{dt}{vn} masked_scatter_ {mn}", lambda x, m, s: x.masked_scatter_(m, s), v.clone(), mk, src, inplace=True)
        check(f"{dt}{vn} masked_scatter_ exact source", lambda x, m, s: x.masked_scatter_(m, s), v.clone(), m, src[:n],
              inplace=True)
        check(f"{dt}{vn} masked_scatter_ 2-d T source", lambda x, m, s: x.masked_scatter_(m, s), v.clone(), m,
              src[:60].reshape(6, 10).t(), inplace=True)
        check(f"{dt}{vn} masked_scatter_ strided source", lambda x, m, s: x.masked_scatter_(m, s), v.clone(), m, src[::1],
              inplace=True)
        check(f"{dt}{vn} masked_scatter_ source too small", lambda x, m, s: x.masked_scatter_(m, s), v.clone(), m,
              src[:n - 1], inplace=True)
        check(f"{dt}{vn} masked_scatter_ wrong mask shape", lambda x, m, s: x.masked_scatter_(m, s), v.clone(), m[:2, :1],
              src, inplace=True)
        check(f"{dt}{vn} masked_scatter_ mask grows self", lambda x, m, s: x.masked_scatter_(m, s), v[0].clone(), m, src,
              inplace=True)
        check(f"{dt}{vn} masked_scatter bcast", lambda x, m, s: tl.masked_scatter(x, m, s), v[0, 0], m, src)
        check(f"{dt}{vn} masked_scatter method", lambda x, m, s: x.masked_scatter(m, s), v, m, src)
    check(f"{dt} masked_scatter_ named self", lambda x, m, s: x.masked_scatter_(m, s), x.clone().rename("a", "b", "c"),
          make("bool", x.shape, 43), src, inplace=True)
    y = make(dt, (6,), 44)
    check(f"{dt} masked_scatter_ source is self", lambda x, m: x.masked_scatter_(m, x), y.clone(),
          tl.tensor([False, True, True, False, True, False]), inplace=True)
    check(f"{dt} masked_scatter_ 0-d self", lambda x, m, s: x.masked_scatter_(m, s), make(dt, (), 45), tl.tensor(True),
          src, inplace=True)
    check(f"{dt} masked_scatter_ 0-d self, 0-d source", lambda x, m, s: x.masked_scatter_(m, s), make(dt, (), 45),
          tl.tensor(True), make(dt, (), 46), inplace=True)
    check(f"{dt} masked_scatter_ empty", lambda x, m, s: x.masked_scatter_(m, s), make(dt, (0, 3), 47),
          tl.zeros(0, 3, dtype=tl.bool), src[:0], inplace=True)
    check(f"{dt} masked_scatter_ empty source, no True", lambda x, m, s: x.masked_scatter_(m, s), y.clone(),
          tl.zeros(6, dtype=tl.bool), src[:0], inplace=True)
    check(f"{dt} masked_scatter_ uint8 mask", lambda x, m, s: x.masked_scatter_(m, s), y.clone(),
          tl.tensor([1, 0, 1, 1, 0, 0], dtype=tl.uint8), src, inplace=True)
    check(f"{dt} masked_scatter_ int mask", lambda x, m, s: x.masked_scatter_(m, s), y.clone(),
          tl.tensor([1, 0, 1, 1, 0, 0]), src, inplace=True)
    other = "float32" if dt != "float32" else "float64"
    check(f"{dt} masked_scatter_ source dtype", lambda x, m, s: x.masked_scatter_(m, s), y.clone(),
          tl.ones(6, dtype=tl.bool), make(other, (6,), 48), inplace=True)


def section_unique(dt):
    u = tl.unique_consecutive
    if dt.startswith("complex") or dt.startswith("float8"):  # refused on both devices, as torch's CPU
        for d in (None, 0):
            check(f"{dt} unique_consecutive dim={d}", lambda x, d=d: u(x, dim=d), make(dt, (3, 4), 50))
            check(f"{dt} unique dim={d}", lambda x, d=d: tl.unique(x, dim=d), make(dt, (3, 4), 50))
        return
    flat = runs(dt, (40,), 51)
    x = runs(dt, (3, 4, 5), 52)
    for vn, v in (("1-d", flat), ("", x), ("T", x.transpose(0, 2)), ("step", x[:, ::2]), ("flip", x.flip(1))):
        for inv in (False, True):
            for cnt in (False, True):
                check(f"{dt}{vn} unique_consecutive inv={inv} cnt={cnt}",
                      lambda x, inv=inv, cnt=cnt: u(x, return_inverse=inv, return_counts=cnt), v)
        for d in range(-v.dim(), v.dim()):
            check(f"{dt}{vn} unique_consecutive dim={d}",
                  lambda x, d=d: u(x, return_inverse=True, return_counts=True, dim=d), v)
    # runs of equal rows along a dim, and repeated rows out of order for unique(dim=)
    base = runs(dt, (3, 4), 53, specials=False)
    rows = tl.cat([base[:1], base[:1], base[1:], base[:1], base[2:], base[2:]], 0)
    if dt in FLOATS:
        rows[0, 0], rows[1, 0] = -0.0, 0.0  # equal under ==
    for vn, v in (("rows", rows), ("cols", rows.t()), ("3-d", tl.stack([rows, rows.flip(0)], 2))):
        for d in range(-v.dim(), v.dim()):
            check(f"{dt}{vn} unique_consecutive rows dim={d}",
                  lambda x, d=d: u(x, return_inverse=True, return_counts=True, dim=d), v)
            check(f"{dt}{vn} unique dim={d}",
                  lambda x, d=d: tl.unique(x, return_inverse=True, return_counts=True, dim=d), v)
            check(f"{dt}{vn} unique dim={d} values", lambda x, d=d: tl.unique(x, dim=d), v)
    if dt in FLOATS:  # NaN rows: each its own run for unique_consecutive (a NaN never equals)
        nr = rows.clone()
        nr[2, 1] = float("nan")
        nr[3, 1] = float("nan")
        check(f"{dt} unique_consecutive NaN rows", lambda x: u(x, return_inverse=True, return_counts=True, dim=0), nr)
    for vn, v in (("0-d", make(dt, (), 54)), ("empty", make(dt, (0,), 54)), ("empty 2-d", make(dt, (0, 3), 54)),
                  ("one", make(dt, (1,), 54))):
        check(f"{dt}{vn} unique_consecutive", lambda x: u(x, return_inverse=True, return_counts=True), v)
        for d in (0, 1, -1):
            check(f"{dt}{vn} unique_consecutive dim={d}",
                  lambda x, d=d: u(x, return_inverse=True, return_counts=True, dim=d), v)
            check(f"{dt}{vn} unique dim={d}", lambda x, d=d: tl.unique(x, return_inverse=True, return_counts=True, dim=d), v)
    check(f"{dt} unique_consecutive dim out of range", lambda x: u(x, dim=3), x)
    check(f"{dt} unique dim out of range", lambda x: tl.unique(x, dim=-4), x)
    check(f"{dt} unique dim, zero dims not selected", lambda x: tl.unique(x, dim=0), make(dt, (2, 0), 55))


def section_multinomial():
    def pair(seed):
        g = tl.Generator(kind="philox")
        h = tl.Generator(device="cuda")
        g.manual_seed(seed)
        h.manual_seed(seed)
        return g, h

    def same_draw(p, repl, rc, rg):
        """Equal draws; without replacement, once a row's positive categories are spent, the
        device picks its categories of probability 0 in row order, the CPU in torch's selection
        order: there each must be a distinct category of probability 0."""
        if repl or rc.numel() == 0:
            return rg.tolist() == rc.tolist()
        pr = p.to(tl.float64).reshape(-1, p.shape[-1]).tolist()
        for k, (a, b) in enumerate(zip(rc.reshape(len(pr), -1).tolist(), rg.reshape(len(pr), -1).tolist())):
            npos = sum(v > 0 for v in pr[k])
            if a[:npos] != b[:npos] or len(set(b)) != len(b) or any(pr[k][j] != 0 for j in b[npos:]):
                return False
        return True

    def same(what, p, n, repl, seed, **kw):
        g, h = pair(seed)
        COUNT[0] += 1
        rc, ec = outcome(lambda: tl.multinomial(p, n, repl, generator=g))
        st = h.get_state()
        rg, eg = outcome(lambda: tl.multinomial(p.cuda(), n, repl, generator=h))
        if ec is not None or eg is not None:
            if type(ec) is not type(eg) or str(ec) != str(eg):
                FAIL.append(f"{what}: CPU {type(ec).__name__}({ec}) vs device {type(eg).__name__}({eg})")
            elif not tl.equal(st, h.get_state()):
                FAIL.append(f"{what}: a refused call consumed counters")
            return
        if not rg.is_cuda or rg.dtype != rc.dtype or rg.shape != rc.shape or not same_draw(p, repl, rc, rg.cpu()):
            FAIL.append(f"{what}: device {rg.cpu()} vs CPU {rc}")
        if not tl.equal(g.get_state(), h.get_state()):
            FAIL.append(f"{what}: generator states differ after the call")
        DREW[0] += 1

    rng = np.random.default_rng(61)
    w = rng.random((4, 9))
    w[0, [0, 3]] = 0          # zeros inside
    w[1, 6:] = 0              # trailing zeros (the CPU's step back over them)
    w[2, :5] = 0              # leading zeros
    w[3] = w[3] * 3e4         # large weights (finite in float16)
    for dt in FLOATS:
        p = tl.tensor(w).to(getattr(tl, dt))
        for vn, v in (("2-d", p), ("1-d", p[1]), ("T", tl.tensor(w.T.copy()).to(p.dtype).t()), ("step", p[:, ::2]),
                      ("one row", p[2:3]), ("one category", p[:, 2:3]), ("empty rows", p[:0])):
            for repl in (True, False):
                for n in (1, 2, 4, 30):
                    for seed in (0, 7):
                        same(f"{dt} {vn} n={n} repl={repl} seed={seed}", v, n, repl, seed)
    p = tl.tensor(w)
    same("many samples", p, 2000, True, 3)
    same("weights near the float64 limit", p * 1e300, 50, True, 3)
    same("weights near the float64 limit, no replacement", p * 1e300, 5, False, 3)
    same("tiny weights", p * 1e-300, 50, True, 3)
    same("a long row", tl.rand(1 << 20, dtype=tl.float64), 5000, True, 4)
    same("long rows without replacement", tl.rand(3, 5000, dtype=tl.float64), 100, False, 5)
    # errors (and nothing drawn)
    bad = {"negative": [[0.5, -0.1, 0.2]], "inf": [[0.5, float("inf"), 0.2]], "nan": [[0.5, float("nan"), 0.2]],
           "zero sum": [[0.0, 0.0, 0.0]], "second row bad": [[0.5, 0.5, 0.0], [0.0, 0.0, 0.0]],
           "second row negative": [[0.5, 0.5, 0.0], [1.0, -1.0, 3.0]]}
    for name, vals in bad.items():
        for repl in (True, False):
            same(f"error {name} repl={repl}", tl.tensor(vals), 2, repl, 1)
    same("fewer positive categories than samples", tl.tensor([[0.5, 0.0, 0.2, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 1.0]]), 4,
         False, 1)
    same("error too many without replacement", tl.tensor([0.5, 0.1, 0.2]), 4, False, 1)
    same("error int probs", tl.tensor([1, 2, 3]), 2, True, 1)
    same("error 3-d", tl.ones(2, 2, 2), 1, True, 1)
    same("error 0-d", tl.tensor(1.0), 1, True, 1)
    same("error n=0", tl.ones(3), 0, True, 1)
    same("error no categories", tl.ones(2, 0), 1, True, 1)
    # the default generator: tl.cuda.manual_seed gives the numbers of a Philox CPU generator's seed
    g = tl.Generator(kind="philox")
    g.manual_seed(11)
    tl.cuda.manual_seed(11)
    a, b = tl.multinomial(p, 5, True, generator=g), tl.multinomial(p.cuda(), 5, True)
    COUNT[0] += 1
    if b.cpu().tolist() != a.tolist():
        FAIL.append(f"default generator: {b.cpu()} vs {a}")
    # out= and the method
    o = tl.empty(4, 3, dtype=tl.int64).cuda()
    g, h = pair(12)
    r = tl.multinomial(p.cuda(), 3, True, generator=h, out=o)
    COUNT[0] += 1
    if r is not o or o.cpu().tolist() != tl.multinomial(p, 3, True, generator=g).tolist():
        FAIL.append(f"out=: {o.cpu()}")
    g, h = pair(13)
    COUNT[0] += 1
    if p.cuda().multinomial(2, generator=h).cpu().tolist() != p.multinomial(2, generator=g).tolist():
        FAIL.append("method")
    # a CPU generator for CUDA probabilities: torch's RuntimeError, nothing drawn
    _, e = outcome(lambda: tl.multinomial(p.cuda(), 2, generator=tl.Generator(kind="philox")))
    COUNT[0] += 1
    if type(e) is not RuntimeError:
        FAIL.append(f"CPU generator for CUDA probs: {type(e).__name__}({e})")


def section_devices():
    xc = tl.zeros(2, 3).cuda()
    for what, f in (("masked_scatter_ CPU mask", lambda: xc.masked_scatter_(tl.ones(2, 3, dtype=tl.bool), tl.ones(6).cuda())),
                    ("masked_scatter_ CPU source", lambda: xc.masked_scatter_(tl.ones(2, 3, dtype=tl.bool).cuda(), tl.ones(6)))):
        _, e = outcome(f)
        COUNT[0] += 1
        if type(e) is not RuntimeError or "Expected all tensors to be on the same device" not in str(e):
            FAIL.append(f"{what}: {type(e).__name__}({e})")
        elif xc.cpu().abs().sum().item() != 0:
            FAIL.append(f"{what}: self changed")
    if not fi.REAL:  # the ops reach the entries they are composed of
        for what, f, entries in (
                ("masked_scatter_", lambda: tl.zeros(4).cuda().masked_scatter_(tl.tensor([True, False, True, True]).cuda(),
                                                                              tl.ones(4).cuda()), ("select", "index")),
                ("unique_consecutive", lambda: tl.unique_consecutive(tl.tensor([1, 1, 2]).cuda(), return_inverse=True),
                 ("select", "scan")),
                ("unique dim", lambda: tl.unique(tl.tensor([[1, 2], [0, 1]]).cuda(), dim=0), ("sort", "select", "index")),
                ("multinomial", lambda: tl.multinomial(tl.ones(2, 3).cuda(), 2), ("random", "scan", "reduce", "sort"))):
            n = len(fi.LOG)
            f()
            COUNT[0] += 1
            seen = {e[0] for e in fi.LOG[n:]}
            if not set(entries) <= seen:
                FAIL.append(f"{what} did not reach {entries}: {sorted(seen)}")


def section_torch():
    """The device results and refusals against torch 2.13 (CPU) directly: values, and the
    exception type and message of each refusal. (Not here: multinomial without replacement and
    fewer positive categories than samples, which tensorlib's CPU, and so the device, refuses while
    torch 2.13's CPU samples the zero-probability categories last: a CPU matter, left alone here.)"""
    try:
        import torch
    except ImportError:
        return

    def tt(x):
        return torch.from_numpy(np.array(x.cpu().numpy()))  # a copy: torch's in-place calls leave x alone

    def agree(what, ours, theirs):
        COUNT[0] += 1
        a, ea = outcome(ours)
        b, eb = outcome(theirs)
        if ea is not None or eb is not None:
            if type(ea) is not type(eb) or str(ea) != str(eb):
                FAIL.append(f"{what}: device {type(ea).__name__}({ea}) vs torch {type(eb).__name__}({eb})")
            return
        a = a if isinstance(a, tuple) else (a,)
        b = b if isinstance(b, tuple) else (b,)
        if len(a) != len(b) or any(not x.is_cuda or x.cpu().tolist() != y.tolist() for x, y in zip(a, b)):
            FAIL.append(f"{what}: device {[x.cpu() for x in a]} vs torch {b}")

    for dt in ("bool", "uint8", "int32", "int64", "float32", "float64"):
        x = runs(dt, (3, 4, 5), 71, specials=False)
        m = make("bool", (5, 4, 3), 72).transpose(0, 2)
        src = make(dt, (70,), 73)
        xc, mc, sc = x.cuda(), m.cuda(), src.cuda()
        agree(f"{dt} masked_scatter", lambda: xc.masked_scatter(mc, sc), lambda: tt(x).masked_scatter(tt(m), tt(src)))
        agree(f"{dt} masked_scatter bcast", lambda: xc.masked_scatter(mc[0, 0], sc),
              lambda: tt(x).masked_scatter(tt(m[0, 0]), tt(src)))
        agree(f"{dt} masked_scatter_ too small", lambda: xc.clone().masked_scatter_(mc, sc[:3]),
              lambda: tt(x).masked_scatter_(tt(m), tt(src[:3])))
        agree(f"{dt} masked_scatter_ int mask", lambda: xc.clone().masked_scatter_(mc.long(), sc),
              lambda: tt(x).masked_scatter_(tt(m.long()), tt(src)))
        for d in (None, 0, 1, 2, -1):
            agree(f"{dt} unique_consecutive dim={d}", lambda d=d: tl.unique_consecutive(xc, True, True, d),
                  lambda d=d: torch.unique_consecutive(tt(x), True, True, d))
            if d is not None:
                agree(f"{dt} unique dim={d}", lambda d=d: tl.unique(xc, return_inverse=True, return_counts=True, dim=d),
                      lambda d=d: torch.unique(tt(x), return_inverse=True, return_counts=True, dim=d))
        agree(f"{dt} unique_consecutive dim=3", lambda: tl.unique_consecutive(xc, dim=3),
              lambda: torch.unique_consecutive(tt(x), dim=3))
    nan = float("nan")
    for name, vals, n, repl in (("negative", [[0.5, -0.1]], 1, True), ("inf", [[float("inf"), 1.0]], 1, True),
                                ("nan", [[nan, 1.0]], 1, False), ("zero sum", [[0.0, 0.0]], 1, True),
                                ("n > categories", [[0.5, 0.5]], 3, False),
                                ("n = 0", [[0.5, 0.5]], 0, True), ("3-d", [[[0.5]]], 1, True)):
        p = tl.tensor(vals)
        agree(f"multinomial {name}", lambda: tl.multinomial(p.cuda(), n, repl), lambda: torch.multinomial(tt(p), n, repl))
    agree("multinomial int", lambda: tl.multinomial(tl.tensor([1, 2]).cuda(), 1),
          lambda: torch.multinomial(torch.tensor([1, 2]), 1))


def main():
    for dt in DTYPES:
        section_masked_scatter(dt)
        section_unique(dt)
    section_multinomial()
    if DREW[0] < 300:
        FAIL.append(f"only {DREW[0]} multinomial calls drew samples")
    section_devices()
    section_torch()


if __name__ == "__main__":
    main()
    report(FAIL, COUNT[0])
