"""The indexing grid on "cuda" tensors of the host-memory stand-in backend (tests/_fake_cuda.py):
advanced indexing (x[i], x[:, i], x[i, j], non-adjacent and broadcast index tensors, int32 and
int64, negative indices), index_put_ (assign, fill, accumulate), gather, scatter_ (src and value),
scatter_add_, scatter_reduce(sum), index_select, take, put_, index_add_/index_copy_/index_fill_,
take_along_dim, nonzero/argwhere/x[mask]/masked_select, sort/argsort/msort/topk,
kthvalue/median/nanmedian/mode, unique, and cat/stack. Every call goes through the core's device path (the CPU's checks,
the operand geometry its loops run over) and the backend's index entry, whose stand-in is the
core's host runner of the kernels/hd_index.h element steps the CUDA kernel runs. Each result
must equal tensorlib's CPU result of the same call bit for bit (values, dtype, shape, names), and
an in-place call must leave the device tensor equal to the CPU one; a call the CPU refuses must
be refused on the device with the same exception and message, leaving self as it was. Run as a
script in a subprocess: `python _fake_cuda_index.py`; prints failures, then `failures N` and
`ok N`. With TL_EW_REAL=1 the grid runs on a real CUDA device (accumulating puts are compared
within a tolerance there: atomic additions run in any order)."""

import numpy as np

import _fake_cuda  # noqa: E402 (tests/ on the path)
from _grid import report, outcome  # noqa: E402

REAL, LOG = _fake_cuda.for_grid()
import tensorlib as tl  # noqa: E402

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "complex64", "complex128"]
MOVE_ONLY = ["float8_e4m3fn", "complex32"]  # moved as bytes: no arithmetic on the device
FAIL = []
COUNT = [0]


def make(dt, shape, seed):
    rng = np.random.default_rng(seed)
    t = tl.tensor(np.round(rng.standard_normal(shape) * 4))
    if dt == "bool":
        return t > 0
    if dt in ("complex64", "complex128"):
        t = t + 1j * tl.tensor(np.round(rng.standard_normal(shape) * 4))
    return t.abs().to(tl.uint8) if dt == "uint8" else t.to(getattr(tl, dt))


def bits(x):
    x = x.cpu().rename(None)
    return (x.dtype, tuple(x.shape), x.reshape(-1).contiguous().view(tl.uint8).tolist() if x.numel() else [])


def close(a, b):
    a, b = a.cpu().rename(None), b.cpu().rename(None)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype in (tl.float16, tl.bfloat16):
        a, b = a.float(), b.float()
    return np.allclose(a.numpy(), b.numpy(), rtol=1e-2, atol=1e-2)


def check(what, f, *args, inplace=False, loose=False):
    """f(*args) on the CPU and on the device (every tensor argument moved there); with inplace,
    the first argument is compared after the call too."""
    cpu_args = [a.clone() if inplace and k == 0 else a for k, a in enumerate(args)]
    dev_args = [a.cuda() if isinstance(a, tl.Tensor) else a for a in args]
    rc, ec = outcome(lambda: f(*cpu_args))
    rg, eg = outcome(lambda: f(*dev_args))
    COUNT[0] += 1
    if ec is not None or eg is not None:
        if type(ec) is not type(eg) or str(ec) != str(eg):
            FAIL.append(f"{what}: CPU {type(ec).__name__}({ec}) vs device {type(eg).__name__}({eg})")
        elif inplace and bits(cpu_args[0]) != bits(dev_args[0]):  # a refused call leaves self alone
            FAIL.append(f"{what}: refused, but self differs: device {dev_args[0].cpu()} vs CPU {cpu_args[0]}")
        return
    pairs = list(zip(rc if isinstance(rc, (tuple, list)) else (rc,), rg if isinstance(rg, (tuple, list)) else (rg,)))
    if inplace:
        pairs.append((cpu_args[0], dev_args[0]))
    for a, b in pairs:
        if not isinstance(a, tl.Tensor):
            continue
        ok = b.is_cuda and a.names == b.names and (close(a, b) if loose and REAL else bits(a) == bits(b))
        if not ok:
            FAIL.append(f"{what}: device {b.cpu() if b.is_cuda else b} vs CPU {a}")


