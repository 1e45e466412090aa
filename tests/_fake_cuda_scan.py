"""The scan grid (cumsum, cumprod, cummax, cummin) on "cuda" tensors of the host-memory
stand-in backend (tests/_fake_cuda.py): every call goes through the core's device path (torch's
dim and dtype rules, the rows built from the tensor's geometry) and the backend's scan entry,
whose stand-in is the core's host runner of the kernels/hd_scan.h row function the CUDA kernel
runs. Each result must equal tensorlib's CPU result of the same call bit for bit (values,
indices, dtype, names) and torch 2.13's within float tolerance; a call the CPU refuses must be
refused on the device with the same exception and message. Run as a script in a subprocess:
`python _fake_cuda_scan.py`; prints failures, then `failures N` and `ok N`. With TL_EW_REAL=1
the grid runs on a real CUDA device (the same bits: one row per thread, in the CPU's order)."""

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
    return x.cpu().rename(None).reshape(-1).contiguous().view(tl.uint8).tolist() if x.numel() else []


def same_refusal(what, ec, eg):
    COUNT[0] += 1
    if type(ec) is not type(eg) or str(ec) != str(eg):
        FAIL.append(f"{what}: CPU {type(ec).__name__}({ec}) vs device {type(eg).__name__}({eg})")


def check(what, f, xc, xt):
    rc, ec = outcome(lambda: f(tl, xc))
    rg, eg = outcome(lambda: f(tl, xc.cuda()))
    if ec is not None or eg is not None:
        return same_refusal(what, ec, eg)
    rc = rc if isinstance(rc, tuple) else (rc,)
    rg = rg if isinstance(rg, tuple) else (rg,)
    for a, b in zip(rc, rg):
        COUNT[0] += 1
        same = bits(a) == bits(b)
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
                    for op in ("cumsum", "cumprod", "cummax", "cummin"):
                        f = (lambda m, x, op=op, dim=dim, v=v: tuple(getattr(m, op)(v(m, x), dim))
                             if op in ("cummax", "cummin") else getattr(m, op)(v(m, x), dim))
                        check(f"{op} {dt} {shape}{vname} dim={dim}", f, xc, xt)
                    for odt in ("float64", "int32", "complex64"):
                        f = (lambda m, x, dim=dim, odt=odt, v=v: m.cumsum(v(m, x), dim, dtype=getattr(m, odt)))
                        check(f"cumsum {dt} {shape}{vname} dim={dim} dtype={odt}", f, xc, xt)
    # names stay; errors as the CPU's
    x = tl.arange(6.0).reshape(2, 3).rename("a", "b")
    check("named cumsum", lambda m, y: m.cumsum(y, "b") if m is tl else m.cumsum(y, 1), x, torch.arange(6.0).reshape(2, 3))
    check("dim out of range", lambda m, y: m.cumsum(y, 5), tl.ones(2, 2), torch.ones(2, 2))
    check("bool dtype", lambda m, y: m.cumsum(y, 0, dtype=m.bool), tl.ones(2, 2), torch.ones(2, 2))


if __name__ == "__main__":
    main()
    report(FAIL, COUNT[0])
