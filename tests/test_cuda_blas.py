"""Dense products of CUDA tensors (mm, bmm, matmul, mv, dot, vdot, addmm, addmv, baddbmm, addbmm,
outer, addr), the whole path (torch's checks and result in ops/linalg.c, the BLAS calls in
backend/gemm.c, the backend's gemm entry) on the host-memory stand-in backend of
tests/_fake_cuda.py, whose entry is the core's host runner of the same call: the grid of
tests/_fake_cuda_blas.py (exact small-integer operands in six dtypes, every layout and form, out=,
in-place, names, errors) must match tensorlib's CPU and torch 2.13. The script runs in a
subprocess (a registration lasts for its process). With a usable CUDA device the same grid runs on
cuBLAS (TL_EW_REAL=1; scripts/gpu_check.sh). Also tl.backends.cuda.matmul against torch's."""
import pytest
import torch

import tensorlib as tl
from _grid import run_grid


def _run(real):
    assert run_grid("_fake_cuda_blas.py", real=real) > 3000


@pytest.mark.skipif(tl.cuda.is_available(), reason="a CUDA device is usable here (the real grid below runs)")
def test_products_on_stand_in_backend():
    _run(False)


@pytest.mark.skipif(not tl.cuda.is_available(), reason="no usable CUDA device")
def test_products_on_real_device():
    _run(True)


def _outcome(f):
    try:
        return f(), None
    except Exception as e:  # noqa: BLE001 - compared as (type, message)
        return None, (type(e), str(e))


SETTINGS = [("allow_tf32", True), ("allow_tf32", False), ("allow_tf32", 1), ("allow_tf32", None),
            ("allow_bf16_reduced_precision_reduction", False), ("allow_bf16_reduced_precision_reduction", (True,)),
            ("allow_bf16_reduced_precision_reduction", [False, False]), ("allow_bf16_reduced_precision_reduction", ()),
            ("allow_bf16_reduced_precision_reduction", (True, True, True)),
            ("allow_bf16_reduced_precision_reduction", (1,)), ("allow_bf16_reduced_precision_reduction", 0),
            ("allow_fp16_reduced_precision_reduction", False), ("allow_fp16_reduced_precision_reduction", (True, 2)),
            ("allow_fp16_reduced_precision_reduction", True), ("no_such_switch", True)]
READ = ["allow_tf32", "allow_fp16_reduced_precision_reduction", "allow_bf16_reduced_precision_reduction",
        "allow_fp16_reduced_precision_reduction_split_k", "allow_bf16_reduced_precision_reduction_split_k"]


def test_matmul_switches_as_torch():
    """Defaults, accepted values, errors and what reads back after each setting, as torch's."""
    ours, theirs = tl.backends.cuda.matmul, torch.backends.cuda.matmul
    saved = [(n, getattr(theirs, n)) for n in READ[:3]]
    try:
        assert [getattr(ours, n) for n in READ] == [getattr(theirs, n) for n in READ]
        for name, value in SETTINGS:
            assert _outcome(lambda: setattr(ours, name, value)) == _outcome(lambda: setattr(theirs, name, value))
            assert [getattr(ours, n) for n in READ] == [getattr(theirs, n) for n in READ], (name, value)
        assert _outcome(lambda: ours.no_such_switch) == _outcome(lambda: theirs.no_such_switch)
    finally:
        for n, v in saved:
            setattr(ours, n, v)
            setattr(theirs, n, v)
    # the core's flags follow (the stand-in grid checks that they reach the backend's call)
    assert tl._C._gemm_flags() == 0
