"""The scan grid (cumsum, cumprod, cummax, cummin, logcumsumexp) on "cuda" tensors of the host-memory
stand-in backend (tests/_fake_cuda.py): every call goes through the core's device path (torch's
dim and dtype rules, the rows built from the tensor's geometry) and the backend's scan entry,
whose stand-in is the core's host runner of the kernels/hd_scan.h row function the CUDA kernel
runs. Each result must equal tensorlib's CPU result of the same call bit for bit (values,
indices, dtype, names) and torch 2.13's within float tolerance; a call the CPU refuses must be
refused on the device with the same exception and message. Run as a script in a subprocess:
`python _fake_cuda_scan.py`; prints failures, then `failures N` and `ok N`. With TL_EW_REAL=1
the grid runs on a real CUDA device, with long rows added (1-D 10^6 elements, (3, 100000) along
dim 1, a transposed and a stepped one): rows shorter than 2048 run one row per thread in the
CPU's order (the same bits), long ones through CUB's device-wide scans (csrc/cuda/scan.cu), where
integer scans and cummax/cummin still give the CPU's bits and float/complex cumsum/cumprod
equal it within rounding (LONG_ROW, close_to_cpu)."""

import numpy as np
import torch

import _fake_cuda  # noqa: E402 (tests/ on the path)
from _grid import report, outcome  # noqa: E402

REAL, _ = _fake_cuda.for_grid()
import tensorlib as tl  # noqa: E402

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "complex64", "complex128"]
FAIL = []
COUNT = [0]
LONG_ROW = 2048  # scan.cu's kLongRow: from this length the device may add in CUB's order
# twice the unit roundoff of the output (a double result rounded once more) for long-row float
# cumsum/cumprod against the CPU; float64 also allows the double sums' own reordering
RTOL = {"float16": 2 ** -10, "bfloat16": 2 ** -7, "float32": 2 ** -23, "complex64": 2 ** -23, "float64": 1e-9,
        "complex128": 1e-9}


def make(dt, shape, seed):
    rng = np.random.default_rng(seed)
    v = rng.standard_normal(shape) * 3
    if dt == "bool":
        v = v > 0
    elif dt.startswith(("int", "uint")):
        v = np.round(v)
        if dt == "uint8":
            v = np.abs(v)
    if dt.startswith("complex"):
        v = v + 1j * rng.standard_normal(shape)
    if dt.startswith(("float", "bfloat", "complex")) and v.size > 3:
        flat = v.reshape(-1)
        flat[1] = np.nan
        flat[-2] = np.inf
    t = torch.tensor(v).to(getattr(torch, dt))
    return tl.from_dlpack(t.contiguous()) if dt != "bfloat16" else tl.tensor(t.float().numpy()).to(tl.bfloat16), t


def bits(x):
    return x.cpu().rename(None).reshape(-1).contiguous().view(tl.uint8).numpy().tobytes() if x.numel() else b""


def same_but_nan(a, b):
    """The same bits but where both hold a NaN (of any sign/payload: which NaN float arithmetic
    passes on differs between x86 and a GPU), part by part for complex."""
    an, bn = (t.cpu().rename(None) for t in (a, b))
    an, bn = ((t.float() if t.dtype == tl.bfloat16 else t).numpy().reshape(-1) for t in (an, bn))
    if an.dtype.kind == "c":
        an, bn = an.view(an.real.dtype), bn.view(bn.real.dtype)
    na, nb = np.isnan(an), np.isnan(bn)
    return np.array_equal(na, nb) and an[~na].tobytes() == bn[~nb].tobytes()


def close_to_cpu(a, b):
    """A long-row float/complex cumsum/cumprod of the device (b) against the CPU's (a): within
    the output's rounding (NaN where the CPU has NaN, infinities equal)."""
    an, bn = (t.cpu().rename(None) for t in (a, b))
    an, bn = ((t.float() if t.dtype == tl.bfloat16 else t).numpy() for t in (an, bn))
    rtol = 2 * RTOL[str(a.dtype).replace("tensorlib.", "")]
    return np.allclose(bn, an, rtol=rtol, atol=1e-6, equal_nan=True)


