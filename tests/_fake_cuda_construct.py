"""view_as_real/view_as_complex and a few of tensorlib/_construct.py's compositions (complex,
polar, kron, isin, block_diag, cartesian_prod, combinations, vander, unravel_index, the split
family, fill_diagonal_, sum_to_size) on "cuda" tensors of the host-memory stand-in backend
(tests/_fake_cuda.py). Each result must equal tensorlib's CPU result of the same call bit for bit
(values, dtype, shape, strides of the views) and stay on the device; the views must share the
device tensor's memory (a write through them shows); a call the CPU refuses must be refused on
the device with the same exception and message. Run as a script in a subprocess; prints
failures, then `failures N` and `ok N`. With TL_EW_REAL=1 the grid runs on a real CUDA device."""
import numpy as np

import _fake_cuda  # noqa: E402 (tests/ on the path)
from _grid import report, outcome  # noqa: E402

REAL, _ = _fake_cuda.for_grid()
import tensorlib as tl  # noqa: E402

FAIL, COUNT = [], [0]
DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "complex64", "complex128"]


def make(dt, shape, seed):
    rng = np.random.default_rng(seed)
    v = rng.integers(-4, 5, size=shape).astype(np.float64)
    if dt.startswith("complex"):
        v = v + 1j * rng.integers(-4, 5, size=shape)
    t = tl.tensor(v)
    if dt == "uint8":
        t = t.abs()
    return t.to(getattr(tl, dt))


def bits(x):
    x = x.cpu().contiguous()
    return x.view(tl.uint8).numpy().tobytes() if x.dim() else x.reshape(1).view(tl.uint8).numpy().tobytes()


def cmp(what, a, b):
    if isinstance(a, tl.Tensor):
        if str(b.device) == "cpu" and str(a.device) == "cpu" and a is not b:
            pass
        ok = (a.dtype == b.dtype and a.shape == b.shape and a.stride() == b.stride() and bits(a) == bits(b))
        if not ok:
            FAIL.append(f"{what}: {a.dtype} {tuple(a.shape)} {a.stride()} vs {b.dtype} {tuple(b.shape)} {b.stride()}")
        return
    if isinstance(a, tuple):
        if len(a) != len(b):
            FAIL.append(f"{what}: {len(a)} results vs {len(b)}")
            return
        for i, (p, q) in enumerate(zip(a, b)):
            cmp(f"{what}[{i}]", p, q)
        return
    if a != b:
        FAIL.append(f"{what}: {a!r} vs {b!r}")


def on_device(r):
    if isinstance(r, tuple):
        return all(on_device(x) for x in r)
    return not isinstance(r, tl.Tensor) or r.device.type == "cuda"


def close(a, b):
    """Values within a few units in the last place (the stand-in's cos/sin are the device kernels'
    scalar functions, the CPU's are vectorized)."""
    x, y = a.cpu().to(tl.complex128).numpy(), b.cpu().to(tl.complex128).numpy()
    return a.dtype == b.dtype and a.shape == b.shape and np.allclose(x, y, rtol=1e-6, atol=1e-6, equal_nan=True)


def check(what, f, *args, inplace=False, loose=False):
    """f(*args) on CPU tensors and on their device copies: the same bits or the same refusal."""
    COUNT[0] += 1
    cpu = [a.clone() if isinstance(a, tl.Tensor) else a for a in args]
    dev = [a.to("cuda") if isinstance(a, tl.Tensor) else a for a in args]
    rc, ec = outcome(lambda: f(*cpu))
    rd, ed = outcome(lambda: f(*dev))
    if ec is not None or ed is not None:
        if type(ec) is not type(ed) or str(ec) != str(ed):
            FAIL.append(f"{what}: cpu {type(ec).__name__}: {ec} / device {type(ed).__name__}: {ed}")
        return
    if not on_device(rd):
        FAIL.append(f"{what}: the result left the device")
        return
    if loose:
        if not close(rd, rc):
            FAIL.append(f"{what}: values differ beyond rounding")
        return
    cmp(what, rd, rc)
    if inplace:
        cmp(what + " (self)", dev[0], cpu[0])


