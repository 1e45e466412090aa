"""tensorlib.signal: torch.signal's window functions (``tensorlib.signal.windows``)."""
from . import windows  # noqa: F401
