"""Run the benchmark rows of every benchmarks/bench_*.py module.

    python benchmarks/run.py [--filter REGEX] [--quick] [--threads N] [--bandwidth]

A module provides its rows as ROWS (a list) or rows() (returning an iterable); each row is
(name, factory) where factory() builds the inputs and returns {"tensorlib": fn, "numpy": fn,
"torch": fn}, or (name, impls_dict) when the inputs are cheap to build up front.
--filter keeps rows whose "module: name" matches the regular expression.
Results: benchmarks/results/latest.json and latest.md (see benchmarks/README.md).
"""
import argparse
import glob
import importlib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness  # noqa: E402 - must come before NumPy is imported (see harness.configure)


def module_rows(mod):
    """(name, impls or setup) pairs from a module's rows() or ROWS (a list or a dict)."""
    rows = mod.rows() if hasattr(mod, "rows") else getattr(mod, "ROWS", [])
    return list(rows.items()) if isinstance(rows, dict) else list(rows)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--filter", default=None, help="regex on 'module: row name'")
    p.add_argument("--quick", action="store_true", help="short time budget per row (smoke run)")
    p.add_argument("--threads", type=int, default=None, help="threads for every library (default: all cores)")
    p.add_argument("--cpu-time", action="store_true",
                   help="time CPU instead of wall (the thread's at --threads 1, the process's otherwise)")
    p.add_argument("--bandwidth", action="store_true", help="also measure np.copyto bandwidth on 400 MB")
    p.add_argument("--out", default=None, help="results path without extension (default results/latest)")
    args = p.parse_args(argv)

    harness.configure(threads=args.threads, quick=args.quick, cpu_time=args.cpu_time)
    pattern = re.compile(args.filter) if args.filter else None
    extra = {}
    if args.bandwidth:
        extra["copy_GBps_400MB"] = round(harness.memory_bandwidth(), 2)
        print(f"np.copyto 400 MB: {extra['copy_GBps_400MB']} GB/s copied")
    for path in sorted(glob.glob(os.path.join(HERE, "bench_*.py"))):
        modname = os.path.splitext(os.path.basename(path))[0]
        try:
            mod = importlib.import_module(modname)
            rows = module_rows(mod)
        except Exception as e:  # noqa: BLE001 - one broken module must not stop the others
            print(f"{modname}: import failed: {type(e).__name__}: {e}", file=sys.stderr)
            harness.results.append({"name": f"{modname} (import)", "group": modname, "times": {},
                                    "errors": {"setup": f"{type(e).__name__}: {e}"}, "ratio": None,
                                    "best_peer": None})
            continue
        for name, impls in rows:
            if pattern and not pattern.search(f"{modname}: {name}"):
                continue
            if callable(impls):
                harness.bench(name, None, setup=impls, group=modname)
            else:
                harness.bench(name, impls, group=modname)
    harness.report(args.out, extra)


if __name__ == "__main__":
    main()
