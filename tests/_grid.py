"""Runs one of the stand-in grid scripts (tests/_fake_cuda_*.py) in a subprocess (a backend
registration lasts for its process) and checks its verdict: the script prints its failures,
then `failures N` and `ok N` (N checks). With real=True the grid runs on a real CUDA device
(TL_EW_REAL=1) against the installed package (scripts/gpu_check.sh) or what PYTHONPATH names
(the fake runtime's run); otherwise against what PYTHONPATH names (scripts/sanitize.sh's build),
else this source tree."""
import os
import subprocess
import sys
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_grid(script, *args, real=False, timeout=900):
    """The number of checks the grid made; asserts that none failed."""
    tests = os.path.join(ROOT, "tests")
    extra = [os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else []
    # (a PYTHONPATH given comes first on the stand-in too: scripts/sanitize.sh names its build there)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([tests] + extra if real else extra + [ROOT, tests])}
    if real:
        env["TL_EW_REAL"] = "1"
    r = subprocess.run([sys.executable, "-W", "ignore", os.path.join("tests", script), *args], cwd=ROOT,
                       capture_output=True, text=True, timeout=timeout, env=env)
    assert r.returncode == 0, r.stderr[-4000:]
    lines = r.stdout.strip().splitlines()
    assert lines[-2] == "failures 0", "\n".join(lines[-62:])
    return int(lines[-1].split()[1])


def report(fail, count):
    """A grid script's verdict, as run_grid reads it: the first 60 failures, `failures N`, `ok N`."""
    for f in fail[:60]:
        print(f)
    print(f"failures {len(fail)}")
    print(f"ok {count}")


def outcome(call):
    """(call(), None), or (None, the exception) for the grids to compare as (type, message);
    warnings silenced (the grids compare results, not warnings)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return call(), None
    except Exception as e:  # noqa: BLE001 - compared as (type, message)
        return None, e


def as_np(x):
    """A tensorlib tensor's values as a NumPy array (from the host; float16/bfloat16 as float32)."""
    x = x.cpu()
    if str(x.dtype) in ("tensorlib.bfloat16", "tensorlib.float16"):
        x = x.float()
    return x.numpy()
