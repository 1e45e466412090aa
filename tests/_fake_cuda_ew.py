"""The element-wise grid on "cuda" tensors of the host-memory stand-in backend
(tests/_fake_cuda.py): every call goes through the core's device path (devices, promotion,
allocation, the index calculator) and the backend's strided element-wise entry, whose stand-in
is the core's host runner of the same hd_math.h formulas the CUDA kernel runs. Each result is
compared with tensorlib's CPU result of the same call and with torch 2.13. Run as a script in
a subprocess (the registration lasts for the process): `python _fake_cuda_ew.py SECTION`;
prints failures, then `ok N` (N checks). With TL_EW_REAL=1 the grid runs on a real CUDA
device instead (tests/test_cuda.py), the CUDA kernel's results compared the same way (the
tolerances of the transcendental float ops cover libdevice's few ulps)."""
import math
import sys

import numpy as np
import torch


# TL_EW_REAL=1: the same grid on a real CUDA device (tests/test_cuda.py runs it where one is usable)
import _fake_cuda  # noqa: E402 (tests/ on the path)
from _grid import report  # noqa: E402

REAL, LOG = _fake_cuda.for_grid()
import tensorlib as tl  # noqa: E402

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "complex64", "complex128"]
UNARY = ("neg abs sign sgn ceil floor trunc round frac sqrt rsqrt square exp exp2 expm1 log log2 log10 log1p sin cos "
         "tan asin acos atan sinh cosh tanh asinh acosh atanh sigmoid relu gelu gelu_tanh silu mish erf erfc lgamma "
         "reciprocal deg2rad rad2deg angle conj_physical isnan isinf isposinf isneginf isfinite isreal signbit "
         "logical_not bitwise_not erfinv digamma").split()
BINARY = ("add sub mul div div_trunc div_floor remainder fmod pow atan2 hypot maximum minimum fmax fmin copysign xlogy "
          "logaddexp eq ne lt le gt ge logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor "
          "bitwise_left_shift bitwise_right_shift gcd lcm heaviside nextafter").split()
# float ops whose CPU kernels may take a vectorized path (docs/cuda.md): compared within a few ulps
RTOL = {"float16": 2e-3, "bfloat16": 1.6e-2, "float32": 2e-6, "float64": 1e-14, "complex64": 2e-6, "complex128": 1e-14}
FAIL = []
COUNT = [0]


def fn(mod, name):
    """The public callable of a backend op name (module tl or torch)."""
    if name == "gelu_tanh":
        f = mod.nn.functional.gelu if mod is torch else mod.gelu
        return lambda *a, **k: f(*a, approximate="tanh", **k)
    if name in ("div_trunc", "div_floor"):
        return lambda *a, **k: mod.div(*a, rounding_mode=name[4:], **k)
    if name in ("relu", "gelu", "silu", "mish") and mod is torch:
        return getattr(torch.nn.functional, name)
    return getattr(mod, name)


def values(dt, n, seed, nonzero=False):
    """n values of dtype dt (a name) on the CPU, tensorlib and torch: specials for floats;
    nonzero: integers without 0 (divisors: the CPU raises where the device math gives 0)."""
    rng = np.random.default_rng(seed)
    if dt == "bool":
        a = rng.integers(0, 2, n).astype(bool) | nonzero
    elif dt in ("uint8", "int8", "int16", "int32", "int64"):
        lo, hi = (0, 12) if dt == "uint8" else (-9, 10)
        a = rng.integers(lo, hi, n)
        if nonzero:
            a[a == 0] = 3
        a = a.astype(dt)
    else:
        base = np.concatenate([[0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -3.75, np.inf, -np.inf, np.nan, 1e-3, 40.0],
                               rng.uniform(-4, 4, max(n - 12, 0))])[:n]
        if dt.startswith("complex"):
            a = (base + 1j * np.roll(base, 3)).astype(dt)
        else:
            a = base.astype(np.float64)
    t = torch.from_numpy(np.ascontiguousarray(a))
    if dt in ("float16", "bfloat16", "float32"):
        t = t.to(getattr(torch, dt))
    x = tl.tensor(t.to(torch.float32).numpy() if dt == "bfloat16" else t.numpy())
    if dt == "bfloat16":
        x = x.to(tl.bfloat16)
    return x, t


def host(r):
    """A result as numpy (bfloat16/float16 widened exactly), from tl (any device) or torch."""
    if isinstance(r, torch.Tensor):
        if r.dtype in (torch.bfloat16, torch.float16):
            r = r.float()
        return r.numpy()
    r = r.cpu()
    if r.dtype in (tl.bfloat16, tl.float16):
        r = r.float()
    return r.numpy()


def same(got, want, dt, exact, what, finite_only=False, loose=1.0):
    """got (tl, device) equals want (tl CPU or torch): dtype, shape, values (NaN where NaN);
    finite_only: only where both are finite (torch's vectorized CPU paths differ from the
    mathematical answer at some special values, e.g. gelu(inf); tensorlib's CPU result is
    compared everywhere); loose scales the tolerance (torch's SIMD transcendental paths are
    less accurate in the tails than tensorlib's)."""
    COUNT[0] += 1
    g, w = host(got), host(want)
    if g.shape != w.shape or g.dtype != w.dtype:
        FAIL.append(f"{what}: shape/dtype {g.shape} {g.dtype} vs {w.shape} {w.dtype}")
        return
    if finite_only and g.dtype.kind in "fc":
        keep = np.isfinite(g) & np.isfinite(w)
        g, w = g[keep], w[keep]
    if exact or g.dtype.kind in "biu":
        ok = np.array_equal(g, w, equal_nan=True) if g.dtype.kind in "fc" else np.array_equal(g, w)
    else:
        with np.errstate(invalid="ignore"):
            r = RTOL.get(dt, 2e-6) * loose
            ok = np.allclose(g, w, rtol=r, atol=0, equal_nan=True) or np.allclose(g, w, rtol=r, atol=r * 1e-3, equal_nan=True)
    if not ok:
        bad = np.flatnonzero(~((g == w) | ((g != g) & (w != w)))) if g.dtype.kind in "fcb" else []
        FAIL.append(f"{what}: at {bad[:4]}: {g.ravel()[bad[:4]]} vs {w.ravel()[bad[:4]]}")


