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
           "empty_cache", "manual_seed", "manual_seed_all", "seed", "seed_all", "initial_seed",
           "get_rng_state", "set_rng_state", "get_rng_state_all", "set_rng_state_all", "is_built", "Stream", "Event",
           "current_stream", "default_stream", "set_stream", "stream", "StreamContext"]

_NOT_COMPILED = "Torch not compiled with CUDA enabled"
_NO_CUDA_SUPPORT = "PyTorch was compiled without CUDA support"
_backend = None         # the imported tensorlib._C_cuda, once looked for
_looked = False
_initialized = False


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


def _init_if_available():
    """Initialises CUDA when a device can be used (before a pinned host allocation)."""
    if not _initialized and is_available():
        _lazy_init()


def _dlpack_stream(idx):
    """The stream a DLPack consumer names to a CUDA producer of device idx: the current one
    (1 for the legacy default stream: 0 is not allowed for CUDA), as torch's from_dlpack."""
    _lazy_init()
    return _backend.get_stream(idx) or 1


def _dlpack_sync(idx, stream):
    """The producer's side of ``__dlpack__(stream=...)`` for a tensor of device idx: the
    consumer's stream waits for the work queued on the current one (-1: no synchronisation;
    1 is the legacy default stream), as torch's Tensor.__dlpack__."""
    if stream == -1:
        return
    _lazy_init()
    cur = _backend.get_stream(idx)
    if stream == (cur or 1) or stream == cur:
        return
    ev = _backend.event_create(idx, False, False, False)
    try:
        _backend.event_record(ev, cur)
        _backend.stream_wait_event(stream, ev)
    finally:
        _backend.event_destroy(ev)


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


def _optional_index(dev):
    """torch's _get_device_index(dev, optional=True): an int as is, None (or an index-less
    'cuda') the current device when CUDA is usable and None otherwise."""
    if dev is None or (not isinstance(dev, (int, bool)) and _device_type(dev) == "cuda" and _device_index(dev) is None):
        return current_device() if is_available() else None
    return _index(dev)


def _device_type(dev):
    from . import device as _device
    return (_device(dev) if isinstance(dev, str) else dev).type if isinstance(dev, (str, _device)) else None


def _device_index(dev):
    from . import device as _device
    return (_device(dev) if isinstance(dev, str) else dev).index


def _exchange_device(idx):
    """Selects device idx (nothing for a negative index or None) and gives the previous one."""
    if idx is None or idx < 0:
        return -1
    if _module() is None:
        raise RuntimeError(_NO_CUDA_SUPPORT)  # torch's CPU-only build
    cur = current_device()
    if cur != idx:
        set_device(idx)
    return cur


class device:
    """Context manager that selects a CUDA device and restores the previous one on exit."""

    def __init__(self, device):
        self.idx = _optional_index(device)
        self.prev_idx = -1

    def __enter__(self):
        self.prev_idx = _exchange_device(self.idx)

    def __exit__(self, *exc):
        self.idx = _exchange_device(self.prev_idx)
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


# ---- random number generators ----------------------------------------------------------
# One Philox4x32-10 generator per device, kept by the core (they exist before initialisation,
# so seeding needs no device, as torch's queued seeding); the CUDA samplers reserve counter
# blocks from them exactly as the CPU's Generator(kind="philox") does, so one seed gives the
# same numbers on both devices.

def _rng_index(device="cuda"):
    """Index of the generator for device (None/'cuda': the current device, 0 before
    initialisation, as torch applies queued seeds to the device current then)."""
    if device is None or (not isinstance(device, (int, bool)) and _device_type(device) == "cuda"
                          and _device_index(device) is None):
        return current_device() if _initialized else 0
    return _index(device)


def _generator(device="cuda"):
    from . import _C
    return _C._device_generator(_rng_index(device))


def __getattr__(name):
    if name == "default_generators":  # torch.cuda.default_generators: one per device
        from . import _C
        return tuple(_C._device_generator(i) for i in range(device_count()))
    raise AttributeError("module 'tensorlib.cuda' has no attribute '%s'" % name)


def manual_seed(seed):
    """Seeds the CUDA generator of the current device (torch.cuda.manual_seed).

    The generator is Philox4x32-10 with the counter scheme of
    ``tensorlib.Generator(kind="philox")``: after ``manual_seed(s)`` the CUDA samplers give the
    values of a CPU Philox generator seeded with ``s``. Works before initialisation."""
    _generator().manual_seed(int(seed))