def same_refusal(what, ec, eg):
    COUNT[0] += 1
    if type(ec) is not type(eg) or str(ec) != str(eg):
        FAIL.append(f"{what}: CPU {type(ec).__name__}({ec}) vs device {type(eg).__name__}({eg})")


def check(what, f, xc, xt, rounding=False):
    """rounding: a float/complex cumsum/cumprod of rows long enough for the device's CUB path,
    which equals the CPU within rounding there (exact on the stand-in, the CPU's own loop)."""
    rc, ec = outcome(lambda: f(tl, xc))
    rg, eg = outcome(lambda: f(tl, xc.cuda()))
    if ec is not None or eg is not None:
        return same_refusal(what, ec, eg)
    rc = rc if isinstance(rc, tuple) else (rc,)
    rg = rg if isinstance(rg, tuple) else (rg,)
    for a, b in zip(rc, rg):
        COUNT[0] += 1
        same = bits(a) == bits(b)
        if not same and REAL and (a.dtype.is_floating_point or a.dtype.is_complex) and a.shape == b.shape:
            same = same_but_nan(a, b)
        if not same and REAL and rounding and (a.dtype.is_floating_point or a.dtype.is_complex) and a.shape == b.shape:
            same = close_to_cpu(a, b)
        if not same and a.dtype.is_complex and a.shape == b.shape:
            # the CPU's complex product is C99 Annex G's (__muldc3), the device's the plain formula:
            # the same values, but a NaN may carry another sign or payload
            same = np.array_equal(a.rename(None).numpy(), b.cpu().rename(None).numpy(), equal_nan=True)
        if not b.is_cuda or a.dtype != b.dtype or a.shape != b.shape or a.names != b.names or not same:
            FAIL.append(f"{what}: device {b.cpu() if b.is_cuda else b} vs CPU {a}")
    rt, et = outcome(lambda: f(torch, xt))
    if et is None:
        rt = rt if isinstance(rt, tuple) else (rt,)
        COUNT[0] += 1
        a, t = rg[0].cpu(), rt[0]
        if a.dtype.is_complex or t.dtype.is_complex:
            ok = np.allclose(a.numpy(), t.numpy(), rtol=1e-2, atol=1e-2, equal_nan=True)
        elif str(t.dtype) in ("torch.bfloat16", "torch.float16"):
            ok = np.allclose(a.float().numpy(), t.float().numpy(), rtol=2e-2, atol=1e-1, equal_nan=True)
        else:
            ok = np.allclose(a.numpy().astype(np.float64), t.numpy().astype(np.float64), rtol=1e-5, atol=1e-6,
                             equal_nan=True)
        if not ok:
            FAIL.append(f"{what}: device {a} vs torch {t}")