def idx(vals, dt="int64"):
    return tl.tensor(vals, dtype=getattr(tl, dt))


def section_index(dt):
    x = make(dt, (4, 5, 6), 1)
    views = [("", x), ("T", x.transpose(0, 2)), ("step", x[:, ::2]), ("flip", x.flip(1))]
    for vn, v in views:
        for it in ("int64", "int32"):
            i, j = idx([3, 0, -1, 1], it), idx([[1], [0]], it)
            check(f"{dt}{vn} x[i] {it}", lambda x, i: x[i], v, i)
            check(f"{dt}{vn} x[:, i] {it}", lambda x, i: x[:, i], v, idx([2, 0, -1, 1], it))
            check(f"{dt}{vn} x[..., i] {it}", lambda x, i: x[..., i], v, i)
            check(f"{dt}{vn} x[i, j] bcast {it}", lambda x, i, j: x[i, j], v, i, j)
            check(f"{dt}{vn} x[i, :, j] {it}", lambda x, i, j: x[i, :, j], v, i, j)
            check(f"{dt}{vn} x[j, 1] {it}", lambda x, j: x[j, 1], v, j)
        check(f"{dt}{vn} x[empty]", lambda x, i: x[i], v, idx([], "int64"))
        check(f"{dt}{vn} x[oob]", lambda x, i: x[:, i], v, idx([0, 7]))
        check(f"{dt}{vn} x[-oob]", lambda x, i: x[i], v, idx([0, -9]))
    check(f"{dt} 1-d x[2-d i]", lambda x, i: x[i], make(dt, (7,), 3), idx([[6, 0], [-7, 2]]))


def section_put(dt):
    base = make(dt, (4, 5), 4)
    src = make(dt, (3, 5), 5)
    for vn, tr in (("", lambda t: t), ("T", lambda t: t.t().contiguous().t())):
        b = tr(base)
        i = idx([2, 0, -1])
        check(f"{dt}{vn} x[i] = v", lambda x, i, v: x.__setitem__(i, v), b, i, src, inplace=True)
        check(f"{dt}{vn} x[i] = v bcast", lambda x, i, v: x.__setitem__(i, v), b, i, src[:1], inplace=True)
        check(f"{dt}{vn} x[:, i] = 1", lambda x, i: x.__setitem__((slice(None), i), 1), b, i, inplace=True)
        check(f"{dt}{vn} x[i, j] = v", lambda x, i, j, v: x.__setitem__((i, j), v), b, i, idx([4, 0, 1]), src[0, :3],
              inplace=True)
        check(f"{dt}{vn} x[i] = 0-d cpu", lambda x, i: x.__setitem__(i, make(dt, (), 6)), b, i, inplace=True)
        check(f"{dt}{vn} x[oob] = v", lambda x, i, v: x.__setitem__(i, v), b, idx([1, 4]), src[:2], inplace=True)
        if dt in MOVE_ONLY:
            continue
        dup = idx([1, 1, 3, 1])
        vals = make(dt, (4, 5), 7)
        check(f"{dt}{vn} index_put_ acc", lambda x, i, v: x.index_put_((i,), v, accumulate=True), b, dup, vals,
              inplace=True, loose=True)
        check(f"{dt}{vn} index_put_ acc 2 idx", lambda x, i, j, v: x.index_put_((i, j), v, accumulate=True), b, dup,
              idx([0, 0, 4, -5]), vals[0, :4], inplace=True, loose=True)
        check(f"{dt}{vn} index_put_ acc oob", lambda x, i, v: x.index_put_((i,), v, accumulate=True), b, idx([0, 9]),
              vals[:2], inplace=True)