def attempt(f):
    try:
        return f(), None
    except Exception as e:  # noqa: BLE001 - the exception is the result compared
        return None, e


def compare(what, dt, call_dev, call_cpu, call_torch=None, exact=False, finite_only=False, call_expected=True, loose=1.0):
    """Runs a call on the device tensors and on the CPU: the same result, or the same error
    (a NotImplementedError naming cuda where the element math lacks the (op, dtype))."""
    n = len(LOG)
    got, ge = attempt(call_dev)
    want, we = attempt(call_cpu)
    if we is not None:
        COUNT[0] += 1
        if ge is None or type(ge) is not type(we) or str(ge) != str(we):
            FAIL.append(f"{what}: CPU raised {type(we).__name__}({we}), device gave {type(ge).__name__}({ge})")
        return "error"
    if ge is not None:
        COUNT[0] += 1
        if not (isinstance(ge, NotImplementedError) and "cuda tensor" in str(ge)):
            FAIL.append(f"{what}: device raised {type(ge).__name__}({ge})")
        return "refused"
    if not (isinstance(got, tl.Tensor) and got.is_cuda):
        FAIL.append(f"{what}: result not on cuda: {got!r}")
        return "bad"
    if call_expected and not REAL and not any(e[0] == "elementwise" for e in LOG[n:]) and got.numel() > 0:
        FAIL.append(f"{what}: no elementwise call reached the backend")
    try:
        same(got, want, dt, exact, what, finite_only, loose)
    except Exception as e:  # noqa: BLE001
        FAIL.append(f"{what}: comparing raised {type(e).__name__}({e}); result strides {got.stride()}")
        return "bad"
    if call_torch is not None:
        tw, te = attempt(call_torch)
        if te is None:
            same(got, tw, dt, False, what + " [torch]", True, 50.0)  # torch's SIMD paths may fuse
    return "ran"


def section_unary():
    ran = refused = 0
    for dt in DTYPES:
        x, t = values(dt, 40, 1)
        xs = x.reshape(5, 8)
        for name in UNARY:
            f, ft = fn(tl, name), fn(torch, name)
            if name == "conj_physical" and not dt.startswith("complex"):
                continue  # the tensor itself, as torch's (no call)
            # (complex functions: C99 Annex G's values as the CPU's, tests/test_cuda_cmath.py)
            fin = False
            # (signbit: tensorlib and torch make the NaN of the input with different signs)
            r = compare(f"{name}({dt})", dt, lambda: f(x.cuda()), lambda: f(x), None if name == "signbit" else lambda: ft(t),
                        finite_only=fin)
            ran += r == "ran"
            refused += r == "refused"
            if r != "ran":
                continue
            # non-contiguous: transposed, strided slice with an offset
            compare(f"{name}({dt}).T", dt, lambda: f(xs.cuda().t()), lambda: f(xs.t()), finite_only=fin)
            compare(f"{name}({dt})[1:, ::3]", dt, lambda: f(xs.cuda()[1:, ::3]), lambda: f(xs[1:, ::3]), finite_only=fin)
            compare(f"{name}({dt}) 0-d", dt, lambda: f(x[3].cuda()), lambda: f(x[3]), finite_only=fin)
            compare(f"{name}({dt}) empty", dt, lambda: f(x[:0].reshape(0, 4).cuda()), lambda: f(x[:0].reshape(0, 4)))
            # in place and out=
            if hasattr(tl.Tensor, name + "_"):
                def inplace(src, name=name):
                    y = src.clone() if not src.is_cuda else src.cpu().cuda()
                    getattr(y, name + "_")()
                    return y
                compare(f"{name}_({dt})", dt, lambda: inplace(xs.cuda()), lambda: inplace(xs), finite_only=fin)
            if name not in ("gelu", "gelu_tanh", "relu", "silu", "mish"):
                def with_out(src, odt, name=name, f=f):
                    o = tl.empty(0, dtype=odt, device=src.device)
                    r = f(src, out=o)
                    assert r is o
                    return o
                compare(f"{name}({dt}, out=float64)", dt, lambda: with_out(x.cuda(), tl.float64),
                        lambda: with_out(x, tl.float64), finite_only=fin)
    assert ran > 300 and refused < 200, (ran, refused)