def manual_seed_all(seed):
    """Seeds the CUDA generators of every device (torch.cuda.manual_seed_all)."""
    from . import _C
    _C._device_manual_seed_all(int(seed))


def seed():
    """Seeds the current device's CUDA generator with a nondeterministic number
    (torch.cuda.seed); ``initial_seed()`` tells it."""
    _generator().seed()


def seed_all():
    """Seeds every device's CUDA generator with one nondeterministic number (torch.cuda.seed_all)."""
    manual_seed_all(_generator().seed())


def initial_seed():
    """The seed of the current device's CUDA generator (torch.cuda.initial_seed); initialises CUDA."""
    _lazy_init()
    return _generator().initial_seed()


def get_rng_state(device="cuda"):
    """The state of a device's CUDA generator as a uint8 CPU tensor (torch.cuda.get_rng_state):
    the bytes of ``Generator.get_state()`` of a Philox generator, so a CPU
    ``Generator(kind="philox")`` can take it too. Initialises CUDA."""
    _lazy_init()
    return _generator(device).get_state()


def set_rng_state(new_state, device="cuda"):
    """Restores a device's CUDA generator from ``get_rng_state()`` (or a CPU Philox generator's
    ``get_state()``); a state of another kind raises RuntimeError (torch.cuda.set_rng_state)."""
    _generator(device).set_state(new_state)


def get_rng_state_all():
    """The states of every device's CUDA generator, a list (torch.cuda.get_rng_state_all)."""
    return [get_rng_state(i) for i in range(device_count())]


def set_rng_state_all(new_states):
    """Restores every device's CUDA generator from a list of states (torch.cuda.set_rng_state_all)."""
    for i, st in enumerate(new_states):
        set_rng_state(st, i)


# ---- streams and events -------------------------------------------------------------------
# Handles are the CUDA runtime's (cudaStream_t / cudaEvent_t) as ints; 0 is the legacy default
# stream. The current stream is per thread and device, as torch's.

class Stream:
    """A CUDA stream of a device: an ordered queue of work (torch.cuda.Stream)."""

    def __init__(self, device=None, priority=0, **kwargs):
        if _module() is None:
            raise RuntimeError("torch.cuda.Stream requires CUDA support")
        _lazy_init()
        if "stream_ptr" in kwargs:  # an existing stream (torch.cuda.ExternalStream's role)
            idx = _index(device)
            handle = int(kwargs.pop("stream_ptr"))
        else:
            idx = _index(device) if device is not None else current_device()
            if idx < 0:
                idx = current_device()
            handle = None
        if kwargs:
            raise TypeError("Stream() got an unexpected keyword argument '%s'" % next(iter(kwargs)))
        if handle is None:
            handle = _backend.stream_create(idx, int(priority))
        self._set(idx, handle, priority)

    def _set(self, idx, handle, priority=0):
        from . import device as _device
        self.device_index, self.cuda_stream = idx, handle
        self.priority = -1 if priority < 0 else 0
        self.device = _device("cuda", idx)

    @classmethod
    def _wrap(cls, idx, handle):
        self = object.__new__(cls)
        self._set(idx, handle)
        return self

    def query(self):
        """True when all the work queued on the stream has finished."""
        return _backend.stream_query(self.cuda_stream)

    def synchronize(self):
        """Waits until all the work queued on the stream has finished."""
        _backend.stream_synchronize(self.cuda_stream)

    def wait_event(self, event):
        """Makes the work queued on the stream from now on wait for ``event``."""
        event.wait(self)

    def wait_stream(self, stream):
        """Makes the work queued on the stream from now on wait for the work queued on ``stream`` so far."""
        self.wait_event(stream.record_event())

    def record_event(self, event=None):
        """Records ``event`` (a new one when None) on the stream and gives it."""
        if event is None:
            event = Event()
        event.record(self)
        return event

    def __eq__(self, other):
        return isinstance(other, Stream) and (self.cuda_stream, self.device_index) == (other.cuda_stream, other.device_index)

    def __hash__(self):
        return hash((self.cuda_stream, self.device_index))

    def __enter__(self):
        self._ctx = StreamContext(self)
        self._ctx.__enter__()
        return self

    def __exit__(self, *exc):
        return self._ctx.__exit__(*exc)

    def __repr__(self):
        return "<tensorlib.cuda.Stream device=%s cuda_stream=%#x>" % (self.device, self.cuda_stream)


