"""tensorlib.utils: what of torch.utils tensor code still touches (the legacy backcompat switches)."""
from . import backcompat  # noqa: F401