def section_binary():
    ran = 0
    for dt in DTYPES:
        (a, ta), (b, tb) = values(dt, 24, 2), values(dt, 24, 3, nonzero=True)
        for name in BINARY:
            f, ft = fn(tl, name), fn(torch, name)
            # complex products and quotients: libgcc's recovery of infinities, as the CPU's
            fin = False
            # complex64 pow: glibc's cpowf rounds y log x to float (a few ulps times |y log x|)
            lo = 4.0 if dt == "complex64" and name == "pow" else 1.0
            r = compare(f"{name}({dt},{dt})", dt, lambda: f(a.cuda(), b.cuda()), lambda: f(a, b), lambda: ft(ta, tb), finite_only=fin, loose=lo)
            ran += r == "ran"
            if r != "ran":
                continue
            a2, b2 = a.reshape(4, 6), b.reshape(4, 6)
            # broadcasting (a row against a column), transposed and expanded operands, offsets
            compare(f"{name}({dt}) bcast", dt, lambda: f(a2[:, :1].cuda(), b2[:1].cuda()), lambda: f(a2[:, :1], b2[:1]), finite_only=fin, loose=lo)
            compare(f"{name}({dt}) T", dt, lambda: f(a2.cuda().t(), b.reshape(6, 4).cuda()), lambda: f(a2.t(), b.reshape(6, 4)), finite_only=fin, loose=lo)
            compare(f"{name}({dt}) expand", dt, lambda: f(a2.cuda()[1:2].expand(3, 6), b2.cuda()[1:, ::1]),
                    lambda: f(a2[1:2].expand(3, 6), b2[1:]), finite_only=fin, loose=lo)
            compare(f"{name}({dt}) 3-d step", dt, lambda: f(a.reshape(2, 3, 4).cuda()[:, ::2, 1:], b.reshape(2, 3, 4).cuda()[1:, :2, :3]),
                    lambda: f(a.reshape(2, 3, 4)[:, ::2, 1:], b.reshape(2, 3, 4)[1:, :2, :3]), finite_only=fin, loose=lo)
            compare(f"{name}({dt}) 0-d cuda", dt, lambda: f(a2.cuda(), b[5].cuda()), lambda: f(a2, b[5]), finite_only=fin, loose=lo)
            compare(f"{name}({dt}) 0-d cpu", dt, lambda: f(a2.cuda(), b[5]), lambda: f(a2, b[5]), finite_only=fin, loose=lo)
            compare(f"{name}({dt}) 0-d cpu first", dt, lambda: f(a[7], b2.cuda()), lambda: f(a[7], b2), finite_only=fin, loose=lo)
            compare(f"{name}({dt}) empty", dt, lambda: f(a2[:0].cuda(), b2[:1].cuda()), lambda: f(a2[:0], b2[:1]), finite_only=fin, loose=lo)
            for s in (2, -3, 1.5, True, 0.5 + 2j):
                compare(f"{name}({dt}, {s!r})", dt, lambda: f(a2.cuda(), s), lambda: f(a2, s),
                        lambda: ft(ta.reshape(4, 6), s), finite_only=fin, loose=lo)
            if hasattr(tl.Tensor, name + "_") and name not in ("div_trunc", "div_floor"):
                def inplace(x, y, name=name):
                    z = x.cpu().clone()
                    z = z.cuda() if x.is_cuda else z
                    getattr(z, name + "_")(y)
                    return z
                compare(f"{name}_({dt})", dt, lambda: inplace(a2.cuda(), b2[2].cuda()), lambda: inplace(a2, b2[2]), finite_only=fin, loose=lo)
                compare(f"{name}_({dt}, 3)", dt, lambda: inplace(a2.cuda(), 3), lambda: inplace(a2, 3), finite_only=fin, loose=lo)
            def with_out(x, y, odt, f=f):
                o = tl.empty(6, 4, dtype=odt, device=x.device).t()  # transposed: written through strides
                assert f(x, y, out=o) is o
                return o
            for odt in (tl.float64, tl.complex128, tl.int64, tl.bool):
                compare(f"{name}({dt}, out={odt})", dt, lambda: with_out(a2.cuda(), b2.cuda(), odt),
                        lambda: with_out(a2, b2, odt), finite_only=fin, loose=lo)
    assert ran > 250, ran


def section_mixed():
    """Operands of different dtypes: type promotion decided by the core, loads converting."""
    pairs = [("int32", "float32"), ("uint8", "int8"), ("float16", "bfloat16"), ("bool", "float64"), ("int64", "complex64"),
             ("float16", "float64"), ("int16", "float16"), ("bool", "uint8"), ("bfloat16", "complex128"), ("int8", "int64"),
             ("float32", "complex64"), ("bool", "int16")]
    for da, db in pairs:
        (a, ta), (b, tb) = values(da, 24, 4, nonzero=True), values(db, 24, 5, nonzero=True)
        for name in BINARY:
            f, ft = fn(tl, name), fn(torch, name)
            fin = False  # (complex: see section_binary)
            for x, y, tx, ty, w in ((a, b, ta, tb, da + "," + db), (b, a, tb, ta, db + "," + da)):
                dt = str(tl.result_type(x, y)).replace("tensorlib.", "")
                lo = 4.0 if dt == "complex64" and name == "pow" else 1.0
                compare(f"{name}({w})", dt, lambda: f(x.cuda(), y.cuda()), lambda: f(x, y), lambda: ft(tx, ty), finite_only=fin, loose=lo)
                # (a 0-d operand promotes less: the result's dtype names the tolerance)
                d0 = str(tl.result_type(x.reshape(4, 6), y[3])).replace("tensorlib.", "")
                compare(f"{name}({w}) 0-d", d0, lambda: f(x.reshape(4, 6).cuda(), y[3].cuda()),
                        lambda: f(x.reshape(4, 6), y[3]), finite_only=fin,
                        loose=4.0 if d0 == "complex64" and name == "pow" else 1.0)
    # the conversions themselves: a float16 out= of every dtype pair's sum, int results of floats
    for da in DTYPES:
        for db in DTYPES:
            (a, _), (b, _) = values(da, 16, 6), values(db, 16, 7)
            for odt in DTYPES:
                o = getattr(tl, odt)
                compare(f"add({da},{db}, out={odt})", odt, lambda: tl.add(a.cuda(), b.cuda(), out=tl.empty(16, dtype=o, device="cuda")),
                        lambda: tl.add(a, b, out=tl.empty(16, dtype=o)), exact=True)


def bits(t):
    """The bytes of a tensor's elements in row-major order (read on the host)."""
    t = t.cpu().contiguous()
    if t.dtype in (tl.float16, tl.bfloat16):
        t = t.view(tl.int16)
    return t.numpy().tobytes()


