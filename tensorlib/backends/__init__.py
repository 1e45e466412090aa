"""tensorlib.backends: torch.backends' switches that tensorlib's kernels read (``cuda.matmul``)."""
from . import cuda  # noqa: F401
