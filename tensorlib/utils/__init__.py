"""tensorlib.utils: what of torch.utils tensor code still touches (the legacy backcompat switches,
the DLPack capsule functions)."""
from . import backcompat, dlpack  # noqa: F401
