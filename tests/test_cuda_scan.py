"""cumsum, cumprod, cummax and cummin of CUDA tensors, the whole path (torch's dim and dtype rules
in the core, the rows built from the tensor's geometry, the backend's scan entry) on the
host-memory stand-in backend of tests/_fake_cuda.py, whose entry is the core's host runner of
the kernels/hd_scan.h row function the CUDA kernel (csrc/cuda/scan.cu) runs: every result must
equal tensorlib's CPU result bit for bit and torch 2.13's within float tolerance. The script runs
in a subprocess (a registration lasts for its process). With a usable CUDA device the same grid
runs on it (TL_EW_REAL=1; scripts/gpu_check.sh), plus long rows, which scan.cu runs through CUB:
there float/complex cumsum/cumprod equal the CPU within rounding, the rest bit for bit."""
import os
import shutil
import subprocess

import pytest

import tensorlib as tl
from _grid import run_grid

HERE = os.path.dirname(os.path.abspath(__file__))
CSRC = os.path.join(os.path.dirname(HERE), "csrc")  # absent where the tests run from a copy (gpu_check.sh)


def _run(real):
    assert run_grid("_fake_cuda_scan.py", real=real) > 1000


@pytest.mark.skipif(tl.cuda.is_available(), reason="a CUDA device is usable here (the real grid below runs)")
def test_scans_on_stand_in_backend():
    _run(False)


@pytest.mark.skipif(not tl.cuda.is_available(), reason="no usable CUDA device")
def test_scans_on_real_device():
    _run(True)


@pytest.mark.skipif(shutil.which("cc") is None or not os.path.isdir(CSRC), reason="no C compiler or no csrc/ beside tests/")
def test_split_scan_in_parallel_orders(tmp_path):
    """kernels/hd_scan.h's load/combine/store (what csrc/cuda/scan.cu hands CUB for long rows),
    combined left to right, in tiles with a running prefix and by doubling, against the row
    function: integer scans and cummax/cummin bit for bit, float ones within rounding
    (tests/hd_scan_tree.c)."""
    exe = str(tmp_path / "hd_scan_tree")
    src = os.path.join(HERE, "hd_scan_tree.c")
    r = subprocess.run(["cc", "-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", "-ffp-contract=off",
                        "-I", CSRC, src, "-o", exe, "-lm"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([exe], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "failures 0" in r.stdout, r.stdout[-4000:]
    assert int(r.stdout.split()[-3]) > 100000


def _nvcc():
    for c in [os.path.join(os.environ[k], "bin", "nvcc") for k in ("CUDA_HOME", "CUDA_PATH") if os.environ.get(k)] + [
            "/usr/local/cuda/bin/nvcc", shutil.which("nvcc") or ""]:
        if c and os.path.isfile(c):
            return c
    return None


@pytest.mark.skipif(_nvcc() is None or not os.path.isdir(CSRC), reason="no nvcc or no csrc/ beside tests/")
def test_long_row_iterators_on_host_scans(tmp_path):
    """csrc/cuda/scan.cu's long-row iterators and combine (what CUB's DeviceScan runs on the
    device) driven by Thrust's sequential host scans over contiguous, transposed, stepped and
    3-D geometries: the row function's bits for every op and dtype pair (tests/scan_cub_host.cu)."""
    exe = str(tmp_path / "scan_cub_host")
    r = subprocess.run([_nvcc(), "-std=c++17", "-O1", "-fmad=false", "-Xcompiler", "-Wall,-Wextra", "-I", CSRC,
                        "-gencode=arch=compute_90,code=sm_90", os.path.join(HERE, "scan_cub_host.cu"), "-o", exe],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and "warning" not in r.stderr, r.stdout + r.stderr
    r = subprocess.run([exe], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "failures 0" in r.stdout, r.stdout[-4000:] + r.stderr[-2000:]
    assert int(r.stdout.split()[-3]) >= 680
