"""Thread-count rows: the same op at 1 and at 2 threads, idle or with the other core busy.

    python benchmarks/threads.py [--loaded] [--rounds 15] [--threads 1,2]
    python benchmarks/threads.py --modules elementwise,reduce,core,index [--filter RE] [--loaded]

--loaded starts a Python busy loop (same niceness as this process) for the duration and
kills it afterwards, as a laptop with a browser or a shared CI runner would. Rounds are
interleaved (every row at every thread count, then again), and the table gives the
median and 90th percentile per call in ms, plus the ratio of the medians to 1 thread.
--modules takes the tensorlib callables of those benchmarks/bench_*.py rows instead of the
built-in ones (each sample then makes as many calls as fill about 20 ms). The table also
gives the ratio of CPU time per call (process time, all threads) to the 1-thread wall time,
which says how much work the second thread adds. Run from the repository root (the in-place
build first on sys.path); not part of run.py because its question is tensorlib against
itself, not against the peers.
"""
import argparse
import importlib
import os
import re
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.getcwd())
import tensorlib as tl  # noqa: E402


def rows():
    rng = np.random.default_rng(0)
    out = {}
    for n, label in ((10**6, "1e6"), (10**7, "1e7")):
        a = tl.from_numpy(rng.standard_normal(n).astype(np.float32))
        o = tl.empty(n, dtype=tl.float32)
        out[f"add {label} f32 out="] = (lambda a=a, o=o: tl.add(a, a, out=o))
    src = tl.from_numpy(rng.standard_normal(10**7).astype(np.float32))
    dst = tl.empty(10**7, dtype=tl.float32)
    out["copy_ 1e7 f32"] = lambda: dst.copy_(src)
    out["sum 1e7 f32"] = lambda: src.sum()
    x = tl.from_numpy(rng.standard_normal((64, 128, 128)).astype(np.float32))
    out["bmm 64x128^3 f32"] = lambda: tl.bmm(x, x)
    return out


def module_rows(modules, pattern):
    """The tensorlib callables of the named benchmarks/bench_*.py modules' rows."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    out = {}
    for m in modules:
        mod = importlib.import_module("bench_" + m)
        rows = mod.rows() if hasattr(mod, "rows") else getattr(mod, "ROWS", [])
        rows = list(rows.items()) if isinstance(rows, dict) else list(rows)
        for name, impls in rows:
            if pattern and not pattern.search(f"{m}: {name}"):
                continue
            impls = impls() if callable(impls) else impls
            if impls.get("tensorlib") is not None:
                out[f"{m}: {name}"] = impls["tensorlib"]
    return out


def _calls(f, target=0.02):
    t0 = time.perf_counter()
    f()
    dt = time.perf_counter() - t0
    return max(1, min(1000, int(target / max(dt, 1e-7))))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--loaded", action="store_true", help="keep the other core busy with a Python loop")
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--calls", type=int, default=5, help="timed calls per row per round")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--modules", default=None, help="comma-separated bench_*.py modules (e.g. elementwise,reduce)")
    p.add_argument("--filter", default=None, help="regex on 'module: row name' (with --modules)")
    args = p.parse_args()
    counts = [int(t) for t in args.threads.split(",")]
    busy = None
    if args.loaded:
        # a pure Python loop that ends by itself if this process dies without killing it
        loop = "import os\np = os.getppid()\nwhile os.getppid() == p:\n    for _ in range(10**6): pass"
        busy = subprocess.Popen([sys.executable, "-c", loop])
        time.sleep(0.5)
    try:
        if args.modules:
            r = module_rows(args.modules.split(","), re.compile(args.filter) if args.filter else None)
        else:
            r = rows()
        times = {(name, nt): [] for name in r for nt in counts}
        cpu = {(name, nt): [] for name in r for nt in counts}
        ncalls = {}
        for name, f in r.items():  # warm up: workers started, pages touched
            for nt in counts:
                tl.set_num_threads(nt)
                f()
            ncalls[name] = _calls(f) if args.modules else args.calls
        for _ in range(args.rounds):
            for nt in counts:
                tl.set_num_threads(nt)
                for name, f in r.items():
                    k = ncalls[name]
                    if args.modules:  # one sample of k calls
                        c0, t0 = time.process_time(), time.perf_counter()
                        for _ in range(k):
                            f()
                        times[(name, nt)].append((time.perf_counter() - t0) / k)
                        cpu[(name, nt)].append((time.process_time() - c0) / k)
                        continue
                    for _ in range(k):
                        c0, t0 = time.process_time(), time.perf_counter()
                        f()
                        times[(name, nt)].append(time.perf_counter() - t0)
                        cpu[(name, nt)].append(time.process_time() - c0)
    finally:
        if busy is not None:
            busy.kill()
            busy.wait()
    mode = "other core busy" if args.loaded else "idle"
    per = "samples" if args.modules else f"rounds x {args.calls} calls"
    print(f"{mode}; median / p90 ms per call over {args.rounds} interleaved {per}; load average "
          + " ".join(f"{v:.1f}" for v in os.getloadavg()))
    head = ("| row | " + " | ".join(f"{nt} thr median | p90" for nt in counts)
            + " | median ratio | CPU / 1-thr wall |")
    print(head)
    print("|" + "---|" * (2 * len(counts) + 3))
    for name in r:
        cells, med = [], {}
        for nt in counts:
            v = np.array(times[(name, nt)]) * 1e3
            med[nt] = np.median(v)
            cells.append(f"{med[nt]:.3f} | {np.percentile(v, 90):.3f}")
        ratio = " / ".join(f"{med[nt] / med[counts[0]]:.2f}" for nt in counts[1:])
        cpur = " / ".join(f"{np.median(cpu[(name, nt)]) / (med[counts[0]] / 1e3):.2f}" for nt in counts)
        print(f"| {name} | " + " | ".join(cells) + f" | {ratio} | {cpur} |")


if __name__ == "__main__":
    main()
