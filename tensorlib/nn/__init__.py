"""tensorlib.nn: only ``tensorlib.nn.functional.linear`` (tensorlib has no nn modules)."""
from . import functional  # noqa: F401
