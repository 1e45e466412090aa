"""tests/test_linalg_more.py's functions on "cuda" tensors of the host-memory stand-in backend
(tests/_fake_cuda.py): the LAPACK-backed ones (cholesky_solve, cholesky_inverse,
triangular_solve, geqrf, ormqr, lu, ldl_factor, nuclear_norm, ...) refuse CUDA tensors as the
other linalg functions do (NotImplementedError naming the primitive); the ones composed of
device ops (cdist, pdist, pairwise_distance, frobenius_norm, chain_matmul) run on the device
and equal the CPU result. Run as a script in a subprocess: prints failures, `failures N`, `ok N`.
With TL_EW_REAL=1 the grid runs on a real CUDA device."""
import numpy as np

import _fake_cuda  # noqa: E402 (tests/ on the path)
from _grid import report  # noqa: E402

REAL, LOG = _fake_cuda.for_grid()
import tensorlib as tl  # noqa: E402

FAIL = []
COUNT = [0]
rng = np.random.default_rng(0)
A = tl.tensor(rng.standard_normal((3, 3)) + 3 * np.eye(3))
B = tl.tensor(rng.standard_normal((4, 3)))
C = tl.tensor(rng.standard_normal((30, 3)))
Z3 = tl.zeros(3, dtype=tl.float64)

REFUSED = {
    "cholesky_solve": lambda d: tl.cholesky_solve(B.mT.to(d), A.to(d)),
    "cholesky_inverse": lambda d: tl.cholesky_inverse(A.to(d)),
    "triangular_solve": lambda d: tl.triangular_solve(B.mT.to(d), A.to(d)),
    "geqrf": lambda d: tl.geqrf(A.to(d)),
    "ormqr": lambda d: tl.ormqr(A.to(d), Z3.to(d), A.to(d)),
    "lu": lambda d: tl.lu(A.to(d)),
    "lu_solve": lambda d: tl.lu_solve(B.mT.to(d), A.to(d), tl.ones(3, dtype=tl.int32).to(d)),
    "ldl_factor": lambda d: tl.linalg.ldl_factor(A.to(d)),
    "ldl_solve": lambda d: tl.linalg.ldl_solve(A.to(d), tl.ones(3, dtype=tl.int32).to(d), B.mT.to(d)),
    "nuclear_norm": lambda d: tl.nuclear_norm(A.to(d)),
}
COMPOSED = {
    "cdist": lambda d: tl.cdist(B.to(d), A.to(d)),
    "cdist_mm": lambda d: tl.cdist(C.to(d), B.to(d)),
    "cdist_p1": lambda d: tl.cdist(B.to(d), A.to(d), p=1),
    "cdist_inf": lambda d: tl.cdist(B.to(d), A.to(d), p=float("inf")),
    "pdist": lambda d: tl.pdist(B.to(d)),
    "pairwise_distance": lambda d: tl.pairwise_distance(B.to(d), A[0].to(d)),
    "frobenius_norm": lambda d: tl.frobenius_norm(A.to(d), (0, 1)),
    "chain_matmul": lambda d: tl.chain_matmul(B.to(d), A.to(d), A.to(d)),
    "linalg.matmul": lambda d: tl.linalg.matmul(B.to(d), A.to(d)),
}

for name, fn in REFUSED.items():
    COUNT[0] += 1
    try:
        fn("cuda")
        if not REAL:
            FAIL.append(f"{name}: a CUDA tensor was accepted")
    except NotImplementedError as e:
        if "'CUDA' backend" not in str(e):
            FAIL.append(f"{name}: {e}")
    except Exception as e:  # noqa: BLE001
        FAIL.append(f"{name}: {type(e).__name__}: {e}")
for name, fn in COMPOSED.items():
    COUNT[0] += 1
    try:
        r, e = fn("cuda"), fn("cpu")
        if r.device.type != "cuda":
            FAIL.append(f"{name}: result on {r.device}")
        elif not np.allclose(np.asarray(r.cpu()), np.asarray(e), rtol=1e-12, atol=1e-12):
            FAIL.append(f"{name}: differs from the CPU")
    except Exception as e:  # noqa: BLE001
        FAIL.append(f"{name}: {type(e).__name__}: {e}")
report(FAIL, COUNT[0])
