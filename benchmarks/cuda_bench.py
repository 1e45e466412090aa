"""GPU benchmark rows of issue 12: tensorlib's CUDA backend against torch CUDA in one run.

    python benchmarks/cuda_bench.py [--log2n 28] [--reps 20] [--json OUT.json] [--rows add,sum]

Every device row is timed with CUDA events of its own library around a block of calls
(after warm-up), the median over --reps blocks; the launch-overhead row with the host clock
over many tiny calls and one synchronize. Bandwidth rows report GB/s (bytes read + written /
time) and, for tensorlib, the fraction of the device-to-device copy bandwidth measured in the
same run (issue 12's goals: add/mul >= 0.90, sum/amax >= 0.85, add of a transposed operand >=
0.70). A row tensorlib does not support yet prints its exception instead of a time. torch is
optional (a CUDA build of torch; the GPU machine has one).

scripts/gpu_check.sh runs it and writes the JSON to $OUT. It runs on the fake CUDA runtime
too (tests/test_cuda_fake_runtime.py), where only the copies run and the times mean nothing.
"""
import argparse
import json
import statistics
import sys
import time

import tensorlib as tl

try:
    import torch
    if not torch.cuda.is_available():
        torch = None
except ImportError:
    torch = None


def _event_time(lib, fn, reps, inner):
    """Median milliseconds per call of fn() over `reps` blocks of `inner` calls (events)."""
    fn()
    lib.cuda.synchronize()
    times = []
    for _ in range(reps):
        a, b = lib.cuda.Event(enable_timing=True), lib.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(inner):
            fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) / inner)
    return statistics.median(times)


def _host_time(lib, fn, calls):
    """Microseconds per call from the host clock, calls queued back to back."""
    for _ in range(100):
        fn()
    lib.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    lib.cuda.synchronize()
    return (time.perf_counter() - t0) / calls * 1e6