def section_copies():
    """Copies and casts on the device (the entry's identity op): Tensor.to(dtype), contiguous,
    clone, copy_ (broadcast, overlapping), .cpu() of a non-dense tensor; bit-exact with the CPU
    (every dtype pair: the converter has the CPU's cast rules)."""
    for da in DTYPES:
        x, _ = values(da, 24, 8)
        xs = x.reshape(4, 6)
        g = xs.cuda()
        for db in DTYPES:
            o = getattr(tl, db)
            for what, dev, cpu in (("to", lambda: g.t().to(o), lambda: xs.t().to(o)),
                                   ("copy_ bcast", lambda: tl.empty(3, 4, 6, dtype=o, device="cuda").copy_(g),
                                    lambda: tl.empty(3, 4, 6, dtype=o).copy_(xs)),
                                   ("slice to cpu", lambda: g[1:, ::2].to(o).cpu(), lambda: xs[1:, ::2].to(o))):
                COUNT[0] += 1
                got, ge = attempt(dev)
                want, we = attempt(cpu)
                if we is not None or ge is not None:
                    if type(ge) is not type(we) or str(ge) != str(we):
                        FAIL.append(f"{what} {da}->{db}: {ge!r} vs {we!r}")
                    continue
                if got.dtype != want.dtype or got.shape != want.shape or bits(got) != bits(want):
                    FAIL.append(f"{what} {da}->{db}: {got.cpu()} vs {want}")
        for what, dev, cpu in (("contiguous", lambda: g.t().contiguous(), lambda: xs.t().contiguous()),
                               ("clone", lambda: g[:, 1::2].clone(), lambda: xs[:, 1::2].clone()),
                               ("expand clone", lambda: g[:1].expand(3, 6).contiguous(), lambda: xs[:1].expand(3, 6).contiguous()),
                               ("non-dense cpu()", lambda: g[::2, ::3].cpu(), lambda: xs[::2, ::3])):
            COUNT[0] += 1
            got, want = dev(), cpu()
            if got.dtype != want.dtype or got.shape != want.shape or bits(got) != bits(want):
                FAIL.append(f"{what} {da}: {got.cpu()} vs {want}")
    # an overlapping copy: torch's (and the CPU's) error
    g = tl.arange(16.).reshape(4, 4).cuda()
    expect("copy_ of its own transpose", RuntimeError, "refer to a single memory location", lambda: g.copy_(g.t()))
    # a copy that only moves bytes (same dtype and strides) is the backend's copy, for every
    # dtype; a strided copy of a dtype without element math (uint16) moves it as the integers of
    # its size; a cast needs the element math, which lacks uint16
    expect("cast uint16", NotImplementedError, "copy_ is not implemented for cuda tensors of dtype uint16",
           lambda: tl.ones(3, 4, dtype=tl.uint16, device="cuda").int())
    u = (tl.arange(6).reshape(2, 3) * 9000).to(tl.uint16)
    COUNT[0] += 1
    if not (u.cuda().clone().cpu().tolist() == u.tolist() and u.t().cuda().clone().cpu().tolist() == u.t().tolist()
            and u.cuda().t().contiguous().cpu().tolist() == u.t().tolist()):
        FAIL.append("clone uint16: the bytes copy differs")
    # copy_ across the host and the device, as torch: the same dense order moves as bytes,
    # anything else (cast, broadcast, other strides, non-dense source) moves and then copies
    base = tl.arange(24, dtype=tl.float64).reshape(2, 3, 4)
    cases = [(base, tl.empty(2, 3, 4, dtype=tl.float64)),                       # bytes
             (base, tl.empty(2, 3, 4, dtype=tl.float32)),                       # cast
             (base.transpose(0, 2), tl.empty(4, 3, 2, dtype=tl.float64)),      # strides differ
             (base[:, ::2], tl.empty(2, 2, 4, dtype=tl.int32)),                # non-dense + cast
             (base[0, 0], tl.empty(5, 4, dtype=tl.float64)),                   # broadcast
             (tl.tensor(3.5), tl.empty(2, 2, dtype=tl.float16))]               # 0-d
    for src, dst in cases:
        want = dst.clone().copy_(src)
        for s_dev, d_dev in (("cuda", "cpu"), ("cpu", "cuda"), ("cuda", "cuda")):
            COUNT[0] += 1
            d = dst.to(d_dev)
            back = d.copy_(src.to(s_dev))
            got = d.cpu()
            if back is not d or got.dtype != want.dtype or got.tolist() != want.tolist():
                FAIL.append(f"copy_ {s_dev} -> {d_dev} of {tuple(src.shape)} {src.dtype} into "
                            f"{tuple(dst.shape)} {dst.dtype}: {got} vs {want}")
    t = tl.empty(4, 3, dtype=tl.float64, device="cuda").t()  # a transposed destination
    COUNT[0] += 1
    if t.copy_(base[0]).cpu().tolist() != base[0].tolist():
        FAIL.append("copy_ into a transposed CUDA tensor from the host")
    p = base.pin_memory()
    d = tl.empty(2, 3, 4, dtype=tl.float64, device="cuda").copy_(p, non_blocking=True)
    h = tl.empty(2, 3, 4, dtype=tl.float64).pin_memory().copy_(d, non_blocking=True)
    COUNT[0] += 1
    if h.tolist() != base.tolist():
        FAIL.append("copy_(non_blocking=True) between pinned memory and the device")
    # out= of the filling factories on the device: resized there, filled by the backend
    for name, args in (("zeros", (2, 3)), ("ones", (4,)), ("full", ((3,), 2.5)), ("empty", (5,))):
        COUNT[0] += 1
        o = tl.empty(2, dtype=tl.float64, device="cuda")
        r = getattr(tl, name)(*args, out=o)
        want = getattr(tl, name)(*args, dtype=tl.float64)
        if r is not o or not o.is_cuda or o.shape != want.shape or (name != "empty" and o.cpu().tolist() != want.tolist()):
            FAIL.append(f"{name}(out=cuda): {o} vs {want}")
    expect("copy_ of a wrong shape across devices", RuntimeError, "doesn't match the broadcast shape",
           lambda: tl.ones(3, device="cuda").copy_(tl.ones(2, 3)))
    expect("copy_ from a meta tensor", NotImplementedError,
           "Cannot copy out of meta tensor", lambda: tl.ones(3, device="cuda").copy_(tl.ones(3, device="meta")))


