"""Benchmark harness: times tensorlib, NumPy and torch on the same workload in one process.

Usage (see benchmarks/README.md):

    import harness
    harness.configure(threads=2)          # before NumPy/torch are imported
    np, torch, tl = harness.libs()        # torch is None when not installed
    harness.bench("zeros 1e7", {"tensorlib": lambda: tl.zeros(10**7),
                                "numpy": lambda: np.zeros(10**7, np.float32),
                                "torch": lambda: torch.zeros(10**7)})
    harness.report()                      # prints the table, writes results/latest.{json,md}

Each implementation is a callable taking no arguments (build its inputs beforehand, outside
the timed call). A value of None skips that implementation. The reported time is the median
per-call time over repeated samples; implementations are sampled round-robin so that drift in
machine load hits all of them alike.
"""
import glob
import json
import os
import platform
import statistics
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS_DIR = os.path.join(HERE, "results")

_state = {"threads": None, "quick": False, "unset_env": [], "limiter": None, "clock": "wall"}


def _now():
    """The benchmark clock: wall time, or CPU time (configure(cpu_time=True)): the calling
    thread's at one thread, the whole process's (every thread's, summed) at more."""
    c = _state["clock"]
    return time.perf_counter() if c == "wall" else time.thread_time() if c == "thread" else time.process_time()
results = []


def configure(threads=None, quick=False, cpu_time=False):
    """Set the thread count for every library and the time budget. Call before NumPy or
    torch are imported: without threadpoolctl the OMP/OpenBLAS variables must be set first,
    and OPENBLAS_CORETYPE/OPENBLAS_L2_SIZE (set on some machines for old OpenBLAS builds;
    they slow a current NumPy) are removed from this process's environment."""
    threads = threads or os.cpu_count() or 1
    _state["threads"], _state["quick"] = threads, quick
    _state["clock"] = ("thread" if threads == 1 else "process") if cpu_time else "wall"
    for var in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        if var in os.environ:
            if "numpy" in sys.modules:
                print(f"harness: {var} is set but NumPy is already imported; it stays in effect",
                      file=sys.stderr)
            else:
                del os.environ[var]
                _state["unset_env"].append(var)
    try:
        import threadpoolctl
    except ImportError:
        threadpoolctl = None
        for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ[var] = str(threads)
    np, torch, tl = libs()
    if threadpoolctl is not None:
        _state["limiter"] = threadpoolctl.threadpool_limits(threads)
    if torch is not None:
        torch.set_num_threads(threads)
    tl.set_num_threads(threads)


def libs():
    """Return (numpy, torch or None, tensorlib)."""
    import numpy
    try:
        import torch
    except ImportError:
        torch = None
    repo = os.path.dirname(HERE)
    # The in-place build of this checkout when there is one, else an installed tensorlib.
    if glob.glob(os.path.join(repo, "tensorlib", "_C*.so")) and repo not in sys.path:
        sys.path.insert(0, repo)
    import tensorlib
    return numpy, torch, tensorlib


def _calibrate(fn, target):
    """Warm up fn and return how many calls make one sample of about `target` seconds."""
    fn()
    t0 = _now()
    fn()
    once = _now() - t0
    if once >= target:
        return 1
    n = 1
    while True:
        t0 = _now()
        for _ in range(n):
            fn()
        dt = _now() - t0
        if dt >= target or n >= 1 << 20:
            return max(1, int(n * target / max(dt, 1e-9)))
        n *= 4


def time_impls(impls, budget=None, min_samples=5, max_samples=50):
    """Median per-call seconds of each callable in impls (a dict); errors are returned
    as strings in a second dict instead of times."""
    quick = _state["quick"]
    budget = budget if budget is not None else (0.08 if quick else 0.6)  # seconds per impl
    min_samples = 3 if quick else min_samples
    target = budget / 10
    loops, times, errors = {}, {}, {}
    for name, fn in impls.items():
        if fn is None:
            continue
        try:
            loops[name] = _calibrate(fn, target)
            times[name] = []
        except Exception as e:  # noqa: BLE001 - a failing impl is reported, not fatal
            errors[name] = f"{type(e).__name__}: {e}".splitlines()[0][:200]
    spent = {name: 0.0 for name in loops}
    while loops:
        for name in list(loops):
            fn, n = impls[name], loops[name]
            try:
                t0 = _now()
                for _ in range(n):
                    fn()
                dt = _now() - t0
            except Exception as e:  # noqa: BLE001
                errors[name] = f"{type(e).__name__}: {e}".splitlines()[0][:200]
                del loops[name], times[name]
                continue
            times[name].append(dt / n)
            spent[name] += dt
            k = len(times[name])
            if k >= max_samples or (k >= min_samples and spent[name] >= budget):
                del loops[name]
    return {name: statistics.median(ts) for name, ts in times.items()}, errors