def section_gather_scatter(dt):
    x = make(dt, (4, 5), 8)
    g = idx([[0, 4, 4], [1, 0, 3], [2, 2, 2]])
    perm = idx([[0, 4, 3], [1, 0, 2], [2, 1, 0]])
    src = make(dt, (3, 3), 9)
    for vn, v in (("", x), ("T", x.t().contiguous().t()), ("step", make(dt, (4, 10), 10)[:, ::2])):
        for d in (0, 1, -1):
            gg = g.clamp(max=v.shape[d] - 1)
            check(f"{dt}{vn} gather d={d}", lambda x, i, d=d: tl.gather(x, d, i), v, gg)
            check(f"{dt}{vn} take_along_dim d={d}", lambda x, i, d=d: tl.take_along_dim(x, i, d), v, gg)
            pp = perm if d else perm.t()  # no two writes to one element
            check(f"{dt}{vn} scatter_ src d={d}", lambda x, i, s, d=d: x.scatter_(d, i, s), v, pp, src, inplace=True)
            check(f"{dt}{vn} scatter_ value d={d}", lambda x, i, d=d: x.scatter_(d, i, 1), v, pp, inplace=True)
            if dt not in MOVE_ONLY:
                check(f"{dt}{vn} scatter_add_ d={d}", lambda x, i, s, d=d: x.scatter_add_(d, i, s), v, gg, src,
                      inplace=True, loose=True)
                check(f"{dt}{vn} scatter_reduce sum excl d={d}",
                      lambda x, i, s, d=d: x.scatter_reduce(d, i, s, "sum", include_self=False), v, gg, src, loose=True)
                for incl in (True, False):  # mean: the device's sums and counts, the CPU's division
                    check(f"{dt}{vn} scatter_reduce mean incl={incl} d={d}",
                          lambda x, i, s, d=d, incl=incl: x.scatter_reduce(d, i, s, "mean", include_self=incl),
                          v, gg, src, loose=True)
                for red in ("prod", "amax", "amin"):  # complex amax/amin: the same refusal on both
                    if red == "prod" and dt == "complex128":
                        continue  # no 16-byte compare-and-swap on the device: refused (below)
                    for incl in (True, False):
                        check(f"{dt}{vn} scatter_reduce {red} incl={incl} d={d}",
                              lambda x, i, s, d=d, red=red, incl=incl: x.scatter_reduce(d, i, s, red,
                                                                                       include_self=incl),
                              v, gg, src, loose=red == "prod")
        if dt not in MOVE_ONLY:  # index_reduce: scatter_reduce with the index spread over source's dims
            for d in (0, 1):
                s2 = make(dt, (3, 5) if d == 0 else (4, 3), 12)
                for red in ("prod", "mean", "amax", "amin"):
                    for incl in (True, False):
                        check(f"{dt}{vn} index_reduce {red} incl={incl} d={d}",
                              lambda x, i, s, d=d, red=red, incl=incl: x.index_reduce(d, i, s, red, include_self=incl),
                              v, idx([0, 2, 2]), s2, loose=red in ("prod", "mean"))
        check(f"{dt}{vn} gather oob", lambda x, i: tl.gather(x, 1, i), v, idx([[0, 5]]))
        check(f"{dt}{vn} gather neg", lambda x, i: tl.gather(x, 1, i), v, idx([[0, -1]]))
        check(f"{dt}{vn} scatter_ oob", lambda x, i, s: x.scatter_(0, i, s), v, idx([[0, 4]]), src, inplace=True)
    check(f"{dt} gather 0-d", lambda x, i: tl.gather(x, 0, i), make(dt, (), 11), idx(0))
    check(f"{dt} gather empty", lambda x, i: tl.gather(x, 1, i), x, tl.zeros(4, 0, dtype=tl.int64))


