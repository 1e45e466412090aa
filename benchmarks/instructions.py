"""Per-call cost of small ops in instructions (valgrind's callgrind), beside the timing table.

Instruction counts repeat on a busy machine where timings of microsecond ops do not. Each
op runs in a child process under callgrind twice, k=0 and k=N times; the per-call figure is
(Ir(N) - Ir(0)) / N minus the same for a call that only returns its operand, so the Python
loop and the lambda call are not counted. Inputs: 16 float32 elements.

    python benchmarks/instructions.py [--calls N] [--libs tensorlib,numpy,torch] [--ops sum,idx,add|all]

Needs valgrind on PATH. Prints a Markdown table (tensorlib's ratio to the cheaper peer).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

OPS = {"sum": "x.sum()", "idx": "x[3]", "add": "a + b", "slice": "x[1:3]", "view": "x.view(-1)",
       "clone": "x.clone()", "muls": "x * 2.0", "exp": "x.exp()", "mean": "x.mean()"}
DEFAULT_OPS = "sum,idx,add"  # the issue 15 goals; --ops all for every row

CHILD = """
import sys
lib, op, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
import numpy as np
a0 = np.arange(16.0, dtype=np.float32)
if lib == "tensorlib":
    import tensorlib as m
    x = m.from_numpy(a0); a = x; b = x.clone()
elif lib == "numpy":
    x = a0; a = x; b = x.copy()
else:
    import torch as m
    x = m.from_numpy(a0); a = x; b = x.clone()
f = {"nop": lambda: x, "sum": lambda: x.sum(), "idx": lambda: x[3], "add": lambda: a + b,
     "slice": lambda: x[1:3], "view": lambda: x.view(-1) if lib != "numpy" else x.reshape(-1), "clone": lambda: x.clone() if lib != "numpy" else x.copy(),
     "muls": lambda: x * 2.0, "exp": lambda: x.exp() if lib != "numpy" else np.exp(x), "mean": lambda: x.mean()}[op]
for _ in range(k):
    f()
"""


def _instructions(script, lib, op, k, tmp):
    out = os.path.join(tmp, "cg.out")
    # The child script lives in a temporary folder: put the checkout first on its path so it
    # imports this tree's in-place build, installed or not.
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # One thread everywhere: callgrind counts every thread, and a pool worker that spins while
    # waiting adds a count that depends on scheduling, not on the op.
    env = dict(os.environ, PYTHONHASHSEED="0", OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1",
               PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, sys.executable, script, lib, op,
                    str(k)], check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(out) as f:
        for line in f:
            m = re.match(r"(summary|totals):\s+(\d+)", line)
            if m:
                return int(m.group(2))
    raise RuntimeError("no totals in callgrind output")


def per_call(script, lib, op, calls, tmp):
    return (_instructions(script, lib, op, calls, tmp) - _instructions(script, lib, op, 0, tmp)) / calls


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=5000)
    ap.add_argument("--libs", default="tensorlib,numpy,torch")
    ap.add_argument("--ops", default=DEFAULT_OPS)
    args = ap.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("valgrind is not installed")
    libs, ops = args.libs.split(","), list(OPS) if args.ops == "all" else args.ops.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "child.py")
        with open(script, "w") as f:
            f.write(CHILD)
        table = {}
        for lib in libs:
            nop = per_call(script, lib, "nop", args.calls, tmp)
            for op in ops:
                table[lib, op] = per_call(script, lib, op, args.calls, tmp) - nop
    print("| op (16 float32) | " + " | ".join(libs) + " | ratio (tensorlib / cheaper peer) |")
    print("|---" * (len(libs) + 2) + "|")
    for op in ops:
        cells = ["%.0f" % table[lib, op] for lib in libs]
        peers = [table[lib, op] for lib in libs if lib != "tensorlib"]
        ratio = "%.2f" % (table["tensorlib", op] / min(peers)) if peers and "tensorlib" in libs else "-"
        print("| `%s` | %s | %s |" % (OPS[op], " | ".join(cells), ratio))


if __name__ == "__main__":
    main()