def bench(name, impls, setup=None, group=None):
    """Time one row. impls: {"tensorlib": fn, "numpy": fn, "torch": fn} (zero-argument
    callables; None skips one). setup: optional zero-argument callable run first that returns
    the impls dict instead (so inputs are built only when the row runs). Returns the row."""
    row = {"name": name, "group": group, "times": {}, "errors": {}, "ratio": None, "best_peer": None}
    try:
        if setup is not None:
            impls = setup()
        row["times"], row["errors"] = time_impls(impls)
    except Exception as e:  # noqa: BLE001
        row["errors"]["setup"] = f"{type(e).__name__}: {e}".splitlines()[0][:200]
        traceback.print_exc(limit=3, file=sys.stderr)
    peers = {k: v for k, v in row["times"].items() if k != "tensorlib"}
    if "tensorlib" in row["times"] and peers:
        best = min(peers, key=peers.get)
        row["best_peer"], row["ratio"] = best, row["times"]["tensorlib"] / peers[best]
    results.append(row)
    print(_line(row), flush=True)
    return row


def _fmt_time(t):
    if t is None:
        return "-"
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6)):
        if t >= scale:
            return f"{t / scale:.3g} {unit}"
    return f"{t / 1e-9:.3g} ns"


def _line(row):
    parts = [f"{k}={_fmt_time(v)}" for k, v in row["times"].items()]
    parts += [f"{k}: ERROR {v}" for k, v in row["errors"].items()]
    ratio = f"ratio {row['ratio']:.2f} vs {row['best_peer']}" if row["ratio"] is not None else "no ratio"
    return f"{row['name']:<44} {ratio:<24} " + "  ".join(parts)


def memory_bandwidth(nbytes=400 * 10**6):
    """Copy rate of np.copyto on nbytes (GB/s of data copied; memory traffic is twice that)."""
    import numpy as np
    src = np.ones(nbytes // 8)
    dst = np.empty_like(src)
    np.copyto(dst, src)
    best = min(_timed(lambda: np.copyto(dst, src)) for _ in range(5))
    return nbytes / best / 1e9


def _timed(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def environment():
    """Versions, threads and machine facts recorded with the results."""
    np, torch, tl = libs()
    env = {
        "date": time.strftime("%Y-%m-%d %H:%M:%S"), "python": platform.python_version(),
        "machine": platform.machine(), "cpu": _cpu_model(), "cores": os.cpu_count(),
        "threads": _state["threads"], "clock": _state["clock"], "numpy": np.__version__,
        "torch": torch.__version__ if torch is not None else None,
        "tensorlib": getattr(tl, "__version__", "?"), "tensorlib_path": os.path.dirname(tl.__file__),
        "unset_env": _state["unset_env"],
        "quick": _state["quick"],
    }
    try:
        import threadpoolctl
        env["blas"] = [{k: i.get(k) for k in ("internal_api", "num_threads", "architecture", "version")}
                       for i in threadpoolctl.threadpool_info()]
    except ImportError:
        pass
    return env


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def markdown(rows=None):
    """The results as a markdown table: per-call median times and tensorlib / best peer."""
    rows = results if rows is None else rows
    impls = []
    for r in rows:
        for k in list(r["times"]) + list(r["errors"]):
            if k not in impls and k != "setup":
                impls.append(k)
    impls.sort(key=lambda k: (k != "tensorlib", k))
    head = "| benchmark | " + " | ".join(impls) + " | ratio (tensorlib / best peer) |"
    lines = [head, "|" + "---|" * (len(impls) + 2)]
    for r in rows:
        cells = []
        for k in impls:
            cells.append("error" if k in r["errors"] else _fmt_time(r["times"].get(k)))
        if "setup" in r["errors"]:
            ratio = "error: " + r["errors"]["setup"]
        elif r["ratio"] is not None:
            ratio = f"{r['ratio']:.2f} ({r['best_peer']})"
        else:
            ratio = "; ".join(f"{k}: {v}" for k, v in r["errors"].items()) or "-"
        lines.append(f"| {r['name']} | " + " | ".join(cells) + f" | {ratio} |")
    return "\n".join(lines) + "\n"


def report(path=None, extra=None):
    """Print the table and write results/latest.json and results/latest.md (or path.json/.md)."""
    base = path or os.path.join(RESULTS_DIR, "latest")
    os.makedirs(os.path.dirname(base), exist_ok=True)
    env = environment()
    env.update(extra or {})
    table = markdown()
    with open(base + ".json", "w") as f:
        json.dump({"environment": env, "results": results}, f, indent=1)
    with open(base + ".md", "w") as f:
        f.write(f"Benchmarks {env['date']}, {env['cpu']}, {env['threads']} thread(s), "
                f"numpy {env['numpy']}, torch {env['torch']}\n\n" + table)
    print()
    print(table)
    print(f"written: {base}.json, {base}.md")