def section_select_take(dt):
    x = make(dt, (3, 4, 5), 12)
    for vn, v in (("", x), ("T", x.transpose(0, 2)), ("step", x[:, ::2])):
        for d in range(-3, 3):
            n = v.shape[d]
            for it in ("int64", "int32"):
                i = idx([n - 1, 0, n - 1, 1 % n], it)
                check(f"{dt}{vn} index_select d={d} {it}", lambda x, i, d=d: tl.index_select(x, d, i), v, i)
            check(f"{dt}{vn} index_select d={d} oob", lambda x, i, d=d: tl.index_select(x, d, i), v, idx([0, n]))
            check(f"{dt}{vn} index_select d={d} empty", lambda x, i, d=d: tl.index_select(x, d, i), v, idx([]))
        m = v.numel()
        check(f"{dt}{vn} take", lambda x, i: tl.take(x, i), v, idx([[0, m - 1], [-1, -m]]))
        check(f"{dt}{vn} take oob", lambda x, i: tl.take(x, i), v, idx([m]))
        check(f"{dt}{vn} put_", lambda x, i, s: x.put_(i, s), v, idx([0, 7, -1]), make(dt, (3,), 13), inplace=True)
        check(f"{dt}{vn} put_ oob", lambda x, i, s: x.put_(i, s), v, idx([0, m]), make(dt, (2,), 13), inplace=True)
        if dt not in MOVE_ONLY:
            check(f"{dt}{vn} put_ acc", lambda x, i, s: x.put_(i, s, accumulate=True), v, idx([5, 5, -1, 5]),
                  make(dt, (4,), 14), inplace=True, loose=True)
    check(f"{dt} index_select 0-d", lambda x, i: tl.index_select(x, 0, i), make(dt, (), 15), idx([0]))
    check(f"{dt} index_select of empty", lambda x, i: tl.index_select(x, 1, i), make(dt, (0, 3), 15), idx([2, 0]))
    check(f"{dt} index_select of empty oob", lambda x, i: tl.index_select(x, 1, i), make(dt, (0, 3), 15), idx([3]))
    y = make(dt, (4, 3), 16)
    check(f"{dt} index_copy_", lambda x, i, s: x.index_copy_(0, i, s), y, idx([3, 0]), make(dt, (2, 3), 17),
          inplace=True)
    check(f"{dt} index_fill_", lambda x, i: x.index_fill_(1, i, 1), y, idx([2, -3]), inplace=True)
    if dt not in MOVE_ONLY:
        check(f"{dt} index_add_", lambda x, i, s: x.index_add_(0, i, s), y, idx([3, 0, 3]), make(dt, (3, 3), 18),
              inplace=True, loose=True)


def section_masks(dt):
    """nonzero, argwhere, x[mask], masked_select (positions from a host copy, values moved on the device)."""
    x = make(dt, (3, 4, 5), 23)
    for vn, v in (("", x), ("T", x.transpose(0, 2)), ("step", x[:, ::2])):
        m = make("bool", v.shape, 24)
        check(f"{dt}{vn} nonzero", lambda x: tl.nonzero(x), v)
        check(f"{dt}{vn} nonzero tuple", lambda x: tl.nonzero(x, as_tuple=True), v)
        check(f"{dt}{vn} argwhere", lambda x: tl.argwhere(x), v)
        check(f"{dt}{vn} x[mask]", lambda x, m: x[m], v, m)
        check(f"{dt}{vn} x[mask row]", lambda x, m: x[m[:, 0, 0]], v, m)
        check(f"{dt}{vn} masked_select bcast", lambda x, m: tl.masked_select(x, m[0]), v, m)
        check(f"{dt}{vn} masked_select wrong shape", lambda x, m: tl.masked_select(x, m[:2]), v, m)
    check(f"{dt} nonzero 0-d", lambda x: tl.nonzero(x), make(dt, (), 25))
    check(f"{dt} nonzero empty", lambda x: tl.nonzero(x), make(dt, (0, 3), 25))
    check(f"{dt} masked_select 0-d", lambda x, m: tl.masked_select(x, m), make(dt, (), 26), tl.tensor(True))


