"""tensorlib.utils.dlpack: torch.utils.dlpack's legacy capsule interface.

    >>> import tensorlib as tl
    >>> tl.from_dlpack(tl.utils.dlpack.to_dlpack(tl.tensor([1, 2])))
    tensor([1, 2])
"""
from .. import _C  # type: ignore[attr-defined]

__all__ = ["to_dlpack", "from_dlpack"]

from_dlpack = _C.from_dlpack


def to_dlpack(tensor):
    """to_dlpack(tensor) -> PyCapsule

    The legacy DLPack export: a capsule holding ``tensor``'s memory (no copy), for one
    consumer's ``from_dlpack``. Prefer passing the tensor itself to ``from_dlpack``
    (``tensor.__dlpack__()``), which also handles streams and versions."""
    if not isinstance(tensor, _C.TensorBase):
        raise TypeError(f"to_dlpack(): argument 'data' (position 1) must be Tensor, not {type(tensor).__name__}")
    return tensor.__dlpack__()
