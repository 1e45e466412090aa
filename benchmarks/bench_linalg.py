"""Linear algebra and random benchmark rows: tensorlib vs NumPy vs torch, plus a direct
ctypes call of the bundled OpenBLAS sgemm as the anchor for matmul at 2048.

Each row is a dict {"tensorlib": fn, "numpy": fn, "torch": fn}; run this file to print
median times and ratios (or feed ROWS to benchmarks/harness.py's bench())."""
import ctypes
import glob
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tensorlib as tl  # noqa: E402

try:
    import torch
except ImportError:  # pragma: no cover
    torch = None


def _pair(n, dtype):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)).astype(dtype)
    b = rng.standard_normal((n, n)).astype(dtype)
    return a, b


def matmul_row(n, dtype):
    a, b = _pair(n, dtype)
    ta, tb = tl.from_numpy(a), tl.from_numpy(b)
    row = {"tensorlib": lambda: ta @ tb, "numpy": lambda: a @ b}
    if torch is not None:
        xa, xb = torch.from_numpy(a), torch.from_numpy(b)
        row["torch"] = lambda: xa @ xb
    return row


def matmul_transposed_row(n=1024):
    a, b = _pair(n, np.float32)
    ta, tb = tl.from_numpy(a), tl.from_numpy(b)
    row = {"tensorlib": lambda: ta.t() @ tb, "numpy": lambda: a.T @ b}
    if torch is not None:
        xa, xb = torch.from_numpy(a), torch.from_numpy(b)
        row["torch"] = lambda: xa.t() @ xb
    return row


def bmm_row(batch=64, n=128):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((batch, n, n)).astype(np.float32)
    b = rng.standard_normal((batch, n, n)).astype(np.float32)
    ta, tb = tl.from_numpy(a), tl.from_numpy(b)
    row = {"tensorlib": lambda: tl.bmm(ta, tb), "numpy": lambda: np.matmul(a, b)}
    if torch is not None:
        xa, xb = torch.from_numpy(a), torch.from_numpy(b)
        row["torch"] = lambda: torch.bmm(xa, xb)
    return row


def randn_row(n=10_000_000):
    rng = np.random.default_rng(0)
    row = {"tensorlib": lambda: tl.randn(n), "numpy": lambda: rng.standard_normal(n, dtype=np.float32)}
    if torch is not None:
        row["torch"] = lambda: torch.randn(n)
    return row


def direct_sgemm_row(n=2048):
    """The anchor: cblas_sgemm of the OpenBLAS tensorlib links, called through ctypes."""
    libs = glob.glob(os.path.join(os.path.dirname(tl.__file__), "libscipy_openblas*.so")) or \
        glob.glob(os.path.join(os.path.dirname(tl.__file__), "*openblas*.so*"))
    if not libs:
        return None
    lib = ctypes.CDLL(libs[0])
    fn = getattr(lib, "scipy_cblas_sgemm", None) or getattr(lib, "cblas_sgemm")
    a, b = _pair(n, np.float32)
    c = np.empty((n, n), np.float32)
    fp = ctypes.POINTER(ctypes.c_float)
    args = (101, 111, 111, n, n, n, ctypes.c_float(1.0), a.ctypes.data_as(fp), n, b.ctypes.data_as(fp), n,
            ctypes.c_float(0.0), c.ctypes.data_as(fp), n)
    ta, tb = tl.from_numpy(a), tl.from_numpy(b)
    return {"tensorlib": lambda: ta @ tb, "sgemm": lambda: fn(*args)}


def svdvals_row(batch, n, dtype):
    a = np.random.default_rng(0).standard_normal((batch, n, n)).astype(dtype)
    ta = tl.from_numpy(a)
    row = {"tensorlib": lambda: tl.linalg.svdvals(ta), "numpy": lambda: np.linalg.svd(a, compute_uv=False)}
    if torch is not None:
        xa = torch.from_numpy(a)
        row["torch"] = lambda: torch.linalg.svdvals(xa)
    return row


def nuc_norm_row(n=256):
    a = np.random.default_rng(0).standard_normal((n, n))
    ta = tl.from_numpy(a)
    row = {"tensorlib": lambda: tl.norm(ta, p="nuc"), "numpy": lambda: np.linalg.norm(a, "nuc")}
    if torch is not None:
        xa = torch.from_numpy(a)
        row["torch"] = lambda: torch.norm(xa, p="nuc")
    return row


