"""cumsum, cumprod, cummax and cummin of CUDA tensors, the whole path (torch's dim and dtype rules
in the core, the rows built from the tensor's geometry, the backend's scan entry) on the
host-memory stand-in backend of tests/_fake_cuda.py, whose entry is the core's host runner of
the kernels/hd_scan.h row function the CUDA kernel (csrc/cuda/scan.cu) runs: every result must
equal tensorlib's CPU result bit for bit and torch 2.13's within float tolerance. The script runs
in a subprocess (a registration lasts for its process). With a usable CUDA device the same grid
runs on it (TL_EW_REAL=1; scripts/gpu_check.sh)."""
import pytest

import tensorlib as tl
from _grid import run_grid


def _run(real):
    assert run_grid("_fake_cuda_scan.py", real=real) > 1000


@pytest.mark.skipif(tl.cuda.is_available(), reason="a CUDA device is usable here (the real grid below runs)")
def test_scans_on_stand_in_backend():
    _run(False)


@pytest.mark.skipif(not tl.cuda.is_available(), reason="no usable CUDA device")
def test_scans_on_real_device():
    _run(True)