def same_values(a, b):
    """Equal values (NaN equal to NaN, -0 to 0), dtype and shape."""
    a, b = a.cpu(), b.cpu()
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype in (tl.float16, tl.bfloat16, tl.float8_e4m3fn):
        a, b = a.double(), b.double()
    if a.dtype == tl.complex32:
        a, b = a.to(tl.complex64), b.to(tl.complex64)
    return np.array_equal(a.numpy(), b.numpy(), equal_nan=a.dtype.is_floating_point)


def no_nan(x):
    """x with NaN replaced by 0 (dtypes without NaN or without nan_to_num: as they are)."""
    return x.nan_to_num() if x.dtype in (tl.float16, tl.bfloat16, tl.float32, tl.float64) else x


def check_selected(what, f, x, d):
    """f(x) -> (values, indices) with dim d kept: the CPU's values; indices point at those values
    (among equal values, -0 and 0 included, the CPU reproduces torch's CPU selection order, the
    device takes the first in the row's order)."""
    COUNT[0] += 1
    rc, ec = outcome(lambda: f(x))
    rg, eg = outcome(lambda: f(x.cuda()))
    if ec is not None or eg is not None:
        if type(ec) is not type(eg) or str(ec) != str(eg):
            FAIL.append(f"{what}: CPU {type(ec).__name__}({ec}) vs device {type(eg).__name__}({eg})")
        return
    v, i = rg
    ok = v.is_cuda and i.is_cuda and same_values(v, rc[0]) and i.dtype == tl.int64
    if ok and x.dim() and v.numel():
        ok = same_values(tl.gather(x, d, i.cpu()), rc[0])
    if ok:
        ok = v.names == rc[0].names and i.names == rc[1].names
    if not ok:
        FAIL.append(f"{what}: device {v.cpu()} {i.cpu()} vs CPU {rc[0]} {rc[1]}")