def lapack_row(op, n=256, batch=None, dtype=np.float64):
    """solve / inv / svd / eigh / cholesky of well-conditioned n x n matrices (a batch of
    them when batch is given): the LAPACK drivers through each library's own binding."""
    rng = np.random.default_rng(0)
    shape = (n, n) if batch is None else (batch, n, n)
    a = rng.standard_normal(shape).astype(dtype)
    a = (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(dtype)  # SPD, so cholesky/eigh apply
    b = rng.standard_normal(shape[:-1] + (1,)).astype(dtype)
    fns = {"solve": (lambda m: m.linalg.solve, "solve"), "inv": (lambda m: m.linalg.inv, "inv"),
           "svd": (lambda m: m.linalg.svd, "svd"), "eigh": (lambda m: m.linalg.eigh, "eigh"),
           "cholesky": (lambda m: m.linalg.cholesky, "cholesky")}
    get, _ = fns[op]
    ta, tb = tl.from_numpy(a), tl.from_numpy(b)
    args = {"tensorlib": (ta, tb), "numpy": (a, b)}
    libs = {"tensorlib": tl, "numpy": np}
    if torch is not None:
        args["torch"] = (torch.from_numpy(a), torch.from_numpy(b))
        libs["torch"] = torch
    row = {}
    for k, lib in libs.items():
        f, (x, y) = get(lib), args[k]
        row[k] = (lambda f=f, x=x, y=y: f(x, y)) if op == "solve" else (lambda f=f, x=x: f(x))
    return row


def cross_row(dim):
    rng = np.random.default_rng(0)
    shape = (333334, 3) if dim == 1 else (3, 333334)
    a, b = rng.standard_normal(shape).astype(np.float32), rng.standard_normal(shape).astype(np.float32)
    ta, tb = tl.from_numpy(a), tl.from_numpy(b)
    row = {"tensorlib": lambda: tl.cross(ta, tb, dim=dim), "numpy": lambda: np.cross(a, b, axis=dim)}
    if torch is not None:
        xa, xb = torch.from_numpy(a), torch.from_numpy(b)
        row["torch"] = lambda: torch.cross(xa, xb, dim=dim)
    return row


def trace_row(n=1000):
    a = np.random.default_rng(0).standard_normal((n, n)).astype(np.float32)
    ta = tl.from_numpy(a)
    row = {"tensorlib": lambda: tl.trace(ta), "numpy": lambda: np.trace(a)}
    if torch is not None:
        xa = torch.from_numpy(a)
        row["torch"] = lambda: torch.trace(xa)
    return row


def renorm_row(p, dim, n=1000):
    a = np.random.default_rng(0).standard_normal((n, n)).astype(np.float32)
    ta = tl.from_numpy(a)

    def np_renorm():
        norms = np.linalg.norm(a, ord=p, axis=1 - dim)
        f = np.where(norms > 5.0, 5.0 / (norms + 1e-7), 1.0).astype(np.float32)
        return a * (f[:, None] if dim == 0 else f[None, :])
    row = {"tensorlib": lambda: tl.renorm(ta, p, dim, 5.0), "numpy": np_renorm}
    if torch is not None:
        xa = torch.from_numpy(a)
        row["torch"] = lambda: torch.renorm(xa, p, dim, 5.0)
    return row


ROWS = {
    **{f"matmul f32 {n}": (lambda n=n: matmul_row(n, np.float32)) for n in (64, 512, 2048)},
    **{f"matmul f64 {n}": (lambda n=n: matmul_row(n, np.float64)) for n in (64, 512, 2048)},
    "matmul f32 1024 transposed lhs": matmul_transposed_row,
    "bmm f32 64x(128x128)": bmm_row,
    "svdvals f32 256x(16x16)": lambda: svdvals_row(256, 16, np.float32),
    "svdvals f64 1x(512x512)": lambda: svdvals_row(1, 512, np.float64),
    "norm nuc f64 256x256": nuc_norm_row,
    **{f"linalg.{op} f64 256x256": (lambda op=op: lapack_row(op)) for op in ("solve", "inv", "svd", "eigh",
                                                                            "cholesky")},
    "linalg.solve f64 512x(8x8)": lambda: lapack_row("solve", 8, 512),
    "linalg.inv f32 512x(8x8)": lambda: lapack_row("inv", 8, 512, np.float32),
    "cross f32 (333334,3) dim=1": lambda: cross_row(1),
    "cross f32 (3,333334) dim=0": lambda: cross_row(0),
    "trace f32 1000x1000": trace_row,
    "renorm f32 1000x1000 p=2 dim=0": lambda: renorm_row(2, 0),
    "renorm f32 1000x1000 p=2 dim=1": lambda: renorm_row(2, 1),
    "renorm f32 1000x1000 p=3 dim=0": lambda: renorm_row(3, 0),
    "randn f32 1e7": randn_row,
    "direct sgemm 2048 (anchor)": direct_sgemm_row,
}


def _time(fn, min_time=0.3, max_reps=200):
    fn()
    times = []
    start = time.perf_counter()
    while len(times) < 3 or (time.perf_counter() - start < min_time and len(times) < max_reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def main():
    print(f"threads: {tl.get_num_threads()}")
    for name, make in ROWS.items():
        row = make()
        if row is None:
            continue
        t = {k: _time(f) for k, f in row.items()}
        base = t["tensorlib"]
        ratios = "  ".join(f"{k}/tl={v / base:.2f}" for k, v in t.items() if k != "tensorlib")
        print(f"{name:32s} tl={base * 1e3:9.3f} ms  {ratios}")


if __name__ == "__main__":
    main()