def make_long(dt, shape, op, seed, axis=-1):
    """Long rows: uniform values (near 1 for cumprod, so products stay finite), ties (quarters,
    small integers), -0.0 beside 0.0, and for floats two NaNs late in each row along `axis` (the
    last NaN's index for cummax/cummin) where not a product."""
    rng = np.random.default_rng(seed)
    if dt == "bool":
        v = rng.integers(0, 2, shape) > 0
    elif dt.startswith(("int", "uint")):
        v = rng.integers(0 if dt == "uint8" else -3, 4, shape)
    elif op == "cumprod":
        v = 1 + rng.uniform(-1, 1, shape) * 2.0 ** -8
    else:
        v = np.round(rng.uniform(-1, 1, shape) * 4) / 4
        v[v == 0] = np.where(rng.integers(0, 2, (v == 0).sum()) > 0, -0.0, 0.0)
    if dt.startswith("complex"):
        v = v + 1j * (rng.uniform(-1, 1, shape) * (2.0 ** -8 if op == "cumprod" else 1))
    if dt.startswith(("float", "bfloat")) and op != "cumprod":
        v = np.moveaxis(v, axis, -1)  # a view: the NaNs land in v
        n = v.shape[-1]
        v[..., (3 * n) // 4] = np.nan
        v[..., (7 * n) // 8] = np.nan
        v = np.moveaxis(v, -1, axis)
    t = torch.tensor(v).to(getattr(torch, dt))
    return tl.from_dlpack(t.contiguous()) if dt != "bfloat16" else tl.tensor(t.float().numpy()).to(tl.bfloat16), t


def long_rows():
    """The real device's CUB path (csrc/cuda/scan.cu): rows of >= LONG_ROW elements, few rows."""
    # (stored shape, scanned dim of the view, the rows' axis in storage, view name, view)
    cases = [((1000000,), 0, 0, "", lambda m, x: x), ((3, 100000), 1, 1, "", lambda m, x: x),
             ((100000, 3), 1, 0, "T", lambda m, x: x.transpose(0, 1)),
             ((3, 10000), 1, 1, "step", lambda m, x: x[:, ::2])]
    for dt in ("bool", "uint8", "int32", "int64", "float16", "bfloat16", "float32", "float64", "complex64",
               "complex128"):
        for si, (shape, dim, axis, vname, v) in enumerate(cases):
            ops = [(op, None) for op in ("cumsum", "cumprod", "cummax", "cummin")
                   if op in ("cumsum", "cumprod") or not dt.startswith("complex")]
            if dt in ("int32", "float16"):
                ops.append(("cumsum", "float64"))
            if dt.startswith(("float", "bfloat", "complex")):
                ops.append(("logcumsumexp", None))
            for op, odt in ops:
                xc, xt = make_long(dt, shape, op, si, axis)
                if odt:
                    f = (lambda m, x, dim=dim, v=v, odt=odt: m.cumsum(v(m, x), dim, dtype=getattr(m, odt)))
                else:
                    f = (lambda m, x, op=op, dim=dim, v=v: tuple(getattr(m, op)(v(m, x), dim))
                         if op in ("cummax", "cummin") else getattr(m, op)(v(m, x), dim))
                check(f"long {op} {dt} {shape}{vname} dim={dim}" + (f" dtype={odt}" if odt else ""), f, xc, xt,
                      rounding=op in ("cumsum", "cumprod", "logcumsumexp") and not dt.startswith(("bool", "int", "uint")))


def main():
    shapes = [(), (0,), (7,), (3, 5), (2, 3, 4)]
    for dt in DTYPES:
        for si, shape in enumerate(shapes):
            xc, xt = make(dt, shape, si)
            views = [("", lambda m, x: x)]
            if len(shape) >= 2:
                views += [("T", lambda m, x: x.transpose(0, -1)), ("step", lambda m, x: x[..., ::2])]
            for vname, v in views:
                for dim in range(-max(len(shape), 1), max(len(shape), 1)):
                    for op in ("cumsum", "cumprod", "cummax", "cummin", "logcumsumexp"):
                        f = (lambda m, x, op=op, dim=dim, v=v: tuple(getattr(m, op)(v(m, x), dim))
                             if op in ("cummax", "cummin") else getattr(m, op)(v(m, x), dim))
                        check(f"{op} {dt} {shape}{vname} dim={dim}", f, xc, xt)
                    for odt in ("float64", "int32", "complex64"):
                        f = (lambda m, x, dim=dim, odt=odt, v=v: m.cumsum(v(m, x), dim, dtype=getattr(m, odt)))
                        check(f"cumsum {dt} {shape}{vname} dim={dim} dtype={odt}", f, xc, xt)
    if REAL:
        long_rows()
    # names stay; errors as the CPU's
    x = tl.arange(6.0).reshape(2, 3).rename("a", "b")
    check("named cumsum", lambda m, y: m.cumsum(y, "b") if m is tl else m.cumsum(y, 1), x, torch.arange(6.0).reshape(2, 3))
    check("dim out of range", lambda m, y: m.cumsum(y, 5), tl.ones(2, 2), torch.ones(2, 2))
    check("bool dtype", lambda m, y: m.cumsum(y, 0, dtype=m.bool), tl.ones(2, 2), torch.ones(2, 2))


if __name__ == "__main__":
    main()
    report(FAIL, COUNT[0])
