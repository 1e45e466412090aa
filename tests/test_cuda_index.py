"""Indexing, gather/scatter, index_select, take/put_ and cat/stack of CUDA tensors, the whole path
(the CPU's checks and operand geometry in the core, the backend's index entry) on the host-memory
stand-in backend of tests/_fake_cuda.py, whose entry is the core's host runner of the
kernels/hd_index.h element steps the CUDA kernel (csrc/cuda/index.cu) runs: every result must
equal tensorlib's CPU result bit for bit, every refusal the CPU's. The grid runs in a subprocess
(a registration lasts for its process). With a usable CUDA device the same grid runs on it
(TL_EW_REAL=1; scripts/gpu_check.sh)."""
import pytest

import tensorlib as tl
from _grid import run_grid


def _run(real):
    assert run_grid("_fake_cuda_index.py", real=real) > 3000


@pytest.mark.skipif(tl.cuda.is_available(), reason="a CUDA device is usable here (the real grid below runs)")
def test_indexing_on_stand_in_backend():
    _run(False)


@pytest.mark.skipif(not tl.cuda.is_available(), reason="no usable CUDA device")
def test_indexing_on_real_device():
    _run(True)
