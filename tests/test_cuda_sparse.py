"""Sparse tensors on CUDA (tensorlib/_sparse_device.py): the grid of tests/_fake_cuda_sparse.py
(every layout moved to the device and back, device= constructors, the products through the
backend's sparse-product entry, the compositions of device ops and the host round trips, errors) on the host-memory stand-in backend
of tests/_fake_cuda.py, whose entry is the core's host runner of the same call: every result must
equal tensorlib's CPU result of the same call, products also torch 2.13's. The script runs in a
subprocess (a registration lasts for its process). With a usable CUDA device the same grid runs on
cuSPARSE (TL_EW_REAL=1; scripts/gpu_check.sh)."""
import pytest

import tensorlib as tl
from _grid import run_grid


def _run(real):
    assert run_grid("_fake_cuda_sparse.py", real=real) > 60000


@pytest.mark.skipif(tl.cuda.is_available(), reason="a CUDA device is usable here (the real grid below runs)")
def test_sparse_on_stand_in_backend():
    _run(False)


@pytest.mark.skipif(not tl.cuda.is_available(), reason="no usable CUDA device")
def test_sparse_on_real_device():
    _run(True)