def _row(name, make, nbytes, reps, inner, results, baseline=None, host_calls=None):
    row = {"row": name}
    for libname, lib in (("tensorlib", tl), ("torch", torch)):
        if lib is None:
            continue
        try:
            fn = make(lib)
            if host_calls:
                row[libname + "_us"] = _host_time(lib, fn, host_calls)
            else:
                ms = _event_time(lib, fn, reps, inner)
                row[libname + "_ms"] = ms
                if nbytes:
                    row[libname + "_GBps"] = nbytes / ms / 1e6
        except Exception as e:  # a row tensorlib lacks: report it, go on
            row[libname + "_error"] = "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:160])
    if baseline and "tensorlib_GBps" in row and baseline.get("tensorlib_GBps"):
        row["tensorlib_of_copy"] = row["tensorlib_GBps"] / baseline["tensorlib_GBps"]
    if "tensorlib_ms" in row and "torch_ms" in row:
        row["ratio_vs_torch"] = row["tensorlib_ms"] / row["torch_ms"]
    results.append(row)
    cells = ["%s=%.4g" % (k, v) if isinstance(v, float) else "%s=%s" % (k, v) for k, v in row.items() if k != "row"]
    print("%-34s %s" % (name, "  ".join(cells)), flush=True)
    return row


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log2n", type=int, default=28, help="elements of the bandwidth rows (2^n float32)")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--json", help="write the rows here")
    ap.add_argument("--rows", help="comma-separated row-name prefixes to run")
    args = ap.parse_args(argv)
    if not tl.cuda.is_available():
        print("cuda_bench: no usable CUDA device for tensorlib", file=sys.stderr)
        return 1
    n = 1 << args.log2n
    side = 1 << (args.log2n // 2)
    reps, results = args.reps, []
    want = args.rows.split(",") if args.rows else None

    def on(name):
        return want is None or any(name.startswith(w) for w in want)

    def dev(lib):
        return "cuda"

    def f32(lib, shape):
        return lib.ones(shape, dtype=lib.float32, device=dev(lib))

    copy = None
    if on("copy"):
        def make(lib):
            x, y = f32(lib, n), lib.empty(n, dtype=lib.float32, device=dev(lib))
            return lambda: y.copy_(x)
        copy = _row("copy f32 2^%d (D2D)" % args.log2n, make, 8 * n, reps, 5, results)
    for name, op in (("add", "add"), ("mul", "mul")):
        if on(name):
            def make(lib, op=op):
                a, b, c = f32(lib, n), f32(lib, n), lib.empty(n, dtype=lib.float32, device=dev(lib))
                f = getattr(lib, op)
                return lambda: f(a, b, out=c)
            _row("%s f32 2^%d out=" % (name, args.log2n), make, 12 * n, reps, 5, results, copy)
    if on("add_T"):
        def make(lib):
            a, b = f32(lib, (side, side)), f32(lib, (side, side))
            c = lib.empty((side, side), dtype=lib.float32, device=dev(lib))
            return lambda: lib.add(a, b.T, out=c)
        _row("add f32 %d^2 + transposed" % side, make, 12 * side * side, reps, 5, results, copy)
    if on("add_i32"):
        def make(lib):
            a = lib.ones(n, dtype=lib.int32, device=dev(lib))
            b, c = f32(lib, n), lib.empty(n, dtype=lib.float32, device=dev(lib))
            return lambda: lib.add(a, b, out=c)
        _row("add int32 + f32 2^%d" % args.log2n, make, 12 * n, reps, 5, results, copy)
    for name in ("sum", "amax"):
        if on(name):
            def make(lib, name=name):
                x = f32(lib, n)
                return lambda: getattr(x, name)()
            _row("%s f32 2^%d" % (name, args.log2n), make, 4 * n, reps, 5, results, copy)
    if on("launch"):
        def make(lib):
            a, b = f32(lib, 1), f32(lib, 1)
            return lambda: a + b
        _row("launch: a + b, 1 element", make, 0, reps, 1, results, host_calls=20000)
    for name, direction in (("h2d", "to device"), ("d2h", "to host")):
        if on(name):
            def make(lib, direction=direction):
                host = lib.ones(n, dtype=lib.float32).pin_memory()
                devx = f32(lib, n)
                if direction == "to device":
                    return lambda: devx.copy_(host, non_blocking=True)
                return lambda: host.copy_(devx, non_blocking=True)
            _row("%s pinned f32 2^%d" % (name, args.log2n), make, 4 * n, reps, 3, results)
    for name, dtype, tf32 in (("gemm_f32", "float32", False), ("gemm_tf32", "float32", True),
                              ("gemm_bf16", "bfloat16", False)):
        if on(name):
            def make(lib, dtype=dtype, tf32=tf32):
                if hasattr(lib, "backends") and hasattr(lib.backends, "cuda"):
                    lib.backends.cuda.matmul.allow_tf32 = tf32
                a = lib.ones((4096, 4096), dtype=getattr(lib, dtype), device=dev(lib))
                return lambda: a @ a
            r = _row("%s 4096^2" % name, make, 0, reps, 3, results)
            for k in ("tensorlib_ms", "torch_ms"):
                if k in r:
                    r[k.replace("_ms", "_TFLOPS")] = 2 * 4096 ** 3 / r[k] / 1e9
    # CSR SpMV and SpMM (32 columns), float32, 10 stored elements per row over 2^(log2n - 8) rows
    # (2^28: 1e6 rows and 1e7 stored elements, issue 11's CPU shape): one CSR built with torch
    # on the CPU, moved; GB/s counts the CSR arrays and the vectors
    rows = 1 << max(args.log2n - 8, 4)
    nnz = 10 * rows
    for name, cols in (("spmv", 0), ("spmm32", 32)):
        if on(name):
            def make(lib, cols=cols):
                g = torch.Generator().manual_seed(0)
                crow = torch.arange(0, nnz + 1, 10, dtype=torch.int64)
                col = torch.randint(0, rows, (nnz,), generator=g).view(rows, 10).sort(1)[0].reshape(-1)
                val = torch.rand(nnz, generator=g)
                if lib is torch:
                    a = torch.sparse_csr_tensor(crow, col, val, (rows, rows)).to("cuda")
                else:
                    a = tl.sparse_csr_tensor(tl.from_dlpack(crow), tl.from_dlpack(col), tl.from_dlpack(val),
                                             (rows, rows), check_invariants=False).cuda()
                x = lib.ones((rows, cols) if cols else rows, dtype=lib.float32, device=dev(lib))
                return lambda: a @ x
            _row("%s csr f32 %d rows %d nnz" % (name, rows, nnz), make, 12 * nnz + 8 * rows * max(cols, 1), reps, 3,
                 results, copy)
    if args.json:
        env = {"tensorlib_device": tl.cuda.get_device_name(0),
               "torch": torch.__version__ if torch else None, "log2n": args.log2n, "reps": reps}
        with open(args.json, "w") as f:
            json.dump({"env": env, "rows": results}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