class Event:
    """A CUDA event: a marker in a stream's work, to wait for or time (torch.cuda.Event). The
    CUDA event is created on the first ``record``."""

    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        self._handle, self._device_index = None, -1
        if _module() is None:
            raise RuntimeError("Tried to instantiate dummy base class Event")  # torch's CPU-only build
        self.enable_timing, self.blocking, self.interprocess = bool(enable_timing), bool(blocking), bool(interprocess)

    @property
    def cuda_event(self):
        """The CUDA event's handle (0 before the first ``record``)."""
        return self._handle or 0

    def record(self, stream=None):
        """Records the event on ``stream`` (the current stream when None)."""
        if stream is None:
            stream = current_stream()
        if self._handle is None:
            self._handle = _backend.event_create(stream.device_index, self.enable_timing, self.blocking,
                                                 self.interprocess)
            self._device_index = stream.device_index
        elif stream.device_index != self._device_index:
            raise RuntimeError("Event device %d does not match recording stream's device %d."
                               % (self._device_index, stream.device_index))
        _backend.event_record(self._handle, stream.cuda_stream)

    def wait(self, stream=None):
        """Makes the work queued on ``stream`` (the current stream when None) from now on wait for the event."""
        if stream is None:
            stream = current_stream()
        if self._handle is not None:
            _backend.stream_wait_event(stream.cuda_stream, self._handle)

    def query(self):
        """True when the work recorded before the event has finished (True before any ``record``)."""
        return True if self._handle is None else _backend.event_query(self._handle)

    def synchronize(self):
        """Waits until the work recorded before the event has finished (nothing before any ``record``)."""
        if self._handle is not None:
            _backend.event_synchronize(self._handle)

    def elapsed_time(self, end_event):
        """Milliseconds between this event and ``end_event``, both recorded with enable_timing=True."""
        if self._handle is None or end_event._handle is None:
            raise RuntimeError("Both events must be recorded before calculating elapsed time.")
        return _backend.event_elapsed(self._handle, end_event._handle)

    def __del__(self):
        handle, self._handle = getattr(self, "_handle", None), None
        if handle is not None and _backend is not None:
            try:
                _backend.event_destroy(handle)
            except Exception:  # noqa: BLE001 - at interpreter exit the runtime may be gone
                pass

    def __repr__(self):
        return "<tensorlib.cuda.Event %#x>" % self._handle if self._handle else "<tensorlib.cuda.Event uninitialized>"


def current_stream(device=None):
    """The stream selected on the device (the default stream unless ``stream``/``set_stream`` chose another)."""
    _lazy_init()
    idx = _index(device)
    return Stream._wrap(idx, _backend.get_stream(idx))


def default_stream(device=None):
    """The device's default stream (the legacy default stream, handle 0)."""
    _lazy_init()
    return Stream._wrap(_index(device), 0)


def set_stream(stream):
    """Selects ``stream`` on its device (nothing for None); prefer the ``stream`` context manager."""
    if stream is None:
        return
    _lazy_init()
    _backend.set_stream(stream.cuda_stream, stream.device_index)


class StreamContext:
    """Context manager selecting a stream for its block (what ``stream(s)`` gives)."""

    def __init__(self, stream):
        self.stream = stream
        idx = _optional_index(None)
        self.idx = -1 if idx is None else idx
        self.src_prev_stream = self.dst_prev_stream = None

    def __enter__(self):
        cur = self.stream
        if cur is None or self.idx == -1:  # torch: nothing to do without a stream or a device
            return
        self.src_prev_stream = current_stream(None)
        if self.src_prev_stream.device != cur.device:
            with device(cur.device):
                self.dst_prev_stream = current_stream(cur.device)
        set_stream(cur)

    def __exit__(self, *exc):
        cur = self.stream
        if cur is None or self.idx == -1:
            return
        if self.src_prev_stream.device != cur.device:
            set_stream(self.dst_prev_stream)
        set_stream(self.src_prev_stream)


def stream(stream):
    """Context manager selecting ``stream`` for its block; nothing happens for None or without a device."""
    return StreamContext(stream)


# the composed docstrings (tensorlib/_docgen_lazy.py, scripts/gen_docs.py); this module loads on first
# use, after `import tensorlib` attached the others
from . import _docattach  # noqa: E402
_docattach.attach_loaded("tensorlib", "cuda")