def section_sort(dt):
    x = make(dt, (3, 4, 5), 27)
    if dt.startswith(("float", "bfloat")) and dt in DTYPES:  # specials: NaN above all, -0 == 0
        x = x.clone()
        x[0, 0, :4] = tl.tensor([float("nan"), -0.0, 0.0, float("-inf")]).to(x.dtype)
    for vn, v in (("", x), ("T", x.transpose(0, 2)), ("step", x[:, ::2])):
        for d in range(-3, 3):
            for desc in (False, True):
                check(f"{dt}{vn} sort d={d} desc={desc}", lambda x, d=d, desc=desc: tl.sort(x, d, desc), v)
            check(f"{dt}{vn} argsort d={d}", lambda x, d=d: tl.argsort(x, d, descending=True), v)
            for k in (0, 1, 3):
                check_selected(f"{dt}{vn} topk k={k} d={d}", lambda x, k=k, d=d: tl.topk(x, k, d), v, d)
                check_selected(f"{dt}{vn} topk smallest k={k} d={d}", lambda x, k=k, d=d: tl.topk(x, k, d, False), v, d)
            for k in (1, 2):
                check_selected(f"{dt}{vn} kthvalue k={k} d={d}", lambda x, k=k, d=d: tl.kthvalue(x, k, d, True), v, d)
            # mode: rows without NaN (the CPU reproduces torch's CPU introsort under `<`, where
            # NaNs land anywhere and split runs; the device's sort puts them last)
            check_selected(f"{dt}{vn} mode d={d}", lambda x, d=d: tl.mode(x, d, True), no_nan(v), d)
            for keep in (False, True):  # the CPU's stable sort: bit for bit, indices included
                check(f"{dt}{vn} median d={d} keepdim={keep}", lambda x, d=d, keep=keep: tl.median(x, d, keep), v)
                check(f"{dt}{vn} nanmedian d={d} keepdim={keep}", lambda x, d=d, keep=keep: tl.nanmedian(x, d, keep), v)
        check(f"{dt}{vn} msort", lambda x: tl.msort(x), v)
        check(f"{dt}{vn} sort stable", lambda x: tl.sort(x, stable=True), v)
    check(f"{dt} sort 0-d", lambda x: tl.sort(x), make(dt, (), 28))
    check(f"{dt} sort empty", lambda x: tl.sort(x, 0), make(dt, (0, 3), 28))
    check_selected(f"{dt} topk k too large", lambda x: tl.topk(x, 9, 0), x, 0)
    check_selected(f"{dt} kthvalue k too large", lambda x: tl.kthvalue(x, 9, 0), x, 0)
    check(f"{dt} median all", lambda x: tl.median(x), x)
    check(f"{dt} nanmedian all", lambda x: tl.nanmedian(x), x)
    check(f"{dt} median 0-d", lambda x: tl.median(x, 0), make(dt, (), 29))
    check(f"{dt} median empty dim", lambda x: tl.median(x, 0), make(dt, (0, 3), 29))
    nan_rows = tl.tensor([[float("nan")] * 4, [1.0, float("nan"), 0.5, 2.0]])
    check_selected(f"{dt} mode 0-d", lambda x: tl.mode(x, 0, True), make(dt, (), 31), 0)
    check_selected(f"{dt} mode empty", lambda x: tl.mode(x, 1, True), make(dt, (0, 3), 31), 1)
    check_selected(f"{dt} mode values", lambda x: tl.mode(x, 0, True), no_nan(x[:, 1:3, :2]), 0)
    if dt.startswith(("float", "bfloat")) and dt in DTYPES:
        check(f"{dt} median NaN rows", lambda x: tl.median(x, 1), nan_rows.to(getattr(tl, dt)))
        check(f"{dt} nanmedian NaN rows", lambda x: tl.nanmedian(x, 1), nan_rows.to(getattr(tl, dt)))
    check(f"{dt} sort bad dim", lambda x: tl.sort(x, 3), x)
    # unique: sort, group starts (select), counts and inverse on the device
    for vn, v in (("", x), ("step", x[:, ::2])):
        check(f"{dt}{vn} unique", lambda x: tl.unique(x), v)
        check(f"{dt}{vn} unique inverse counts", lambda x: tl.unique(x, return_inverse=True, return_counts=True), v)
    check(f"{dt} unique 0-d", lambda x: tl.unique(x, return_inverse=True, return_counts=True), make(dt, (), 30))
    check(f"{dt} unique empty", lambda x: tl.unique(x, return_inverse=True, return_counts=True), make(dt, (0, 2), 30))


def section_cat(dt):
    a, b = make(dt, (2, 3), 19), make(dt, (4, 3), 20)
    check(f"{dt} cat", lambda a, b: tl.cat([a, b]), a, b)
    check(f"{dt} cat T", lambda a, b: tl.cat([a.t(), b.t()], 1), a, b)
    check(f"{dt} cat legacy empty", lambda a, e: tl.cat([a, e, a], 0), a, tl.zeros(0, dtype=a.dtype))
    if dt not in MOVE_ONLY:  # a conversion into complex32/float8: no device arithmetic for those
        check(f"{dt} cat mixed dtypes", lambda a, b: tl.cat([a, b], 0), a, make("float32", (1, 3), 21))
    check(f"{dt} stack", lambda a, b: tl.stack([a, b[:2]], 1), a, b)
    check(f"{dt} cat mismatch", lambda a, b: tl.cat([a, b], 1), a, b)