def expect(what, exc, msg, call):
    COUNT[0] += 1
    _, e = attempt(call)
    if not isinstance(e, exc) or msg not in str(e):
        FAIL.append(f"{what}: expected {exc.__name__}({msg}), got {type(e).__name__}({e})")


def section_errors():
    g, c = tl.ones(2, 3, device="cuda"), tl.ones(2, 3)
    same_dev = "Expected all tensors to be on the same device, but found at least two devices, "
    expect("cuda + cpu", RuntimeError, same_dev + "cuda:0 and cpu!", lambda: g + c)
    expect("cpu + cuda", RuntimeError, same_dev + "cpu and cuda:0!", lambda: c + g)
    expect("cuda.add_(cpu)", RuntimeError, same_dev + "cuda:0 and cpu!", lambda: g.add_(c))
    expect("cpu.mul_(cuda)", RuntimeError, same_dev + "cpu and cuda:0!", lambda: c.mul_(g))
    expect("cuda 0-d + cpu", RuntimeError, same_dev + "cuda:0 and cpu!", lambda: g[0, 0] + c)
    expect("out= on cpu", RuntimeError, "cross-device copies are not allowed", lambda: tl.add(g, g, out=tl.empty(2, 3)))
    # (clamp, add/sub with alpha, lerp, where, masked_fill, addcmul/addcdiv: section xops;
    # isclose, round(decimals=), logit, nan_to_num, erfinv, digamma: section xparams)
    h = tl.ones(3, dtype=tl.complex32, device="cuda")  # the CPU computes it in complex64; the backend list lacks it
    expect("complex32", NotImplementedError, "add is not implemented for cuda tensors of dtype complex32", lambda: h + h)
    # out='s dtype is checked before the kernel's dtypes, as torch's TensorIterator does
    expect("out uint16", RuntimeError, "result type Float can't be cast to the desired output type UInt16",
           lambda: tl.add(g, g, out=tl.empty(2, 3, dtype=tl.uint16, device="cuda")))
    gi = tl.ones(2, 3, dtype=tl.int32, device="cuda")
    expect("int out uint16", NotImplementedError, "add is not implemented for cuda tensors of dtype uint16",
           lambda: tl.add(gi, gi, out=tl.empty(2, 3, dtype=tl.uint16, device="cuda")))
    # refusals leave an out= untouched (decided before the resize)
    o = tl.empty(5, dtype=tl.uint16, device="cuda")
    _ = attempt(lambda: tl.add(g, g, out=o))
    COUNT[0] += 1
    if o.shape != (5,):
        FAIL.append(f"refused out= resized to {o.shape}")
    # ops with only a host kernel (histc) refuse device tensors at the gate instead of running it
    # on device memory (reductions: tests/test_cuda_reduce.py; the samplers and randperm:
    # tests/test_cuda_random.py; cat, sort, topk, unique: tests/test_cuda_index.py)
    for what, call in (("histc", lambda: tl.histc(g)),):
        expect(what, NotImplementedError, "with arguments from the 'CUDA' backend", call)
    # the CPU's own refusals and checks come first, with the CPU's messages
    i = tl.arange(6, device="cuda")
    expect("int // 0", RuntimeError, "ZeroDivisionError", lambda: i // 0)
    expect("bool - bool", RuntimeError, "Subtraction, the `-` operator, with two bool tensors", lambda: (i > 2) - (i > 2))
    expect("in-place broadcast", RuntimeError, "doesn't match the broadcast shape", lambda: g[0].add_(g))
    expect("int out of float", RuntimeError, "can't be cast to the desired output type", lambda: g.add_(0.5) if False else i.add_(0.5))
    # an integer division by a zero tensor on the device: 0, no error (the device is not read on the host)
    COUNT[0] += 1
    r = (i // tl.zeros(6, dtype=tl.int64, device="cuda")).cpu()
    if r.tolist() != [0] * 6:
        FAIL.append(f"int // zeros on the device: {r.tolist()}")


def section_geometry():
    """The index calculator the core builds: coalesced dims, broadcast strides, 0-d values."""
    if REAL:
        return
    h = tl.arange(24.).reshape(2, 3, 4)
    a = h.cuda()
    def last(call):
        n = len(LOG)
        call()
        ev = [e for e in LOG[n:] if e[0] == "elementwise"]
        return ev[-1] if ev else None
    for what, call, ndim in (("contiguous", lambda: a + a, 1), ("scalar", lambda: a * 2, 1),
                             ("0-d", lambda: a + a[0, 0, 0], 1), ("row bcast", lambda: a + a[0, 0], 2),
                             ("col bcast", lambda: a + a[:, :, :1], 2),
                             ("transposed", lambda: a + h.transpose(1, 2).contiguous().transpose(1, 2).cuda(), 3),
                             ("permuted input, result like it", lambda: a.permute(2, 0, 1) + 1, 1),
                             ("merged outer dims", lambda: a[:, :, :2] + 1, 2)):
        COUNT[0] += 1
        e = last(call)
        if e is None or e[4] != ndim:
            FAIL.append(f"{what}: call {e}, expected ndim {ndim}")
    COUNT[0] += 1
    if last(lambda: a[:0] + 1) is not None:
        FAIL.append("an empty result reached the backend")
    # results keep the input's layout where torch's does (a transposed input gives a transposed result)
    COUNT[0] += 1
    t = a.transpose(0, 2).exp()
    if t.stride() != a.transpose(0, 2).stride():
        FAIL.append(f"exp of a transposed input: strides {t.stride()}")
    # a large expanded operand: zero strides over a broadcast dim
    COUNT[0] += 1
    big = tl.arange(5.).cuda().expand(1000, 5) + tl.arange(1000.).reshape(1000, 1).cuda()
    if not tl.equal(big.cpu(), tl.arange(5.).expand(1000, 5) + tl.arange(1000.).reshape(1000, 1)):
        FAIL.append("expanded operands")


def section_xops():
    """The parameterised and three-input ops (the backend's xop list): clamp with number bounds,
    add/sub with alpha, lerp (number and tensor weight), where, masked_fill, addcmul, addcdiv,
    on every dtype, with broadcasting, transposed operands, numbers and 0-d CPU values, in place
    and out=. Bitwise against the CPU on the stand-in (the same formulas); torch within
    tolerance where the CPU ran."""
    ran = 0
    for dt in DTYPES:
        (a, ta), (b, tb), (c, tc) = values(dt, 24, 4), values(dt, 24, 5), values(dt, 24, 6, nonzero=True)
        a2, b2, c2 = a.reshape(4, 6), b.reshape(4, 6), c.reshape(4, 6)
        mask = values("bool", 24, 7)[0].reshape(4, 6)
        calls = {
            "clamp(-1, 2)": (lambda m, x, y, z: m.clamp(x, -1, 2)),
            "clamp(min=0.5)": (lambda m, x, y, z: m.clamp(x, min=0.5)),
            "clamp(max=1)": (lambda m, x, y, z: m.clamp(x, max=1)),
            "clamp(nan)": (lambda m, x, y, z: m.clamp(x, min=float("nan"))),
            "add alpha=3": (lambda m, x, y, z: m.add(x, y, alpha=3)),
            "add alpha=True": (lambda m, x, y, z: m.add(x, y, alpha=True)),
            "sub alpha=-2": (lambda m, x, y, z: m.sub(x, y, alpha=-2)),
            "add alpha=1.5": (lambda m, x, y, z: m.add(x, y, alpha=1.5)),
            "lerp 0.3": (lambda m, x, y, z: m.lerp(x, y, 0.3)),
            "lerp 0.75": (lambda m, x, y, z: m.lerp(x, y, 0.75)),
            "lerp tensor": (lambda m, x, y, z: m.lerp(x, y, z)),
            "where": (lambda m, x, y, z: m.where(z > 0 if z.dtype != m.bool else z, x, y)),
            "where scalar": (lambda m, x, y, z: m.where(x != 0, x, 2)),
            "masked_fill": (lambda m, x, y, z: x.masked_fill(y != 0, 5)),
            "addcmul": (lambda m, x, y, z: m.addcmul(x, y, z, value=2)),
            "addcdiv": (lambda m, x, y, z: m.addcdiv(x, y, z, value=-0.5)),
        }
        if dt.startswith("complex"):  # complex weights and values
            calls["lerp 0.3+0.3j"] = lambda m, x, y, z: m.lerp(x, y, 0.3 + 0.3j)
            calls["lerp -0.5j"] = lambda m, x, y, z: m.lerp(x, y, -0.5j)
            calls["addcdiv 1-2j"] = lambda m, x, y, z: m.addcdiv(x, y, z, value=1 - 2j)
        for name, f in calls.items():
            # complex products and quotients: libgcc's, with C99 Annex G's recovery of infinities
            fin = False
            r = compare(f"{name} {dt}", dt, lambda: f(tl, a2.cuda(), b2.cuda(), c2.cuda()), lambda: f(tl, a2, b2, c2),
                        lambda: f(torch, ta.reshape(4, 6), tb.reshape(4, 6), tc.reshape(4, 6)), exact=True,
                        finite_only=fin)
            ran += r == "ran"
            if r != "ran":
                continue
            # broadcasting and transposed operands, a 0-d CPU value, an out= of another dtype
            compare(f"{name} {dt} bcast", dt, lambda: f(tl, a2[:, :1].cuda(), b2[:1].cuda(), c2.cuda().t().t()),
                    lambda: f(tl, a2[:, :1], b2[:1], c2), exact=True, finite_only=fin)
            compare(f"{name} {dt} T", dt, lambda: f(tl, a.reshape(6, 4).cuda().t(), b2.cuda(), c.reshape(6, 4).cuda().t()),
                    lambda: f(tl, a.reshape(6, 4).t(), b2, c.reshape(6, 4).t()), exact=True, finite_only=fin)
            compare(f"{name} {dt} 0-d cpu", dt, lambda: f(tl, a2.cuda(), b[3], c2.cuda()), lambda: f(tl, a2, b[3], c2),
                    exact=True, finite_only=fin)
        # in place: clamp_, masked_fill_, addcmul_, lerp_ (self keeps its dtype)
        for name, f in (("clamp_", lambda x: x.clamp_(-1, 1)), ("masked_fill_", lambda x: x.masked_fill_(mask.to(x.device), 3)),
                        ("addcmul_", lambda x: x.addcmul_(x, x)), ("lerp_", lambda x: x.lerp_(x * 0 + 1 if x.dtype.is_floating_point else x, 0.5)),
                        ("add_ alpha", lambda x: x.add_(x, alpha=2))):
            compare(f"{name} {dt}", dt, lambda: f(a2.clone().cuda()), lambda: f(a2.clone()), exact=True,
                    finite_only=False)
    # errors come from the core, the CPU's messages
    g = tl.arange(6.).cuda()
    compare("where cond int", "float32", lambda: tl.where(g.int(), g, g), lambda: tl.where(g.cpu().int(), g.cpu(), g.cpu()))
    COUNT[0] += 1
    _, e = attempt(lambda: tl.where(g > 1, g, tl.ones(6)))
    if str(e) != "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!":
        FAIL.append(f"where across devices: {e!r}")
    assert ran > 100, ran


def section_xparams():
    """The registry's ops with parameters (the xop list's ISCLOSE, ROUND_DEC, LOGIT, NAN_TO_NUM)
    and erfinv, digamma: every dtype x the parameters' edge values (rtol/atol 0, equal_nan,
    negative and large decimals, eps None/0/0.5, nan/posinf/neginf given or not, beyond the
    dtype's range), on contiguous, transposed, sliced, broadcast, 0-d and empty operands, in
    place and out=. Bitwise against the CPU on the stand-in (the formulas are the CPU's, shared
    through kernels/hd_math.h); torch 2.13 within tolerance where the CPU ran. On a real
    device (TL_EW_REAL=1) the transcendental ones (logit, erfinv, digamma) within tolerance."""
    ran = 0
    for dt in DTYPES:
        x, t = values(dt, 24, 11)
        y, ty = values(dt, 24, 12)
        fl = dt.startswith(("float", "bfloat", "complex"))
        # near-equal partners and values inside (0, 1) for logit
        if fl:
            xn = (x.to(tl.complex128 if dt.startswith("complex") else tl.float64) * (1 + 3e-6)).to(x.dtype)
            tn = torch.from_numpy(host(xn)).to(t.dtype) if dt != "bfloat16" else torch.from_numpy(host(xn)).to(torch.bfloat16)
            # x mixed with its near-equal partner and with y: equal, close and far elements
            pick = values("bool", 24, 13)[0]
            yc, tyc = tl.where(pick, xn, y), torch.where(torch.from_numpy(host(pick)), tn, ty)
        else:
            yc, tyc = tl.where(values("bool", 24, 13)[0], x, y), torch.where(torch.from_numpy(host(values("bool", 24, 13)[0])), t, ty)
        calls = {}  # name: (op, keyword arguments, transcendental)
        for rtol, atol, en in ((1e-5, 1e-8, False), (0.0, 0.0, True), (1e-5, 1e-8, True), (0.1, 0.5, False),
                               (0.0, 2.0, True), (1e-3, 0.0, False)):
            calls[f"isclose({rtol}, {atol}, {en})"] = ("isclose", dict(rtol=rtol, atol=atol, equal_nan=en), False)
        for d in (1, 2, 3, -1, -2, 5, -20, 0):
            calls[f"round(decimals={d})"] = ("round", dict(decimals=d), False)
        for eps in (None, 0.0, 0.5, 0.25, 1e-6):
            calls[f"logit(eps={eps})"] = ("logit", dict(eps=eps), True)
        for kw in ({}, {"nan": 1.5}, {"nan": -2.0, "posinf": 1e3, "neginf": -1e3}, {"posinf": 1e39, "neginf": -0.0},
                   {"nan": 7, "neginf": 3}, {"posinf": float("inf")}):
            calls[f"nan_to_num({kw})"] = ("nan_to_num", kw, False)
        calls["erfinv"] = ("erfinv", {}, True)
        calls["digamma"] = ("digamma", {}, True)
        for name, (op, kw, transcendental) in calls.items():
            binary = op == "isclose"
            def f(m, a, b, op=op, kw=kw, binary=binary, **o):
                return getattr(m, op)(a, b, **kw) if binary else getattr(m, op)(a, **kw, **o)
            ex = not (REAL and transcendental)
            xa, ta = x, t
            if op == "logit" and fl:  # mostly inside (0, 1)
                xa = x * 0.125 + 0.5
                ta = torch.from_numpy(host(xa)).to(t.dtype)
            a2, b2 = xa.reshape(4, 6), yc.reshape(4, 6)
            # torch: isclose of bool and integers in float32 (tensorlib's CPU: x == y for bool,
            # double for integers), so not with atol >= 1 there; float16/bfloat16 logit rounds
            # x / (1 - x) to the half type (tensorlib's CPU: float32 throughout)
            skip_torch = (binary and not fl and kw["atol"] >= 1) or (op == "logit" and dt in ("float16", "bfloat16"))
            r = compare(f"{name} {dt}", dt, lambda: f(tl, a2.cuda(), b2.cuda()), lambda: f(tl, a2, b2),
                        None if skip_torch else lambda: f(torch, ta.reshape(4, 6), tyc.reshape(4, 6)), exact=ex)
            ran += r == "ran"
            if r != "ran":
                continue
            # transposed and sliced operands, a 0-d and an empty one
            compare(f"{name} {dt} T", dt, lambda: f(tl, a2.cuda().t(), yc.reshape(6, 4).cuda()),
                    lambda: f(tl, a2.t(), yc.reshape(6, 4)), exact=ex)
            compare(f"{name} {dt} [1:, ::3]", dt, lambda: f(tl, a2.cuda()[1:, ::3], b2.cuda()[1:, ::3]),
                    lambda: f(tl, a2[1:, ::3], b2[1:, ::3]), exact=ex)
            compare(f"{name} {dt} 0-d", dt, lambda: f(tl, xa[9].cuda(), yc[9].cuda()), lambda: f(tl, xa[9], yc[9]), exact=ex)
            compare(f"{name} {dt} empty", dt, lambda: f(tl, a2[:0].cuda(), b2[:0].cuda()), lambda: f(tl, a2[:0], b2[:0]))
            if binary:  # broadcasting, a number and a 0-d CPU tensor as the other operand
                compare(f"{name} {dt} bcast", dt, lambda: f(tl, a2[:, :1].cuda(), b2[:1].cuda()),
                        lambda: f(tl, a2[:, :1], b2[:1]), exact=ex)
                compare(f"{name} {dt} 0-d cpu", dt, lambda: f(tl, a2.cuda(), yc[4]), lambda: f(tl, a2, yc[4]), exact=ex)
                num = 2 + 0j if dt.startswith("complex") else 2.5 if fl else True if dt == "bool" else 2
                compare(f"{name} {dt} number", dt, lambda: f(tl, a2.cuda(), num), lambda: f(tl, a2, num),
                        None if skip_torch else lambda: f(torch, ta.reshape(4, 6), torch.tensor(num, dtype=ta.dtype)), exact=ex)
                continue
            # in place (self keeps its dtype: integers refuse a float result, as on the CPU) and out=
            def inplace(src, op=op, kw=kw):
                z = src.cpu().clone()
                z = z.cuda() if src.is_cuda else z
                getattr(z, op + "_")(**kw)
                return z
            compare(f"{name}_ {dt}", dt, lambda: inplace(a2.cuda()), lambda: inplace(a2), exact=ex)
            def with_out(src, odt, f=f):
                o = tl.empty(6, 4, dtype=odt, device=src.device).t()  # transposed: written through strides
                assert f(tl, src, None, out=o) is o
                return o
            for odt in (tl.float64, tl.float16, tl.complex128, tl.int64):
                compare(f"{name} {dt} out={odt}", dt, lambda: with_out(a2.cuda(), odt), lambda: with_out(a2, odt), exact=ex)
    # the parameter's checks are the CPU's, before the device is touched
    g = tl.arange(6.).cuda()
    expect("isclose rtol < 0", RuntimeError, "rtol must be greater than or equal to zero", lambda: tl.isclose(g, g, rtol=-1))
    expect("isclose dtypes", RuntimeError, "did not match", lambda: tl.isclose(g, g.double()))
    expect("round int decimals", NotImplementedError, "not implemented for 'Long'", lambda: tl.arange(3).cuda().round(decimals=1))
    assert ran > 150, ran


CMATH = ("sqrt rsqrt exp exp2 expm1 log log2 log10 log1p sin cos tan sinh cosh tanh sigmoid silu "
         "asin acos atan asinh acosh atanh").split()


def section_cmath():
    """Complex sqrt, log, pow and trigonometry (hd_math.h's formulas, the CPU's are glibc's): on
    finite arguments of every magnitude the dtype holds (zeros, the axes, near 1, tiny, large),
    contiguous and transposed, against the CPU within a few ulps (RTOL, relative to |result|)
    and torch 2.13; pow with complex, real and integer exponents."""
    rng = np.random.default_rng(21)
    for dt in ("complex64", "complex128"):
        big = 1e18 if dt == "complex64" else 1e150
        parts = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 1e-3, 1e-5, 3.0, -0.999, 1.001, 20.0, big, -1 / big])
        re = np.concatenate([np.repeat(parts, len(parts)), rng.uniform(-4, 4, 60)])
        im = np.concatenate([np.tile(parts, len(parts)), rng.uniform(-4, 4, 60)])
        z = (re + 1j * im).astype(dt)
        z = z[: (len(z) // 8) * 8]
        x, t = tl.tensor(z), torch.from_numpy(z)
        for name in CMATH:
            f, ft = fn(tl, name), fn(torch, name)
            # exp-like ops overflow for large real parts: only the moderate arguments
            keep = np.abs(z.real) < 30 if name in ("exp", "exp2", "expm1", "sinh", "cosh", "sigmoid", "silu", "sin", "cos",
                                                    "tan") else np.ones(len(z), bool)
            keep &= np.abs(z.imag) < 30 if name in ("sin", "cos", "tan", "sinh", "cosh", "exp", "exp2", "expm1") else True
            xs, ts = tl.tensor(z[keep]), torch.from_numpy(z[keep])
            compare(f"{name}({dt}) finite", dt, lambda: f(xs.cuda()), lambda: f(xs), lambda: ft(ts))
            n8 = (len(z[keep]) // 8) * 8
            compare(f"{name}({dt}) finite T", dt, lambda: f(xs[:n8].reshape(8, -1).cuda().t()), lambda: f(xs[:n8].reshape(8, -1).t()))
        base = x[(np.abs(z) < 1e3) & (np.abs(z) > 1e-3)]
        tb = torch.from_numpy(host(base))
        for e in (2, -3, 0.5, -1.5 + 0.5j, 3j, 0):
            compare(f"pow({dt}, {e!r}) finite", dt, lambda: base.cuda() ** e, lambda: base ** e, lambda: tb ** e)
        ex = base.flip(0) * (3 / float(np.abs(host(base)).max()))  # |exponent| <= 3
        compare(f"pow({dt}, tensor) finite", dt, lambda: tl.pow(base.cuda(), ex.cuda()), lambda: tl.pow(base, ex),
                lambda: torch.pow(tb, torch.from_numpy(host(ex))))


def section_cspecial():
    """C99 Annex G's special values of the complex functions, products, quotients and powers on
    the grid {+-0, +-tiny, +-1, +-huge, +-inf, nan, 0.5, -2}^2 through the device path, against
    the CPU (glibc, libgcc): NaN positions and infinities equal, other values within RTOL (the
    signs of zeros: bit for bit in tests/test_cuda_cmath.py on the element math itself)."""
    for dt in ("complex64", "complex128"):
        tiny, huge = (1e-30, 1e30) if dt == "complex64" else (1e-300, 1e300)
        v = np.array([0.0, -0.0, tiny, -tiny, 1.0, -1.0, huge, -huge, np.inf, -np.inf, np.nan, 0.5, -2.0])
        z = np.empty(len(v) ** 2, dt)
        z.real, z.imag = np.repeat(v, len(v)), np.tile(v, len(v))
        x = tl.tensor(z)
        for name in CMATH + ["reciprocal", "square", "sgn"]:
            f = fn(tl, name)
            compare(f"{name}({dt}) special", dt, lambda: f(x.cuda()), lambda: f(x))
        n = len(z)
        a, b = tl.tensor(np.repeat(z, n)), tl.tensor(np.tile(z, n))
        for name in ("mul", "div"):
            f = fn(tl, name)
            compare(f"{name}({dt}) special", dt, lambda: f(a.cuda(), b.cuda()), lambda: f(a, b))
        # pow: exponents whose y log x keeps a meaningful phase (|y| < 1e6)
        keep = np.abs(np.tile(z, n)) < 1e6
        keep |= ~np.isfinite(np.tile(z, n))
        pa, pb = tl.tensor(np.repeat(z, n)[keep]), tl.tensor(np.tile(z, n)[keep])
        compare(f"pow({dt}) special", dt, lambda: tl.pow(pa.cuda(), pb.cuda()), lambda: tl.pow(pa, pb),
                loose=4.0 if dt == "complex64" else 1.0)


if __name__ == "__main__":
    globals()["section_" + sys.argv[1]]()
    report(FAIL, COUNT[0])
