"""The docstring table, part 3: tensorlib.cuda ("cuda.name"), the Array API namespace
("array_api.name", "array_api.linalg.name", "array_api.fft.name"), Tensor's operators and protocol
methods ("Tensor.__add__"), and what is not a function: CLASSES and PROPS. See
tensorlib/_docstrings.py, which merges the parts."""

ARGS = {}  # argument descriptions these entries add to _docstrings.ARGS
OPS = {}
CLASSES = {}
PROPS = {}
RAISES = set()
NOT_NUMPY = set()
NOT_TORCH = set()  # added to _docstrings.NOT_TORCH, each with its reason below

# ---- tensorlib.cuda: the examples run as a build without CUDA (torch's CPU-only build), on any machine ----
_NO_CUDA = " Without a usable device (the example: a build without CUDA) it raises torch's error."
_DEV = "the device: an index, ``'cuda:N'``, a ``tl.device`` or None for the current one."
_STAT = ("Gives the bytes %s on a device (0 before CUDA is initialised, as torch answers without a "
         "device).")
OPS.update({
    "cuda.is_available": ("Tells whether a CUDA device can be used now; never raises.",
                          "a Python bool: False without the CUDA backend, a driver or a device.",
                          "tl.cuda.is_available()"),
    "cuda.is_built": ("Tells whether tensorlib was built with its CUDA backend module (tensorlib's own; "
                      "torch has ``torch.backends.cuda.is_built``).", "a Python bool.", "tl.cuda.is_built()"),
    "cuda.device_count": ("Counts the CUDA devices usable now.",
                          "an int: 0 without the backend, a driver or a device.", "tl.cuda.device_count()"),
    "cuda.is_initialized": ("Tells whether the CUDA state has been initialised (by ``init()`` or a first CUDA "
                            "tensor).", "a Python bool.", "tl.cuda.is_initialized()"),
    "cuda.init": ("Initialises the CUDA state (done lazily by the first CUDA tensor)." + _NO_CUDA,
                  "None.", "tl.cuda.init()"),
    "cuda.current_device": ("Gives the index of the selected CUDA device." + _NO_CUDA, "an int.",
                            "tl.cuda.current_device()"),
    "cuda.set_device": ("Selects the current CUDA device; a negative index does nothing, as in torch." + _NO_CUDA,
                        "None.", "tl.cuda.set_device(-1)\ntl.cuda.set_device(0)", {"device": _DEV}),
    "cuda.synchronize": ("Waits until all work queued on the device has finished." + _NO_CUDA, "None.",
                         "tl.cuda.synchronize()", {"device": _DEV}),
    "cuda.get_device_properties": ("Gives a device's properties: name, total_memory (bytes), major, minor, "
                                   "multi_processor_count." + _NO_CUDA,
                                   "a ``_CudaDeviceProperties`` object.", "tl.cuda.get_device_properties(0)",
                                   {"device": _DEV}),
    "cuda.get_device_name": ("Gives a device's name (as ``get_device_properties(device).name``)." + _NO_CUDA,
                             "a str.", "tl.cuda.get_device_name()", {"device": _DEV}),
    "cuda.get_device_capability": ("Gives a device's compute capability." + _NO_CUDA, "a tuple (major, minor).",
                                   "tl.cuda.get_device_capability(0)", {"device": _DEV}),
    "cuda.memory_allocated": (_STAT % "held by tensors now", "an int.", "tl.cuda.memory_allocated()",
                              {"device": _DEV}),
    "cuda.max_memory_allocated": (_STAT % "held by tensors at the peak (since the start or the last "
                                  "``reset_peak_memory_stats``)", "an int.", "tl.cuda.max_memory_allocated()",
                                  {"device": _DEV}),
    "cuda.memory_reserved": (_STAT % "held by the caching allocator (in use or cached for reuse)", "an int.",
                             "tl.cuda.memory_reserved()", {"device": _DEV}),
    "cuda.max_memory_reserved": (_STAT % "held by the caching allocator at the peak", "an int.",
                                 "tl.cuda.max_memory_reserved()", {"device": _DEV}),
    "cuda.reset_peak_memory_stats": ("Resets the peaks (``max_memory_allocated``, ``max_memory_reserved``) to "
                                     "the current values; nothing to do before CUDA is initialised.", "None.",
                                     "tl.cuda.reset_peak_memory_stats()", {"device": _DEV}),
    "cuda.empty_cache": ("Returns the cached, unused blocks of the caching allocator to the driver; nothing to "
                         "do before CUDA is initialised.", "None.", "tl.cuda.empty_cache()"),
    "cuda.manual_seed": ("Seeds the CUDA generator of the current device; before initialisation the seed is "
                         "kept and applied then, as torch queues it.", "None.", "tl.cuda.manual_seed(0)",
                         {"seed": "the seed (an int)."}),
    "cuda.manual_seed_all": ("Seeds the CUDA generators of every device; kept until initialisation, as in "
                             "torch.", "None.", "tl.cuda.manual_seed_all(0)", {"seed": "the seed (an int)."}),
})
RAISES |= {"cuda.init", "cuda.current_device", "cuda.set_device", "cuda.synchronize", "cuda.get_device_properties",
           "cuda.get_device_name", "cuda.get_device_capability"}
NOT_TORCH |= {
    "cuda.is_built",  # tensorlib's own (torch.cuda has no is_built)
    "cuda.set_device",  # torch's CPU-only build fails with AttributeError (a missing binding), tensorlib as its lazy init
    "cuda.reset_peak_memory_stats",  # same: torch's CPU-only build raises AttributeError, torch with CUDA does nothing
}
CLASSES["cuda.device"] = (
    "device(device)", "Context manager selecting a CUDA device for its block and restoring the previous one "
    "after; a negative index (or None) selects nothing, so the block runs without a device too.",
    "tl.cuda.device('cuda:1').idx\ntl.cuda.device(-1).idx",
    {"device": "the device: an index, ``'cuda:N'`` or a ``tl.device``; negative or None: none."})