def section_misc():
    x = tl.arange(24.0).reshape(2, 3, 4).rename("a", "b", "c")
    check("named index_select", lambda x, i: tl.index_select(x, "b", i), x, idx([2, 0]))
    check("named cat", lambda x: tl.cat([x, x], "c"), x)
    cl = tl.arange(48.0).reshape(2, 3, 2, 4).contiguous(memory_format=tl.channels_last)
    check("channels_last cat", lambda x: tl.cat([x, x], 1), cl)
    # devices: indices and sources on the CPU are refused as torch's dispatcher does
    xc = tl.ones(3, 4).cuda()
    for what, f in (("cat", lambda: tl.cat([xc, tl.ones(1, 4)])), ("index_select", lambda: tl.index_select(xc, 0, idx([0]))),
                    ("gather", lambda: tl.gather(xc, 0, idx([[0]])))):
        _, e = outcome(f)
        COUNT[0] += 1
        if type(e) is not RuntimeError or "Expected all tensors to be on the same device" not in str(e):
            FAIL.append(f"{what} across devices: {type(e).__name__}({e})")
    # x[i] and x[i] = v of a CUDA x take CPU index tensors (moved to the device), as torch's
    x = make("float32", (4, 5), 22)
    for what, f in (("x[cpu i]", lambda x: x[idx([3, -1])]), ("x[:, cpu i]", lambda x: x[:, idx([[4], [0]], "int32")]),
                    ("x[cpu bool mask]", lambda x: x[idx([True, False, True, True], "bool")])):
        COUNT[0] += 1
        r, e = outcome(lambda: f(x.cuda()))
        if e is not None or not r.is_cuda or bits(r) != bits(f(x)):
            FAIL.append(f"{what}: {e!r} {r}")
    y, yc = x.clone(), x.cuda()
    y[idx([0, 2])] = 5.0
    yc[idx([0, 2])] = 5.0
    COUNT[0] += 1
    if bits(y) != bits(yc):
        FAIL.append(f"x[cpu i] = 5: {yc.cpu()} vs {y}")
    b = tl.tensor([True, False, True])
    _, e = outcome(lambda: b.cuda().scatter_reduce(0, idx([0, 0]).cuda(), b[:2].cuda(), "mean"))
    COUNT[0] += 1
    if type(e) is not NotImplementedError or str(e) != "\"scatter_gather_tensor_cpu_reduce_mean\" not implemented for 'Bool'":
        FAIL.append(f"scatter_reduce mean of bool on the device: {type(e).__name__}({e})")
    _, e = outcome(lambda: make("complex128", (2, 2), 1).cuda().scatter_reduce(0, idx([[0, 1]]).cuda(),
                                                                              make("complex128", (1, 2), 2).cuda(),
                                                                              "prod"))
    COUNT[0] += 1
    if type(e) is not NotImplementedError or "complex128" not in str(e):
        FAIL.append(f"scatter_reduce prod of complex128 on the device: {type(e).__name__}({e})")
    # amax/amin of a float tensor with NaN: the NaN already there stays, else an incoming NaN wins
    nan = tl.tensor([[float("nan"), 1.0, 2.0], [3.0, float("nan"), 0.0]])
    for red in ("amax", "amin"):
        for incl in (True, False):
            check(f"scatter_reduce {red} NaN incl={incl}",
                  lambda x, i, s, red=red, incl=incl: x.scatter_reduce(0, i, s, red, include_self=incl),
                  nan, idx([[0, 0, 1], [1, 1, 0]]), nan.flip(1))
    if not REAL:
        n = len(LOG)
        tl.index_select(xc, 1, idx([2, 0]).cuda())
        COUNT[0] += 1
        if not any(e[0] == "index" for e in LOG[n:]):
            FAIL.append(f"index_select did not reach the index entry: {LOG[n:]}")


def main():
    for dt in DTYPES + MOVE_ONLY:
        section_index(dt)
        section_put(dt)
        section_gather_scatter(dt)
        section_select_take(dt)
        section_cat(dt)
        section_masks(dt)
        section_sort(dt)
    section_misc()
    names = tl.arange(6.0).reshape(2, 3).rename("a", "b")
    check("named sort", lambda x: tl.sort(x, "b", descending=True), names)
    check("named median", lambda x: tl.median(x, "b"), names)
    check_selected("named kthvalue", lambda x: tl.kthvalue(x, 2, 1, True), names, 1)


if __name__ == "__main__":
    main()
    report(FAIL, COUNT[0])