def section_views(dt):
    for shape in ((), (3,), (2, 3), (0, 2), (3, 2), (2, 3, 2), (4, 4)):
        x = make(dt, shape, 1)
        views = [("", lambda v: v)]
        if x.dim() >= 2:  # made from the CPU and the device tensor alike
            views += [("T", lambda v: v.transpose(0, -1)), ("step", lambda v: v[::2]), ("offset", lambda v: v[1:])]
        for vn, vf in views:
            check(f"{dt}{shape}{vn} view_as_real", lambda v: tl.view_as_real(vf(v)), x)
            check(f"{dt}{shape}{vn} view_as_complex", lambda v: tl.view_as_complex(vf(v)), x)
    # the device views share the device memory
    if dt in ("complex64", "complex128"):
        d = make(dt, (2, 3), 2).to("cuda")
        r = tl.view_as_real(d)
        r[1, 2, 1] = 9
        COUNT[0] += 1
        if r.device.type != "cuda" or d[1, 2].cpu().item().imag != 9 or r._base is not d:
            FAIL.append(f"{dt} view_as_real on the device is not a view")
    if dt in ("float32", "float64", "float16"):
        d = make(dt, (3, 2), 3).to("cuda")
        c = tl.view_as_complex(d)
        c[1] = 4 - 2j
        COUNT[0] += 1
        if c.device.type != "cuda" or d[1].cpu().tolist() != [4.0, -2.0] or c._base is not d:
            FAIL.append(f"{dt} view_as_complex on the device is not a view")


def section_composed(dt):
    a, b = make(dt, (2, 3), 4), make(dt, (3,), 5)
    check(f"{dt} complex", tl.complex, a, b)
    check(f"{dt} polar", tl.polar, a, b, loose=True)
    check(f"{dt} kron", tl.kron, a, b)
    check(f"{dt} kron T", tl.kron, a.t(), b)
    check(f"{dt} block_diag", tl.block_diag, a, b, make(dt, (), 6))
    check(f"{dt} cartesian_prod", tl.cartesian_prod, b, make(dt, (2,), 7))
    check(f"{dt} combinations", tl.combinations, b, 2)
    check(f"{dt} combinations repl", lambda x: tl.combinations(x, 3, True), b)
    check(f"{dt} vander", tl.vander, b)
    check(f"{dt} isin small", tl.isin, a, make(dt, (2,), 8))
    check(f"{dt} isin sorting", tl.isin, make(dt, (4, 5), 9), make(dt, (40,), 10))
    check(f"{dt} isin scalar", lambda x: tl.isin(x, 1), a)
    for name in ("hsplit", "vsplit"):
        check(f"{dt} {name}", lambda x: getattr(tl, name)(x, [1]), a)
    check(f"{dt} dsplit", lambda x: tl.dsplit(x, 2), make(dt, (2, 2, 4), 11))
    check(f"{dt} split_with_sizes", lambda x: tl.split_with_sizes(x, [1, 2], 1), a)
    check(f"{dt} fill_diagonal_", lambda x: x.fill_diagonal_(1, True), make(dt, (7, 2), 12), inplace=True)
    check(f"{dt} sum_to_size", lambda x: x.sum_to_size(1, 3), a)
    check(f"{dt} new_empty_strided", lambda x: x.new_empty_strided((2, 3), (1, 2)).stride(), a)


def main():
    for dt in DTYPES:
        section_views(dt)
        section_composed(dt)
    check("unravel_index", lambda x: tl.unravel_index(x, (2, 3)), tl.tensor([4, 5, -1]))
    check("unravel_index int32", lambda x: tl.unravel_index(x, (4,)), tl.tensor([[1, 2]], dtype=tl.int32))
    for row, col, off in ((3, 4, 1), (4, 3, -1), (0, 3, 0), (5, 5, 10)):
        for name in ("tril_indices", "triu_indices"):
            COUNT[0] += 1
            d, c = getattr(tl, name)(row, col, off, device="cuda"), getattr(tl, name)(row, col, off)
            if d.device.type != "cuda":
                FAIL.append(f"{name} {row} {col} {off}: not on the device")
            cmp(f"{name} {row} {col} {off}", d, c)
    report(FAIL, COUNT[0])


main()
