"""Indexing/joining benchmark rows: cat of 100 tensors, gather and index_select of 1e6,
boolean-mask select of 1e6 — tensorlib vs NumPy vs torch. Each row is a dict of callables
in the shape benchmarks/harness.py's bench(name, {...}) takes; run this file directly for
a standalone timing table (best of several repeats)."""
import time

import numpy as np

import tensorlib as tl

try:
    import torch
except ImportError:  # pragma: no cover
    torch = None

N = 1_000_000


def rows():
    rng = np.random.default_rng(0)
    out = {}
    parts = [rng.standard_normal((100, 100)).astype(np.float32) for _ in range(100)]
    tp = [tl.from_numpy(p) for p in parts]
    out["cat 100 x (100,100) f32 dim0"] = {"tensorlib": lambda: tl.cat(tp), "numpy": lambda: np.concatenate(parts)}
    src = rng.standard_normal(N).astype(np.float32)
    idx = rng.integers(0, N, N)
    ts, ti = tl.from_numpy(src), tl.from_numpy(idx)
    out["index_select 1e6 f32"] = {"tensorlib": lambda: tl.index_select(ts, 0, ti), "numpy": lambda: src.take(idx)}
    out["gather 1e6 f32"] = {"tensorlib": lambda: tl.gather(ts, 0, ti),
                             "numpy": lambda: np.take_along_axis(src, idx, 0)}
    rows = rng.standard_normal((N // 4, 4)).astype(np.float32)
    ridx = rng.integers(0, N // 4, N // 4)
    tr, tri = tl.from_numpy(rows), tl.from_numpy(ridx)
    out["index_select (2.5e5,4) f32 dim0 rows"] = {"tensorlib": lambda: tl.index_select(tr, 0, tri),
                                                   "numpy": lambda: rows.take(ridx, axis=0)}
    out["take 1e6 f32"] = {"tensorlib": lambda: tl.take(ts, ti), "numpy": lambda: src.take(idx)}
    zeros = np.zeros(N, np.float32)
    tz = tl.from_numpy(zeros)
    out["scatter_add 1e6 f32"] = {"tensorlib": lambda: tz.scatter_add(0, ti, ts),
                                  "numpy": lambda: np.add.at(zeros.copy(), idx, src)}
    m2, i2 = src.reshape(1000, 1000), idx.reshape(1000, 1000) % 1000
    tm2, ti2 = tl.from_numpy(m2), tl.from_numpy(i2)
    out["scatter_add (1000,1000) f32 dim0"] = {"tensorlib": lambda: tm2.scatter_add(0, ti2, tm2)}
    vi = idx[:1000] % 1000
    tvi = tl.from_numpy(vi)
    out["index_add (1000,1000) f32 dim0"] = {"tensorlib": lambda: tm2.index_add(0, tvi, tm2)}
    mask = src > 0
    tm = tl.from_numpy(mask)
    out["mask select 1e6 f32 x[mask]"] = {"tensorlib": lambda: ts[tm], "numpy": lambda: src[mask]}
    out["masked_select 1e6 f32"] = {"tensorlib": lambda: tl.masked_select(ts, tm), "numpy": lambda: src[mask]}
    if torch is not None:
        cp = [torch.from_numpy(p) for p in parts]
        sr, ir, mr = torch.from_numpy(src), torch.from_numpy(idx), torch.from_numpy(mask)
        out["cat 100 x (100,100) f32 dim0"]["torch"] = lambda: torch.cat(cp)
        out["index_select 1e6 f32"]["torch"] = lambda: torch.index_select(sr, 0, ir)
        rr, rri = torch.from_numpy(rows), torch.from_numpy(ridx)
        out["index_select (2.5e5,4) f32 dim0 rows"]["torch"] = lambda: torch.index_select(rr, 0, rri)
        out["take 1e6 f32"]["torch"] = lambda: torch.take(sr, ir)
        zr, m2r, i2r, vir = torch.from_numpy(zeros), torch.from_numpy(m2), torch.from_numpy(i2), torch.from_numpy(vi)
        out["scatter_add 1e6 f32"]["torch"] = lambda: zr.scatter_add(0, ir, sr)
        out["scatter_add (1000,1000) f32 dim0"]["torch"] = lambda: m2r.scatter_add(0, i2r, m2r)
        out["index_add (1000,1000) f32 dim0"]["torch"] = lambda: m2r.index_add(0, vir, m2r)
        out["gather 1e6 f32"]["torch"] = lambda: torch.gather(sr, 0, ir)
        out["mask select 1e6 f32 x[mask]"]["torch"] = lambda: sr[mr]
        out["masked_select 1e6 f32"]["torch"] = lambda: torch.masked_select(sr, mr)
    return out


def _best(fn, reps=15):
    fn()
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main():
    print(f"{'row':34s} {'tensorlib':>10s} {'numpy':>10s} {'torch':>10s}  tl/np  tl/torch")
    for name, fns in rows().items():
        t = {k: _best(f) for k, f in fns.items()}
        tt, tn, to = t["tensorlib"], t.get("numpy"), t.get("torch")
        print(f"{name:34s} {tt * 1e3:9.3f}ms {(tn or 0) * 1e3:9.3f}ms {(to or 0) * 1e3:9.3f}ms  "
              f"{tt / tn if tn else float('nan'):5.2f}  {tt / to if to else float('nan'):5.2f}")


if __name__ == "__main__":
    main()
