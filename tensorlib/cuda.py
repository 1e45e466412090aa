"""tensorlib.cuda - torch.cuda's API over the optional CUDA backend module.

``import tensorlib`` never imports this module: ``tensorlib.cuda`` is loaded by
attribute access or by the first use of a CUDA device. It in turn imports the
compiled backend ``tensorlib._C_cuda`` (built only where nvcc was found) on first
need. The situations follow torch:

- backend not built: queries answer "nothing" (is_available() False,
  device_count() 0, memory statistics 0) and everything that needs a device
  raises AssertionError("Torch not compiled with CUDA enabled"), as a CPU-only
  torch does;
- backend built but no driver or no device: the same queries answer "nothing",
  and initialisation raises torch's RuntimeError ("Found no NVIDIA driver ..."
  or "No CUDA GPUs are available").
"""
import contextlib

__all__ = ["is_available", "device_count", "is_initialized", "init", "current_device",
           "set_device", "device", "synchronize", "get_device_name", "get_device_properties",
           "get_device_capability", "memory_allocated", "max_memory_allocated",
           "memory_reserved", "max_memory_reserved", "reset_peak_memory_stats",
           "empty_cache", "manual_seed", "manual_seed_all", "is_built"]

_NOT_COMPILED = "Torch not compiled with CUDA enabled"
_backend = None         # the imported tensorlib._C_cuda, once looked for
_looked = False
_initialized = False
_seed = None            # manual_seed before initialisation is kept, as torch queues it


def _module():
    """tensorlib._C_cuda, or None when it was not built (or cannot load its libraries)."""
    global _backend, _looked
    if not _looked:
        _looked = True
        try:
            from . import _C_cuda as m
        except ImportError:
            m = None
        _backend = m
    return _backend


def is_built():
    """True when tensorlib was built with its CUDA backend module."""
    return _module() is not None


def device_count():
    """Number of CUDA devices usable now; 0 without the backend, a driver or a device."""
    m = _module()
    return m.device_count() if m is not None else 0


def is_available():
    """True when a CUDA device can be used; never raises."""
    return device_count() > 0


def is_initialized():
    """True once the CUDA state has been initialised (by init() or a first CUDA tensor)."""
    return _initialized


def _lazy_init():
    """Initialises the backend and registers it with the core, or raises torch's error."""
    global _initialized
    if _initialized:
        return
    m = _module()
    if m is None:
        raise AssertionError(_NOT_COMPILED)
    m.init()  # RuntimeError "Found no NVIDIA driver ..." / "No CUDA GPUs are available"
    from . import _C
    m.register(_C._backend_api)
    _initialized = True
    if _seed is not None:
        manual_seed_all(_seed)


def init():
    """Initialises CUDA state; raises when CUDA cannot be used (torch.cuda.init)."""
    _lazy_init()


def _index(dev, optional=True):
    """Device index from an int, 'cuda:N' string, tensorlib.device or None (current)."""
    if dev is None:
        return current_device()
    if isinstance(dev, bool):
        raise TypeError("Invalid device, must be cuda device")
    if isinstance(dev, int):
        return dev
    from . import device as _device
    d = _device(dev) if isinstance(dev, str) else dev
    if not isinstance(d, _device) or d.type != "cuda":
        raise ValueError("Expected a cuda device, but got: %s" % (d,))
    return d.index if d.index is not None else current_device()


def current_device():
    """Index of the selected device."""
    _lazy_init()
    return _backend.current_device()


def set_device(device):
    """Selects the current device; a negative index is a no-op as in torch."""
    idx = _index(device)
    if idx >= 0:
        _lazy_init()
        _backend.set_device(idx)


class device:
    """Context manager that selects a CUDA device and restores the previous one on exit."""

    def __init__(self, device):
        self.idx = _index(device) if device is not None else -1
        self.prev_idx = -1

    def __enter__(self):
        if self.idx >= 0:
            self.prev_idx = current_device()
            if self.prev_idx != self.idx:
                set_device(self.idx)
        return self

    def __exit__(self, *exc):
        if self.prev_idx >= 0 and self.prev_idx != self.idx:
            set_device(self.prev_idx)
        return False


def synchronize(device=None):
    """Waits for all work on the device to finish."""
    _lazy_init()
    _backend.synchronize(_index(device))


def get_device_properties(device=None):
    """Name, total_memory, major, minor, multi_processor_count of a device."""
    _lazy_init()
    idx = _index(device)
    if not 0 <= idx < device_count():
        raise AssertionError("Invalid device id")
    return _CudaDeviceProperties(*_backend.device_properties(idx))


class _CudaDeviceProperties:
    """What get_device_properties returns (a subset of torch's fields)."""

    def __init__(self, name, total_memory, major, minor, multi_processor_count):
        self.name, self.total_memory = name, total_memory
        self.major, self.minor, self.multi_processor_count = major, minor, multi_processor_count

    def __repr__(self):
        return ("_CudaDeviceProperties(name='%s', major=%d, minor=%d, total_memory=%dMB, "
                "multi_processor_count=%d)" % (self.name, self.major, self.minor,
                                               self.total_memory // (1024 * 1024), self.multi_processor_count))


def get_device_name(device=None):
    """Name of a device."""
    return get_device_properties(device).name


def get_device_capability(device=None):
    """(major, minor) compute capability of a device."""
    p = get_device_properties(device)
    return (p.major, p.minor)


def _stat(name, device):
    if not _initialized:
        return 0  # torch answers statistics without initialising CUDA
    return _backend.memory_stat(name, _index(device))


def memory_allocated(device=None):
    """Bytes currently held by tensors on the device."""
    return _stat("allocated", device)


def max_memory_allocated(device=None):
    """Peak of memory_allocated since start or the last reset_peak_memory_stats."""
    return _stat("max_allocated", device)


def memory_reserved(device=None):
    """Bytes held by the caching allocator (in use or cached for reuse)."""
    return _stat("reserved", device)


def max_memory_reserved(device=None):
    """Peak of memory_reserved."""
    return _stat("max_reserved", device)


def reset_peak_memory_stats(device=None):
    """Resets the peaks to the current values."""
    if _initialized:
        _backend.reset_peak(_index(device))


def empty_cache():
    """Returns the cached, unused blocks to the driver; no-op before initialisation."""
    if _initialized:
        _backend.empty_cache()


def manual_seed(seed):
    """Seeds the CUDA generator of the current device (kept until initialisation)."""
    manual_seed_all(seed)


def manual_seed_all(seed):
    """Seeds the CUDA generators of every device (kept until initialisation)."""
    global _seed
    _seed = int(seed)


# the composed docstrings (tensorlib/_docgen_lazy.py, scripts/gen_docs.py); this module loads on first
# use, after `import tensorlib` attached the others
from . import _docattach  # noqa: E402
_docattach.attach_loaded("tensorlib", "cuda")
