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
    "cuda.manual_seed": ("Seeds the CUDA generator of the current device: a Philox4x32-10 generator with the "
                         "counter scheme of ``tl.Generator(kind='philox')``, so the CUDA samplers then give the "
                         "numbers of a CPU Philox generator seeded the same (docs/random.md). Needs no device: the "
                         "generators live in the core (torch queues the seed instead).", "None.",
                         "tl.cuda.manual_seed(0)", {"seed": "the seed (an int)."}),
    "cuda.manual_seed_all": ("Seeds the CUDA generators of every device (``tl.manual_seed`` does it too, as "
                             "torch's).", "None.", "tl.cuda.manual_seed_all(0)", {"seed": "the seed (an int)."}),
    "cuda.seed": ("Seeds the current device's CUDA generator with a nondeterministic number (``initial_seed()`` "
                  "tells it).", "None.", "tl.cuda.seed()", {}),
    "cuda.seed_all": ("Seeds every device's CUDA generator with one nondeterministic number.", "None.",
                      "tl.cuda.seed_all()", {}),
    "cuda.initial_seed": ("Gives the seed of the current device's CUDA generator." + _NO_CUDA, "an int.",
                          "tl.cuda.initial_seed()", {}),
    "cuda.get_rng_state": ("Gives the state of a device's CUDA generator: the bytes of a Philox generator's "
                           "``Generator.get_state()``, which a CPU ``Generator(kind='philox')`` takes too."
                           + _NO_CUDA, "a 1-D uint8 CPU tensor.", "tl.cuda.get_rng_state()",
                           {"device": _DEV.replace("None for", "``'cuda'`` for")}),
    "cuda.set_rng_state": ("Restores a device's CUDA generator from ``get_rng_state()`` or a CPU Philox "
                           "generator's ``get_state()`` (the device then continues that generator's numbers); a "
                           "state of another kind raises RuntimeError.", "None.",
                           "g = tl.Generator(kind='philox').manual_seed(5)\ntl.cuda.set_rng_state(g.get_state())",
                           {"new_state": "a uint8 tensor from ``get_rng_state()`` or ``Generator.get_state()``.",
                            "device": _DEV.replace("None for", "``'cuda'`` for")}),
    "cuda.get_rng_state_all": ("Gives the states of every device's CUDA generator.",
                               "a list of uint8 tensors, one per device (empty without a device).",
                               "tl.cuda.get_rng_state_all()", {}),
    "cuda.set_rng_state_all": ("Restores every device's CUDA generator from a list of states.", "None.",
                               "tl.cuda.set_rng_state_all([])",
                               {"new_states": "a list of uint8 tensors, one per device."}),
})
RAISES |= {"cuda.init", "cuda.current_device", "cuda.set_device", "cuda.synchronize", "cuda.get_device_properties",
           "cuda.get_device_name", "cuda.get_device_capability", "cuda.initial_seed", "cuda.get_rng_state"}
NOT_TORCH |= {
    "cuda.is_built",  # tensorlib's own (torch.cuda has no is_built)
    "cuda.set_device",  # torch's CPU-only build fails with AttributeError (a missing binding), tensorlib as its lazy init
    "cuda.reset_peak_memory_stats",  # same: torch's CPU-only build raises AttributeError, torch with CUDA does nothing
    "cuda.set_rng_state",  # the example carries a Philox state (Generator(kind=...) is tensorlib's own)
}
CLASSES["cuda.device"] = (
    "device(device)", "Context manager selecting a CUDA device for its block and restoring the previous one "
    "after; a negative index (or None) selects nothing, so the block runs without a device too. ``idx`` is the "
    "index (for None: the current device where CUDA is usable, else None, as torch's); ``with`` binds None.",
    "tl.cuda.device('cuda:1').idx\ntl.cuda.device(-1).idx",
    {"device": "the device: an index, ``'cuda:N'`` or a ``tl.device``; negative or None: none."})

# streams and events: without a usable device (the examples: a build without CUDA) creating a Stream, using
# the current stream or creating an Event raises torch's error; built without a device an Event can be made
# (its CUDA event comes at the first record), as in torch's CUDA build
_STREAM = ("the stream: a ``tl.cuda.Stream`` (None for the current one)")
OPS.update({
    "cuda.current_stream": ("Gives the stream selected on a device: the default stream unless ``stream`` or "
                            "``set_stream`` chose another." + _NO_CUDA, "a ``tl.cuda.Stream``.",
                            "tl.cuda.current_stream()", {"device": _DEV}),
    "cuda.default_stream": ("Gives a device's default stream (the legacy default stream, handle 0)." + _NO_CUDA,
                            "a ``tl.cuda.Stream``.", "tl.cuda.default_stream()", {"device": _DEV}),
    "cuda.set_stream": ("Selects a stream on its device; None does nothing. The ``stream`` context manager is "
                        "the usual way.", "None.", "tl.cuda.set_stream(None)",
                        {"stream": "the stream to select: a ``tl.cuda.Stream``, or None."}),
    "cuda.stream": ("Context manager selecting a stream for its block (element-wise kernels go on it) and "
                    "restoring the previous one after; with None, or without a usable device, it does nothing, as "
                    "torch's.", "a ``StreamContext`` (``with`` binds None).",
                    "with tl.cuda.stream(None) as s: print(s)",
                    {"stream": "the stream to select: a ``tl.cuda.Stream``, or None."}),
    "cuda.Stream.query": ("Tells whether all the work queued on the stream has finished.", "a Python bool.",
                          "tl.cuda.Stream().query()"),
    "cuda.Stream.synchronize": ("Waits until all the work queued on the stream has finished.", "None.",
                                "tl.cuda.Stream().synchronize()"),
    "cuda.Stream.wait_event": ("Makes the work queued on the stream from now on wait for an event.", "None.",
                               "tl.cuda.Stream().wait_event(tl.cuda.Event())",
                               {"event": "the event: a ``tl.cuda.Event``."}),
    "cuda.Stream.wait_stream": ("Makes the work queued on the stream from now on wait for the work queued on "
                                "another stream so far.", "None.", "tl.cuda.Stream().wait_stream(tl.cuda.Stream())",
                                {"stream": "the stream to wait for: a ``tl.cuda.Stream``."}),
    "cuda.Stream.record_event": ("Records an event on the stream.", "the event.", "tl.cuda.Stream().record_event()",
                                 {"event": "the event to record: a ``tl.cuda.Event``; None: a new one."}),
    "cuda.Event.record": ("Records the event on a stream: it completes when the work queued there so far has.",
                          "None.", "tl.cuda.Event().record()", {"stream": _STREAM + "."}),
    "cuda.Event.wait": ("Makes the work queued on a stream from now on wait for the event (nothing before the "
                        "first ``record``).", "None.", "tl.cuda.Event().wait()", {"stream": _STREAM + "."}),
    "cuda.Event.query": ("Tells whether the work recorded before the event has finished (True before any "
                         "``record``).", "a Python bool.", "tl.cuda.Event().query()"),
    "cuda.Event.synchronize": ("Waits until the work recorded before the event has finished (nothing before any "
                               "``record``).", "None.", "tl.cuda.Event().synchronize()"),
    "cuda.Event.elapsed_time": ("Gives the time between this event and a later one, both recorded, made with "
                                "``enable_timing=True``.", "a float: milliseconds.",
                                "tl.cuda.Event(enable_timing=True).elapsed_time(tl.cuda.Event(enable_timing=True))",
                                {"end_event": "the later event: a ``tl.cuda.Event``."}),
})
RAISES |= {"cuda.current_stream", "cuda.default_stream", "cuda.Stream", "cuda.Stream.query", "cuda.Stream.synchronize",
           "cuda.Stream.wait_event", "cuda.Stream.wait_stream", "cuda.Stream.record_event", "cuda.Event",
           "cuda.Event.record", "cuda.Event.wait", "cuda.Event.query", "cuda.Event.synchronize",
           "cuda.Event.elapsed_time", "cuda.Event.cuda_event"}
NOT_TORCH |= {  # torch's message names torch.cuda.Stream, which the comparison reads as tensorlib.cuda.Stream
    "cuda.Stream", "cuda.Stream.query", "cuda.Stream.synchronize", "cuda.Stream.wait_event",
    "cuda.Stream.wait_stream", "cuda.Stream.record_event"}
# ---- pinned host memory and record_stream: Tensor methods of the CUDA backend ----
OPS.update({
    "Tensor.is_pinned": ("Tells whether the tensor lives in pinned (page-locked) host memory, which copies to and "
                         "from a CUDA device can use asynchronously (``non_blocking=True``).", "a Python bool.",
                         "tl.zeros(2).is_pinned()", {"device": "deprecated (a DeprecationWarning), as in torch."}),
    "Tensor.pin_memory": ("Copies the tensor into pinned host memory, keeping its strides when dense (``self`` "
                          "when it is already pinned; a sparse tensor pins its components)." + _NO_CUDA,
                          "a CPU tensor in pinned memory.", "tl.zeros(2).pin_memory()",
                          {"device": "deprecated (a DeprecationWarning); a CPU device raises, as in torch."}),
    "Tensor.record_stream": ("Marks a CUDA tensor's memory as used by ``stream``: once the tensor is freed, the "
                             "caching allocator hands the memory out again only after the work queued on that "
                             "stream by then is done." + _NO_CUDA, "None.",
                             "tl.zeros(2).record_stream(tl.cuda.current_stream())",
                             {"stream": "the stream: a ``tl.cuda.Stream``."}),
})
RAISES |= {"Tensor.pin_memory", "Tensor.record_stream"}
CUDA_STATE = {"Tensor.pin_memory", "Tensor.record_stream"}  # besides the "cuda." entries

CLASSES["cuda.Stream"] = (
    "Stream(device=None, priority=0, **kwargs)", "A CUDA stream of a device: an ordered queue of work (streams "
    "come from a pool per device and priority, as torch's). ``device``, ``device_index``, ``cuda_stream`` (the "
    "handle) and ``priority`` are its attributes; ``with`` selects it like ``tl.cuda.stream``." + _NO_CUDA,
    "tl.cuda.Stream()",
    {"device": _DEV, "priority": "0 (low) or negative (high).",
     "**kwargs": "``stream_ptr``: wrap an existing stream handle instead of taking one from the pool."})
CLASSES["cuda.Event"] = (
    "Event(enable_timing=False, blocking=False, interprocess=False)", "A CUDA event: a marker in a stream's work, to "
    "wait for or time; the CUDA event is made at the first ``record``. A build without CUDA refuses it with torch's "
    "CPU-only build's error.", "tl.cuda.Event()",
    {"enable_timing": "record times, for ``elapsed_time``.", "blocking": "``synchronize`` blocks instead of "
     "spinning.", "interprocess": "shareable between processes."})
CLASSES["cuda.StreamContext"] = (
    "StreamContext(stream)", "The context manager ``tl.cuda.stream`` gives: selects ``stream`` for its block, "
    "nothing for None or without a usable device (``idx`` is then -1).", "tl.cuda.StreamContext(None).idx",
    {"stream": "the stream to select: a ``tl.cuda.Stream``, or None."})
PROPS["cuda.Event.cuda_event"] = ("The CUDA event's handle (0 before the first ``record``).", "int (read-only)",
                                  "tl.cuda.Event().cuda_event")

# ---- tensorlib.array_api: the standard's parameter names; the examples are checked against NumPy's
# Array API namespace (array_api_compat.numpy), not torch; ``xp`` is tensorlib.array_api ----
_AX = {
    "x": "the input array.", "x1": "the first operand: an array, or a Python scalar when ``x2`` is an array.",
    "x2": "the second operand: an array, or a Python scalar when ``x1`` is an array.",
    "axis": "the axis (an int, negative counting from the end) or a tuple of axes; None: all of them.",
    "keepdims": "keep the reduced axes in the result with size 1.",
    "dtype": "the dtype of the result; None: the standard's default for the arguments.",
    "device": "the device of the result (``'cpu'``, ``'cuda:N'``, a ``tl.device``); None: the default one.",
    "shape": "the shape: an int or a tuple of ints.", "fill_value": "the value of every element.",
    "copy": "True: always copy; False: never copy (raise if needed); None: copy only if needed.",
    "arrays": "the arrays (a list or tuple).", "*arrays": "the arrays, as separate arguments.",
    "k": "which diagonal: 0 the main one, positive above it, negative below.",
    "descending": "sort from largest to smallest.", "stable": "keep equal elements in their original order.",
    "correction": "subtracted from the element count in the divisor (1: the sample statistic).",
    "n": "the length of the transform along the axis (input cropped or zero-padded); None: the input's.",
    "s": "the lengths of the transform along the axes; None: the input's.",
    "axes": "the axes to transform; None: all (the last len(s) when s is given).",
    "norm": "the normalization: ``'backward'`` (none forward), ``'ortho'`` or ``'forward'``.",
}


def _A(summary, returns, code, **args):
    return (summary, returns, code, {**_AX, **args})


# element-wise, one argument: (what is computed, result, example array)
_R = {"f": "an array of ``x``'s shape, in its floating dtype (the default one for an integer ``x``).",
      "k": "an array of ``x``'s shape and dtype.", "b": "a bool array of ``x``'s shape.",
      "r": "a real array of ``x``'s shape (the real dtype of a complex ``x``)."}
_F, _P, _U = "[-1.5, 0.0, 2.0]", "[0.5, 1.0, 4.0]", "[-0.5, 0.0, 0.5]"
_S = "[-xp.inf, -1.0, xp.nan, xp.inf]"
_C = "[1+2j, 3-1j]"
for _n, (_what, _r, _x) in {
        "abs": ("the absolute value", "k", _F), "acos": ("the inverse cosine", "f", _U),
        "acosh": ("the inverse hyperbolic cosine (defined from 1 up)", "f", "[1.0, 2.0, 4.0]"),
        "asin": ("the inverse sine", "f", _U), "asinh": ("the inverse hyperbolic sine", "f", _F),
        "atan": ("the inverse tangent", "f", _F), "atanh": ("the inverse hyperbolic tangent", "f", _U),
        "bitwise_invert": ("the bitwise complement (logical not for bool)", "k", "[0, 5, -3]"),
        "ceil": ("the smallest integer not below the value (integers unchanged)", "k", _F),
        "conj": ("the complex conjugate", "k", _C), "cos": ("the cosine (radians)", "f", _F),
        "cosh": ("the hyperbolic cosine", "f", _F), "exp": ("e to the power of the value", "f", _F),
        "expm1": ("exp(x) - 1, accurate near zero", "f", _F),
        "floor": ("the largest integer not above the value (integers unchanged)", "k", _F),
        "imag": ("the imaginary part", "r", _C), "isfinite": ("whether the value is finite", "b", _S),
        "isinf": ("whether the value is +inf or -inf", "b", _S), "isnan": ("whether the value is NaN", "b", _S),
        "log": ("the natural logarithm", "f", _P), "log10": ("the base-10 logarithm", "f", _P),
        "log1p": ("log(1 + x), accurate near zero", "f", _P), "log2": ("the base-2 logarithm", "f", _P),
        "logical_not": ("the logical negation", "b", "[True, False]"),
        "negative": ("the negation", "k", _F), "positive": ("the value itself (+x)", "k", _F),
        "real": ("the real part", "r", _C), "reciprocal": ("1 / x", "f", _P),
        "round": ("the nearest integer, halves to even", "k", "[0.5, 1.5, 2.5, -0.4]"),
        "sign": ("the sign (-1, 0 or 1; x / |x| for complex)", "k", _F),
        "signbit": ("whether the sign bit is set (True for -0.0)", "b", "[-1.0, -0.0, 0.0, 2.0]"),
        "sin": ("the sine (radians)", "f", _F), "sinh": ("the hyperbolic sine", "f", _F),
        "sqrt": ("the square root", "f", _P), "square": ("x * x", "k", "[-3, 0, 5]"),
        "tan": ("the tangent (radians)", "f", _F), "tanh": ("the hyperbolic tangent", "f", _F),
        "trunc": ("the integer part, rounding toward zero (integers unchanged)", "k", _F)}.items():
    OPS["array_api." + _n] = _A("Computes, for each element of ``x``, %s." % _what, _R[_r],
                                "xp.%s(xp.asarray(%s))" % (_n, _x))

# element-wise, two arguments broadcast against each other: (what, result, x1, x2)
_B = {"p": "an array of the broadcast shape, in the promoted dtype of ``x1`` and ``x2``.",
      "f": "an array of the broadcast shape, in the promoted floating dtype (the default one for integers).",
      "b": "a bool array of the broadcast shape."}
_FF = ("[1.0, -2.0, 3.5]", "[2.0, 2.0, -1.0]")
_II = ("[12, 7, -9]", "[4, 2, 3]")
_BB = ("[True, True, False]", "[True, False, False]")
for _n, (_what, _r, (_a, _b)) in {
        "add": ("the sum x1 + x2", "p", _II), "subtract": ("the difference x1 - x2", "p", _II),
        "multiply": ("the product x1 * x2", "p", _FF), "divide": ("the true quotient x1 / x2", "f", _FF),
        "floor_divide": ("the quotient rounded down (x1 // x2)", "p", ("[7, -7]", "2")),
        "remainder": ("the remainder with the sign of x2 (x1 % x2)", "p", ("[7, -7]", "3")),
        "pow": ("x1 to the power x2", "p", ("[2, 3, 4]", "2")),
        "atan2": ("the angle of the point (x2, x1), in radians, from -pi to pi", "f", ("[1.0, -1.0]", "[-1.0, -1.0]")),
        "hypot": ("sqrt(x1**2 + x2**2) without undue overflow", "f", ("[3.0, 5.0]", "[4.0, 12.0]")),
        "logaddexp": ("log(exp(x1) + exp(x2)) without undue overflow", "f", ("[0.0, 100.0]", "[0.0, 100.0]")),
        "copysign": ("the magnitude of x1 with the sign of x2", "f", ("[1.0, -2.0, 3.0]", "[-1.0, 1.0, -0.0]")),
        "nextafter": ("the next representable float after x1 toward x2", "f",
                      ("[1.0, 1.0]", "[2.0, 0.0]")),
        "maximum": ("the larger value (NaN when either is NaN)", "p", _FF),
        "minimum": ("the smaller value (NaN when either is NaN)", "p", _FF),
        "equal": ("whether x1 == x2", "b", _II), "not_equal": ("whether x1 != x2", "b", _II),
        "greater": ("whether x1 > x2", "b", _II), "greater_equal": ("whether x1 >= x2", "b", _II),
        "less": ("whether x1 < x2", "b", _II), "less_equal": ("whether x1 <= x2", "b", _II),
        "logical_and": ("the logical and", "b", _BB), "logical_or": ("the logical or", "b", _BB),
        "logical_xor": ("the logical exclusive or", "b", _BB),
        "bitwise_and": ("the bitwise and", "p", _II), "bitwise_or": ("the bitwise or", "p", _II),
        "bitwise_xor": ("the bitwise exclusive or", "p", _II),
        "bitwise_left_shift": ("x1 shifted left by x2 bits", "p", ("[1, 3, -2]", "[2, 1, 1]")),
        "bitwise_right_shift": ("x1 shifted right by x2 bits (arithmetic: the sign is kept)", "p",
                                ("[16, 7, -8]", "[2, 1, 1]"))}.items():
    _x2 = "xp.asarray(%s)" % _b if _b.startswith("[") else _b
    OPS["array_api." + _n] = _A("Computes, for each pair of elements of ``x1`` and ``x2`` (broadcast), %s." % _what,
                                _B[_r], "xp.%s(xp.asarray(%s), %s)" % (_n, _a, _x2))
OPS["array_api.nextafter"] = _A(OPS["array_api.nextafter"][0], _B["f"],
                                "x = xp.asarray([1.0, 1.0], dtype=xp.float64)\nxp.nextafter(x, xp.asarray([2.0, 0.0], "
                                "dtype=xp.float64)) - x")

_M = "xp.asarray([[1, 5, 2], [7, 0, 3]])"
_RED = "an array: ``x`` reduced over ``axis`` (a 0-d array when every axis is)."
OPS.update({
    # ---- creation ----
    "array_api.arange": _A("Gives the values from ``start`` (0 when only one bound is given) up to ``stop``, "
                           "exclusive, by ``step``.", "a 1-D array (int64 when every bound is an int, else the "
                           "default floating dtype).", "xp.arange(4)\nxp.arange(1, 2, 0.25)",
                           start="the first value (the end when ``stop`` is None).",
                           stop="the value the sequence stops before.", step="the difference between values."),
    "array_api.asarray": _A("Makes an array from an array, a nested sequence, a Python scalar or a buffer.",
                            "an array (``obj`` itself when it is one and nothing has to change).",
                            "xp.asarray([[1, 2], [3, 4]], dtype=xp.float64)\nxp.asarray(True)",
                            obj="the data: an array, a (nested) list or tuple of scalars, a scalar or a buffer."),
    "array_api.empty": _A("Makes an array of ``shape`` whose elements are not initialised.", "an array of ``shape``.",
                          "xp.empty((2, 3)).shape"),
    "array_api.empty_like": _A("Makes an uninitialised array of ``x``'s shape (and dtype unless given).",
                               "an array of ``x``'s shape.", "xp.empty_like(xp.asarray([[1, 2]])).shape"),
    "array_api.zeros": _A("Makes an array of zeros.", "an array of ``shape`` (default floating dtype unless given).",
                          "xp.zeros((2, 2), dtype=xp.int32)"),
    "array_api.ones": _A("Makes an array of ones.", "an array of ``shape`` (default floating dtype unless given).",
                         "xp.ones(3)"),
    "array_api.zeros_like": _A("Makes an array of zeros of ``x``'s shape and dtype (unless given).",
                               "an array of ``x``'s shape.", "xp.zeros_like(xp.asarray([1, 2]))"),
    "array_api.ones_like": _A("Makes an array of ones of ``x``'s shape and dtype (unless given).",
                              "an array of ``x``'s shape.", "xp.ones_like(xp.asarray([1.5, 2.5]))"),
    "array_api.full": _A("Makes an array whose every element is ``fill_value``.",
                         "an array of ``shape``; dtype from ``fill_value`` (bool, int64, default float or complex) "
                         "unless given.", "xp.full((2, 2), 7)\nxp.full(2, 0.5)"),
    "array_api.full_like": _A("Makes an array of ``x``'s shape filled with ``fill_value``, in ``x``'s dtype unless "
                              "``dtype`` is given.", "an array of ``x``'s shape.",
                              "xp.full_like(xp.asarray([1, 2, 3]), 9)"),
    "array_api.eye": _A("Makes an ``n_rows`` x ``n_cols`` array with ones on the ``k``-th diagonal and zeros "
                        "elsewhere.", "a 2-D array.", "xp.eye(2, 3, k=1)",
                        n_rows="the number of rows.", n_cols="the number of columns (None: ``n_rows``)."),
    "array_api.linspace": _A("Gives ``num`` evenly spaced values from ``start`` to ``stop``.",
                             "a 1-D array of ``num`` values (default floating, or complex, dtype).",
                             "xp.linspace(0, 1, 5)\nxp.linspace(0, 1, 4, endpoint=False)",
                             start="the first value.", stop="the last value (or the bound when not ``endpoint``).",
                             num="how many values.", endpoint="include ``stop`` as the last value."),
    "array_api.meshgrid": _A("Makes coordinate arrays from 1-D arrays.",
                             "a list of arrays of one shape, one per input.",
                             "xp.meshgrid(xp.asarray([1, 2, 3]), xp.asarray([4, 5]), indexing='ij')",
                             indexing="``'xy'`` (Cartesian: the first two axes swapped) or ``'ij'`` (matrix)."),
    "array_api.from_dlpack": _A("Makes an array sharing memory with an object that exports DLPack "
                                "(``__dlpack__``): a NumPy array, a torch tensor, a tensorlib tensor.",
                                "an array viewing ``x``'s memory (a copy when ``copy`` is True).",
                                "xp.from_dlpack(xp.asarray([1, 2, 3]))",
                                x="an object with ``__dlpack__`` and ``__dlpack_device__``."),
    # ---- data types ----
    "array_api.astype": _A("Casts ``x`` to ``dtype``.", "an array of dtype ``dtype`` (``x`` itself when ``copy`` "
                           "is False and the dtype does not change).",
                           "xp.astype(xp.asarray([1.7, -1.7]), xp.int32)", dtype="the target dtype.",
                           copy="True: always a new array; False: ``x`` itself when nothing changes."),
    "array_api.can_cast": _A("Tells whether the standard's type promotion casts ``from_`` to ``to`` (within a "
                             "kind, or bool/integer up to a floating or complex dtype is not).", "a Python bool.",
                             "xp.can_cast(xp.int8, xp.int32)\nxp.can_cast(xp.float64, xp.float32)",
                             from_="a dtype or an array (its dtype).", to="the target dtype."),
    "array_api.finfo": _A("Gives the machine limits of a floating dtype (of its real part for complex).",
                          "an object with bits, eps, max, min, smallest_normal, dtype.",
                          "xp.finfo(xp.float32).bits\nxp.finfo(xp.float64).eps",
                          type="a floating or complex dtype, or an array of one."),
    "array_api.iinfo": _A("Gives the limits of an integer dtype.", "an object with bits, max, min, dtype.",
                          "(xp.iinfo(xp.int8).min, xp.iinfo(xp.int8).max)",
                          type="an integer dtype, or an array of one."),
    "array_api.isdtype": _A("Tells whether a dtype is of a kind.", "a Python bool.",
                            "xp.isdtype(xp.float32, 'real floating')\nxp.isdtype(xp.int8, ('bool', 'integral'))",
                            dtype="the dtype to test.",
                            kind="a dtype, a kind name (``'bool'``, ``'signed integer'``, ``'unsigned integer'``, "
                                 "``'integral'``, ``'real floating'``, ``'complex floating'``, ``'numeric'``) or a "
                                 "tuple of them."),
    "array_api.result_type": _A("Gives the dtype the standard's type promotion gives for arrays, dtypes and "
                                "(2024.12) Python scalars together.", "a dtype.",
                                "xp.result_type(xp.int8, xp.int16)\nxp.result_type(xp.asarray([1], dtype=xp.int8), 1.5)",
                                **{"*arrays_and_dtypes": "the arrays, dtypes and Python scalars."}),
    # ---- reductions and statistics ----
    "array_api.sum": _A("Sums the elements over ``axis``; integers accumulate in the default integer dtype.",
                        _RED, "xp.sum(%s, axis=1)\nxp.sum(xp.asarray([100, 100], dtype=xp.int8))" % _M,
                        dtype="the dtype to accumulate in; None: the default integer dtype for integers, "
                              "``x``'s for floats."),
    "array_api.prod": _A("Multiplies the elements over ``axis``; integers accumulate in the default integer dtype.",
                         _RED, "xp.prod(%s, axis=0)" % _M,
                         dtype="the dtype to accumulate in; None as in ``sum``."),
    "array_api.mean": _A("Gives the arithmetic mean over ``axis`` (floating ``x``).", _RED,
                         "xp.mean(xp.asarray([[1.0, 2.0], [3.0, 5.0]]), axis=0)"),
    "array_api.max": _A("Gives the largest element over ``axis``.", _RED, "xp.max(%s, axis=1, keepdims=True)" % _M),
    "array_api.min": _A("Gives the smallest element over ``axis``.", _RED, "xp.min(%s)" % _M),
    "array_api.std": _A("Gives the standard deviation over ``axis``.", _RED,
                        "xp.std(xp.asarray([1.0, 2.0, 3.0, 4.0]), correction=1)"),
    "array_api.var": _A("Gives the variance over ``axis``.", _RED,
                        "xp.var(xp.asarray([1.0, 2.0, 3.0, 4.0]))"),
    "array_api.all": _A("Tells whether every element over ``axis`` is true (non-zero).", "a bool array.",
                        "xp.all(xp.asarray([[True, False], [True, True]]), axis=1)"),
    "array_api.any": _A("Tells whether some element over ``axis`` is true (non-zero).", "a bool array.",
                        "xp.any(xp.asarray([[0, 0], [0, 3]]), axis=1)"),
    "array_api.count_nonzero": _A("Counts the non-zero elements over ``axis``.", "an int64 array.",
                                  "xp.count_nonzero(%s, axis=0)" % _M),
    "array_api.cumulative_sum": _A("Gives the running sums along ``axis`` (may be omitted for 1-D ``x``).",
                                   "an array (one longer along ``axis`` with ``include_initial``).",
                                   "xp.cumulative_sum(xp.asarray([1, 2, 3]), include_initial=True)",
                                   axis="the axis (required unless ``x`` is 1-D).",
                                   include_initial="start with the empty sum, 0.",
                                   dtype="the dtype to accumulate in; None as in ``sum``."),
    "array_api.cumulative_prod": _A("Gives the running products along ``axis`` (may be omitted for 1-D ``x``).",
                                    "an array (one longer along ``axis`` with ``include_initial``).",
                                    "xp.cumulative_prod(xp.asarray([[1, 2], [3, 4]]), axis=1)",
                                    axis="the axis (required unless ``x`` is 1-D).",
                                    include_initial="start with the empty product, 1.",
                                    dtype="the dtype to accumulate in; None as in ``prod``."),
    "array_api.diff": _A("Gives the ``n``-th forward difference along ``axis`` (``x`` joined with ``prepend`` "
                         "and ``append`` first).", "an array ``n`` shorter along ``axis``.",
                         "xp.diff(xp.asarray([1, 4, 9, 16]))\nxp.diff(xp.asarray([1, 4, 9]), prepend=xp.asarray([0]))",
                         axis="the axis.", n="how many times to difference.",
                         prepend="an array joined before ``x`` along ``axis``.",
                         append="an array joined after ``x`` along ``axis``."),
    # ---- searching and sorting ----
    "array_api.argmax": _A("Gives the index of the (first) largest element along ``axis``.",
                           "an int64 array (of the flattened ``x`` when ``axis`` is None).",
                           "xp.argmax(%s, axis=1)\nxp.argmax(%s)" % (_M, _M), axis="the axis; None: flattened."),
    "array_api.argmin": _A("Gives the index of the (first) smallest element along ``axis``.",
                           "an int64 array (of the flattened ``x`` when ``axis`` is None).",
                           "xp.argmin(%s, axis=0)" % _M, axis="the axis; None: flattened."),
    "array_api.argsort": _A("Gives the indices that sort ``x`` along ``axis``.", "an int64 array of ``x``'s shape.",
                            "xp.argsort(xp.asarray([3, 1, 2]))\nxp.argsort(xp.asarray([3, 1, 2]), descending=True)",
                            axis="the axis to sort along."),
    "array_api.sort": _A("Sorts ``x`` along ``axis``.", "an array of ``x``'s shape and dtype.",
                         "xp.sort(xp.asarray([[3, 1, 2], [0, 9, 4]]), descending=True)", axis="the axis to sort along."),
    "array_api.nonzero": _A("Gives the indices of the non-zero elements, one array per dim (a 0-d ``x`` raises "
                            "ValueError).", "a tuple of int64 arrays.", "xp.nonzero(xp.asarray([[0, 2], [3, 0]]))"),
    "array_api.searchsorted": _A("Gives, for each element of ``x2``, where it would be inserted into the sorted "
                                 "1-D ``x1`` to keep it sorted.", "an int64 array of ``x2``'s shape.",
                                 "xp.searchsorted(xp.asarray([1, 3, 3, 5]), xp.asarray([3, 6]))\n"
                                 "xp.searchsorted(xp.asarray([1, 3, 3, 5]), xp.asarray([3, 6]), side='right')",
                                 x1="the sorted 1-D array (or unsorted, with ``sorter``).", x2="the values to place.",
                                 side="``'left'``: before equal elements; ``'right'``: after them.",
                                 sorter="indices that sort ``x1`` (None: it is sorted)."),
    "array_api.where": _A("Chooses, element by element, from ``x1`` where ``condition`` holds and from ``x2`` "
                          "elsewhere (broadcast).", "an array of the broadcast shape and promoted dtype.",
                          "xp.where(xp.asarray([True, False, True]), xp.asarray([1, 2, 3]), 0)",
                          condition="a bool array.", x1="the values where ``condition`` is True (or a scalar).",
                          x2="the values elsewhere (or a scalar)."),
    # ---- manipulation ----
    "array_api.broadcast_arrays": _A("Broadcasts the arrays against each other.",
                                     "a list of views, all of the broadcast shape.",
                                     "[a.shape for a in xp.broadcast_arrays(xp.asarray([1, 2]), xp.asarray([[3], [4]]))]"),
    "array_api.broadcast_to": _A("Broadcasts ``x`` to ``shape``.", "a view of ``shape``.",
                                 "xp.broadcast_to(xp.asarray([1, 2]), (2, 2))", shape="the target shape."),
    "array_api.concat": _A("Joins the arrays along an existing ``axis``.", "an array.",
                           "xp.concat([xp.asarray([[1, 2]]), xp.asarray([[3, 4]])], axis=1)\n"
                           "xp.concat([xp.asarray([[1]]), xp.asarray([2, 3])], axis=None)",
                           axis="the axis to join along; None: the arrays flattened first."),
    "array_api.stack": _A("Joins arrays of one shape along a new ``axis``.", "an array with one more dim.",
                          "xp.stack([xp.asarray([1, 2]), xp.asarray([3, 4])], axis=1)", axis="where the new axis goes."),
    "array_api.unstack": _A("Splits ``x`` into its slices along ``axis``.", "a tuple of views, one less dim each.",
                            "xp.unstack(xp.asarray([[1, 2], [3, 4]]), axis=1)", axis="the axis to split along."),
    "array_api.expand_dims": _A("Inserts a unit dim at ``axis``.", "a view with one more dim.",
                                "xp.expand_dims(xp.asarray([1, 2]), axis=0).shape",
                                axis="where the new dim goes (in [-x.ndim - 1, x.ndim])."),
    "array_api.squeeze": _A("Removes the unit dims at ``axis``; a dim there whose size is not 1 raises ValueError.",
                            "a view with fewer dims.", "xp.squeeze(xp.zeros((1, 3, 1)), axis=(0, 2)).shape",
                            axis="the axis or tuple of axes to remove."),
    "array_api.flip": _A("Reverses the order of the elements along ``axis``.", "an array of ``x``'s shape.",
                         "xp.flip(xp.asarray([[1, 2], [3, 4]]), axis=1)"),
    "array_api.moveaxis": _A("Moves dims of ``x`` to new positions, the others keeping their order.",
                             "a view.", "xp.moveaxis(xp.zeros((2, 3, 4)), 0, -1).shape",
                             source="the original position(s) (an int or a tuple).",
                             destination="the new position(s), as many as ``source``."),
    "array_api.permute_dims": _A("Reorders the dims of ``x``.", "a view.",
                                 "xp.permute_dims(xp.zeros((2, 3, 4)), (2, 0, 1)).shape",
                                 axes="a permutation of ``range(x.ndim)``."),
    "array_api.matrix_transpose": _A("Swaps the last two dims of ``x`` (a stack of matrices).", "a view.",
                                     "xp.matrix_transpose(xp.asarray([[1, 2, 3], [4, 5, 6]]))",
                                     x="an array of at least two dims."),
    "array_api.reshape": _A("Gives ``x`` with a new shape (a view when possible).", "an array of ``shape``.",
                            "xp.reshape(xp.arange(6), (2, -1))",
                            shape="the new shape; one entry may be -1 (inferred).",
                            copy="True: always copy; False: raise when a view is impossible; None: as needed."),
    "array_api.roll": _A("Shifts the elements cyclically by ``shift`` along ``axis``.", "an array of ``x``'s shape.",
                         "xp.roll(xp.asarray([1, 2, 3, 4]), 1)\nxp.roll(xp.asarray([[1, 2], [3, 4]]), -1, axis=0)",
                         shift="the shift (an int, or a tuple as long as ``axis``).",
                         axis="the axis or axes; None: the flattened array, reshaped back."),
    "array_api.repeat": _A("Repeats each element (along ``axis``; of the flattened ``x`` when None).",
                           "an array.", "xp.repeat(xp.asarray([1, 2, 3]), 2)\n"
                           "xp.repeat(xp.asarray([[1, 2], [3, 4]]), xp.asarray([1, 2]), axis=0)",
                           repeats="an int, or a 1-D int array of one count per element along ``axis``.",
                           axis="the axis; None: flattened first."),
    "array_api.tile": _A("Repeats ``x`` ``repetitions`` times per dim.", "an array.",
                         "xp.tile(xp.asarray([1, 2]), (2, 2))", repetitions="a tuple of repeats per dim."),
    "array_api.take": _A("Gives the elements at ``indices`` along ``axis``.", "an array.",
                         "xp.take(xp.asarray([10, 20, 30]), xp.asarray([2, 0]))\n"
                         "xp.take(xp.asarray([[1, 2], [3, 4]]), xp.asarray([1]), axis=1)",
                         indices="a 1-D int array.", axis="the axis (may be omitted for 1-D ``x``)."),
    "array_api.take_along_axis": _A("Gives the elements at ``indices`` (an array of ``x``'s rank) along ``axis``.",
                                    "an array of the broadcast shape.",
                                    "x = xp.asarray([[3, 1], [2, 4]])\n"
                                    "xp.take_along_axis(x, xp.argsort(x, axis=1), axis=1)",
                                    indices="an int array with ``x``'s number of dims.", axis="the axis."),
    "array_api.clip": _A("Clamps every element to [``min``, ``max``] (either bound may be None).",
                         "an array of ``x``'s shape and dtype.", "xp.clip(xp.asarray([-2, 0, 5]), min=-1, max=3)",
                         min="the lower bound: a scalar, an array or None.",
                         max="the upper bound: a scalar, an array or None."),
    "array_api.tril": _A("Keeps the lower triangle (on and below the ``k``-th diagonal) of the last two dims.",
                         "an array of ``x``'s shape.", "xp.tril(xp.ones((3, 3), dtype=xp.int64))"),
    "array_api.triu": _A("Keeps the upper triangle (on and above the ``k``-th diagonal) of the last two dims.",
                         "an array of ``x``'s shape.", "xp.triu(xp.ones((3, 3), dtype=xp.int64), k=1)"),
    # ---- products ----
    "array_api.matmul": _A("Computes the matrix product, broadcasting stacks; a 1-D operand is a vector.",
                           "an array.", "xp.matmul(xp.asarray([[1, 2], [3, 4]]), xp.asarray([1, 1]))",
                           x1="the first array (not a scalar).", x2="the second array (not a scalar)."),
    "array_api.tensordot": _A("Sums the products of ``x1`` and ``x2`` over the contracted axes.", "an array.",
                              "xp.tensordot(xp.ones((2, 3)), xp.ones((3, 4)), axes=1).shape",
                              x1="the first array.", x2="the second array.",
                              axes="an int (the last ``axes`` of x1 with the first of x2) or two sequences of axes."),
    "array_api.vecdot": _A("Computes the dot product of vectors along ``axis`` (``x1`` conjugated), broadcasting "
                           "the other dims.", "an array.",
                           "xp.vecdot(xp.asarray([[1, 2], [3, 4]]), xp.asarray([1, 1]))",
                           x1="the first array.", x2="the second array.", axis="the axis of the vectors."),
    # ---- sets ----
    "array_api.unique_values": _A("Gives the unique elements, sorted (each NaN counts as distinct).",
                                  "a 1-D array.", "xp.unique_values(xp.asarray([3, 1, 3, 2]))"),
    "array_api.unique_counts": _A("Gives the unique elements and how often each occurs.",
                                  "a named tuple (values, counts).", "xp.unique_counts(xp.asarray([3, 1, 3]))"),
    "array_api.unique_inverse": _A("Gives the unique elements and, per element of ``x``, the index of its value "
                                   "among them.", "a named tuple (values, inverse_indices of ``x``'s shape).",
                                   "xp.unique_inverse(xp.asarray([3, 1, 3]))"),
    "array_api.unique_all": _A("Gives the unique elements, the index of each one's first occurrence, the inverse "
                               "indices and the counts.",
                               "a named tuple (values, indices, inverse_indices, counts).",
                               "xp.unique_all(xp.asarray([3, 1, 3]))"),
    "array_api.__array_namespace_info__": _A("Gives the namespace's inspection object: its capabilities, default "
                                             "device, devices, default dtypes and dtypes.",
                                             "an object with capabilities(), default_device(), devices(), "
                                             "default_dtypes(), dtypes().",
                                             "info = xp.__array_namespace_info__()\ninfo.capabilities()['max dimensions']\n"
                                             "info.default_dtypes()['indexing']"),
})

_SPD = "xp.asarray([[4.0, 2.0], [2.0, 3.0]])"
_SQ = "xp.asarray([[1.0, 2.0], [3.0, 4.0]])"
_STACK = "an array (a stack of results for a stack of matrices)."
_MX = "a matrix or a stack of matrices, shape (..., M, N)."
_SQX = "a square matrix or a stack of them, shape (..., M, M)."
_RTOL = "singular values at most ``rtol`` times the largest count as zero; None: max(M, N) times the dtype's eps."
OPS.update({
    "array_api.linalg.cholesky": _A("Computes the Cholesky factor of a symmetric (Hermitian) positive-definite "
                                    "matrix.", "the lower (or upper) triangular factor, of ``x``'s shape.",
                                    "xp.linalg.cholesky(%s)" % _SPD, x=_SQX,
                                    upper="give the upper factor U (x = U^H U) instead of the lower one."),
    "array_api.linalg.cross": _A("Computes the cross product of 3-element vectors along ``axis``, broadcasting the "
                                 "other dims.", "an array of the broadcast shape.",
                                 "xp.linalg.cross(xp.asarray([1, 0, 0]), xp.asarray([0, 1, 0]))",
                                 x1="the first array (size 3 along ``axis``).",
                                 x2="the second array (size 3 along ``axis``).", axis="the axis of the vectors."),
    "array_api.linalg.det": _A("Computes the determinant.", _STACK, "xp.linalg.det(%s)" % _SQ, x=_SQX),
    "array_api.linalg.diagonal": _A("Gives the ``offset``-th diagonal of the last two dims.", "an array (a view).",
                                    "xp.linalg.diagonal(xp.asarray([[1, 2], [3, 4]]), offset=1)", x=_MX,
                                    offset="which diagonal: 0 the main one, positive above it, negative below."),
    "array_api.linalg.eigh": _A("Computes the eigenvalues (ascending) and eigenvectors of a symmetric "
                                "(Hermitian) matrix.", "a named tuple (eigenvalues, eigenvectors).",
                                "xp.linalg.eigh(%s).eigenvalues" % _SPD, x=_SQX),
    "array_api.linalg.eigvalsh": _A("Computes the eigenvalues (ascending) of a symmetric (Hermitian) matrix.",
                                    _STACK, "xp.linalg.eigvalsh(%s)" % _SPD, x=_SQX),
    "array_api.linalg.inv": _A("Computes the inverse of a square matrix.", "an array of ``x``'s shape.",
                               "xp.linalg.inv(%s)" % _SPD, x=_SQX),
    "array_api.linalg.matrix_norm": _A("Computes a matrix norm over the last two dims.", _STACK,
                                       "xp.linalg.matrix_norm(%s)\nxp.linalg.matrix_norm(%s, ord=1)" % (_SQ, _SQ),
                                       x=_MX, ord="``'fro'``, ``'nuc'``, 1, 2, inf, -1, -2 or -inf."),
    "array_api.linalg.matrix_power": _A("Multiplies a square matrix by itself ``n`` times (``n`` < 0: its inverse; "
                                        "0: the identity).", "an array of ``x``'s shape.",
                                        "xp.linalg.matrix_power(xp.asarray([[1, 1], [0, 1]]), 3)", x=_SQX,
                                        n="the exponent (an int)."),
    "array_api.linalg.matrix_rank": _A("Computes the rank: the number of singular values above the tolerance.",
                                       "an int64 array.", "xp.linalg.matrix_rank(xp.asarray([[1.0, 2.0], [2.0, 4.0]]))",
                                       x=_MX, rtol=_RTOL),
    "array_api.linalg.outer": _A("Computes the outer product of two vectors.", "a 2-D array (len(x1), len(x2)).",
                                 "xp.linalg.outer(xp.asarray([1, 2]), xp.asarray([1, 10, 100]))",
                                 x1="the first 1-D array.", x2="the second 1-D array."),
    "array_api.linalg.pinv": _A("Computes the Moore-Penrose pseudo-inverse.", "an array of shape (..., N, M).",
                                "xp.linalg.pinv(xp.asarray([[1.0, 0.0], [0.0, 0.0]]))", x=_MX, rtol=_RTOL),
    "array_api.linalg.qr": _A("Computes the QR decomposition x = QR (Q orthonormal columns, R upper triangular).",
                              "a named tuple (Q, R).",
                              "xp.abs(xp.linalg.qr(%s).R)" % _SQ, x=_MX,
                              mode="``'reduced'`` (Q is M x K) or ``'complete'`` (Q is M x M)."),
    "array_api.linalg.slogdet": _A("Computes the sign and the natural log of the absolute value of the determinant.",
                                   "a named tuple (sign, logabsdet).", "xp.linalg.slogdet(%s)" % _SQ, x=_SQX),
    "array_api.linalg.solve": _A("Solves x1 @ x = x2 for x; ``x2`` is a stack of matrices unless it is 1-D (a "
                                 "vector).", "an array of ``x2``'s (broadcast) shape.",
                                 "xp.linalg.solve(%s, xp.asarray([2.0, 1.0]))" % _SPD,
                                 x1="the coefficient matrix (or stack), square.", x2="the right-hand side."),
    "array_api.linalg.svd": _A("Computes the singular value decomposition x = U diag(S) Vh.",
                               "a named tuple (U, S, Vh), S descending.",
                               "xp.linalg.svd(%s, full_matrices=False).S" % _SQ, x=_MX,
                               full_matrices="U and Vh square (True) or reduced to K = min(M, N) (False)."),
    "array_api.linalg.svdvals": _A("Computes the singular values (descending).", _STACK,
                                   "xp.linalg.svdvals(%s)" % _SQ, x=_MX),
    "array_api.linalg.trace": _A("Sums the ``offset``-th diagonal of the last two dims (integers accumulate in the "
                                 "default integer dtype).", _STACK,
                                 "xp.linalg.trace(xp.asarray([[1, 2], [3, 4]]))", x=_MX,
                                 offset="which diagonal: 0 the main one, positive above it, negative below.",
                                 dtype="the dtype to accumulate in; None as in ``sum``."),
    "array_api.linalg.vector_norm": _A("Computes a vector norm over ``axis`` (all dims when None).", _RED,
                                       "xp.linalg.vector_norm(xp.asarray([3.0, -4.0]))\n"
                                       "xp.linalg.vector_norm(xp.asarray([3.0, -4.0]), ord=1)",
                                       ord="the order: a positive or negative number, inf or -inf (2: Euclidean)."),
})
_SIG = "xp.asarray([1.0, 2.0, 0.0, -1.0])"
for _n, (_what, _ret, _code) in {
        "fft": ("the one-dimensional discrete Fourier transform", "a complex array.", "xp.fft.fft(%s)" % _SIG),
        "ifft": ("the inverse one-dimensional discrete Fourier transform", "a complex array.",
                 "xp.fft.ifft(xp.fft.fft(%s))" % _SIG),
        "rfft": ("the one-dimensional Fourier transform of real input (the non-negative frequencies)",
                 "a complex array of n // 2 + 1 along ``axis``.", "xp.fft.rfft(%s)" % _SIG),
        "irfft": ("the inverse of ``rfft``: real output from the non-negative frequencies",
                  "a real array (of 2 * (m - 1) along ``axis`` unless ``n`` is given).",
                  "xp.fft.irfft(xp.fft.rfft(%s), n=4)" % _SIG),
        "hfft": ("the Fourier transform of a Hermitian-symmetric signal given by its first half",
                 "a real array.", "xp.fft.hfft(xp.asarray([1.0, 2.0, 3.0]))"),
        "ihfft": ("the inverse of ``hfft``", "a complex array of n // 2 + 1 along ``axis``.",
                  "xp.fft.ihfft(%s)" % _SIG)}.items():
    OPS["array_api.fft." + _n] = _A("Computes %s along ``axis``." % _what, _ret, _code,
                                    x="the input array (" + ("real" if _n in ("rfft", "ihfft") else
                                                             "complex or real") + ").",
                                    axis="the axis to transform.")
_GRID = "xp.asarray([[1.0, 2.0], [3.0, 4.0]])"
for _n, (_what, _ret, _code) in {
        "fftn": ("the n-dimensional discrete Fourier transform", "a complex array.", "xp.fft.fftn(%s)" % _GRID),
        "ifftn": ("the inverse n-dimensional discrete Fourier transform", "a complex array.",
                  "xp.fft.ifftn(xp.fft.fftn(%s))" % _GRID),
        "rfftn": ("the n-dimensional Fourier transform of real input (the last axis halved)", "a complex array.",
                  "xp.fft.rfftn(%s)" % _GRID),
        "irfftn": ("the inverse of ``rfftn``", "a real array.",
                   "xp.fft.irfftn(xp.fft.rfftn(%s), s=(2, 2), axes=(0, 1))" % _GRID)}.items():
    OPS["array_api.fft." + _n] = _A("Computes %s over ``axes``." % _what, _ret, _code)
OPS.update({
    "array_api.fft.fftfreq": _A("Gives the sample frequencies of an ``n``-point FFT with sample spacing ``d``.",
                                "a 1-D array of ``n`` frequencies (0, positive, then negative).",
                                "xp.fft.fftfreq(4, d=0.5)", n="the length of the transform.",
                                d="the sample spacing (the inverse of the sampling rate)."),
    "array_api.fft.rfftfreq": _A("Gives the non-negative sample frequencies of an ``n``-point ``rfft``.",
                                 "a 1-D array of n // 2 + 1 frequencies.", "xp.fft.rfftfreq(4)",
                                 n="the length of the transform.",
                                 d="the sample spacing (the inverse of the sampling rate)."),
    "array_api.fft.fftshift": _A("Moves the zero frequency to the middle along ``axes``.",
                                 "an array of ``x``'s shape.", "xp.fft.fftshift(xp.fft.fftfreq(5))",
                                 axes="the axes to shift; None: all."),
    "array_api.fft.ifftshift": _A("Undoes ``fftshift``: moves the zero frequency back to the start.",
                                  "an array of ``x``'s shape.", "xp.fft.ifftshift(xp.fft.fftshift(xp.fft.fftfreq(5)))",
                                  axes="the axes to shift; None: all."),
})
for _n, _fields in (("UniqueAllResult", "values, indices, inverse_indices, counts"),
                    ("UniqueCountsResult", "values, counts"), ("UniqueInverseResult", "values, inverse_indices")):
    _fn = {"UniqueAllResult": "unique_all", "UniqueCountsResult": "unique_counts",
           "UniqueInverseResult": "unique_inverse"}[_n]
    CLASSES["array_api." + _n] = (
        "%s(%s)" % (_n, _fields), "The named tuple ``xp.%s`` returns (a tuple: unpack it, or read the fields)." % _fn,
        "xp.%s(xp.asarray([2, 1, 2])).%s" % (_fn, _fields.split(", ")[-1]),
        {f: "the %s." % f.replace("_", " ") for f in _fields.split(", ")})

# ---- Tensor's properties: one line, the type, an example ----
_RO = " (read-only)"
PROPS.update({
    "Tensor.shape": ("The size of each dim.", "tensorlib.Size (a tuple of ints)" + _RO, "tl.zeros(2, 3).shape"),
    "Tensor.dtype": ("The element type.", "tensorlib.dtype" + _RO, "tl.tensor([1, 2]).dtype\ntl.tensor([1.5]).dtype"),
    "Tensor.device": ("Where the elements live (the CPU, a CUDA device or meta).", "tensorlib.device" + _RO,
                      "tl.zeros(2).device"),
    "Tensor.layout": ("How the elements are stored: ``tl.strided`` (dense) or a sparse layout.",
                      "tensorlib.layout" + _RO, "tl.zeros(2).layout\ntl.eye(2).to_sparse_csr().layout"),
    "Tensor.names": ("The name of each dim, None where unnamed; assigning renames in place.",
                     "tuple of (str or None), one per dim", "tl.zeros(2, 3, names=('N', None)).names"),
    "Tensor.ndim": ("The number of dims (as ``dim()``).", "int (read-only)", "tl.zeros(2, 3, 4).ndim"),
    "Tensor.T": ("The tensor with all its dims reversed (the transpose of a matrix).", "Tensor (a view)" + _RO,
                 "tl.tensor([[1, 2, 3], [4, 5, 6]]).T"),
    "Tensor.mT": ("The tensor with its last two dims swapped (a stack of matrices transposed).",
                  "Tensor (a view)" + _RO, "tl.zeros(5, 2, 3).mT.shape"),
    "Tensor.H": ("The conjugate transpose of a matrix (the transpose for real ones).", "Tensor" + _RO,
                 "tl.tensor([[1+1j, 2]]).H"),
    "Tensor.mH": ("The conjugate transpose of the last two dims (a stack of matrices).", "Tensor" + _RO,
                  "tl.tensor([[[1+1j, 2]]]).mH"),
    "Tensor.real": ("The real parts: a view of a complex tensor, the tensor itself for a real one.",
                    "Tensor (a view)" + _RO, "tl.tensor([1+2j, 3-1j]).real"),
    "Tensor.imag": ("The imaginary parts of a complex tensor (a view); a real tensor raises RuntimeError.",
                    "Tensor (a view)" + _RO, "tl.tensor([1+2j, 3-1j]).imag"),
    "Tensor.itemsize": ("The bytes one element takes.", "int (read-only)", "tl.zeros(2, dtype=tl.float64).itemsize"),
    "Tensor.nbytes": ("The bytes the elements take (numel * itemsize; a view counts its own elements).",
                      "int (read-only)", "tl.zeros(2, 3).nbytes"),
    "Tensor.is_sparse": ("Whether the tensor is sparse COO.", "bool" + _RO,
                         "tl.eye(2).to_sparse().is_sparse\ntl.eye(2).is_sparse"),
    "Tensor.is_sparse_csr": ("Whether the tensor is sparse CSR.", "bool" + _RO, "tl.eye(2).to_sparse_csr().is_sparse_csr"),
    "Tensor.is_cpu": ("Whether the tensor lives on the CPU.", "bool" + _RO, "tl.zeros(2).is_cpu"),
    "Tensor.is_cuda": ("Whether the tensor lives on a CUDA device.", "bool" + _RO, "tl.zeros(2).is_cuda"),
    "Tensor.is_meta": ("Whether the tensor is on the meta device (shape only, no elements).", "bool" + _RO,
                       "tl.zeros(2, device='meta').is_meta"),
    "Tensor.is_leaf": ("Whether the tensor is a leaf of the autograd graph: always True (no autograd).",
                       "bool" + _RO, "tl.zeros(2).is_leaf"),
    "Tensor.is_mkldnn": ("Whether the tensor is an MKL-DNN tensor: always False.", "bool" + _RO, "tl.zeros(2).is_mkldnn"),
    "Tensor.is_nested": ("Whether the tensor is a nested tensor: always False.", "bool" + _RO, "tl.zeros(2).is_nested"),
    **{"Tensor.is_" + _b: ("Whether the tensor lives on a %s device: always False (tensorlib has no such backend)."
                           % _w, "bool" + _RO, "tl.zeros(2).is_" + _b)
       for _b, _w in (("ipu", "Graphcore IPU"), ("xla", "XLA"), ("mps", "Metal (MPS)"), ("xpu", "Intel XPU"),
                      ("maia", "MAIA"), ("mtia", "MTIA"), ("vulkan", "Vulkan"))},
    "Tensor.is_quantized": ("Whether the tensor is quantized: always False.", "bool" + _RO,
                            "tl.zeros(2).is_quantized"),
    "Tensor.grad": ("The accumulated gradient: always None (tensorlib has no autograd).", "Tensor or None" + _RO,
                    "tl.zeros(2).grad is None"),
    "Tensor.grad_fn": ("The function that made the tensor in the autograd graph: always None (no autograd).",
                       "None" + _RO, "tl.zeros(2).grad_fn is None"),
    "Tensor.requires_grad": ("Whether autograd records operations on the tensor: always False; setting True "
                             "raises (no autograd).", "bool", "tl.zeros(2).requires_grad"),
    "Tensor.data": ("The tensor's data as a new tensor sharing its storage (not a view: ``_base`` is None), as "
                    "``detach()``; assigning a tensor makes this tensor take that one's storage, shape and dtype "
                    "(torch's ``x.data = y``).", "Tensor",
                    "x = tl.ones(2)\nx.data.data_ptr() == x.data_ptr()\nx.data = tl.zeros(3, dtype=tl.int64)\nx"),
})
NOT_TORCH |= {"Tensor.names"}  # named tensors: torch 2.13 dropped them (the example prints Debian torch 1.13's)

# ---- the classes ----
CLASSES.update({
    "Tensor": ("class tensorlib.Tensor", "A multi-dimensional array with PyTorch's tensor semantics; made by "
               "``tl.tensor(data)`` and the factories (``tl.zeros``, ``tl.empty``, ...), not by calling the class "
               "(use ``tl.FloatTensor`` and its kin for torch's legacy constructor).",
               "x = tl.tensor([[1, 2], [3, 4]])\nisinstance(x, tl.Tensor)\n(x.shape, x.dtype)", {}),
    "dtype": ("class tensorlib.dtype", "The element type of a tensor: ``tl.float32``, ``tl.int64``, ``tl.bool`` and "
              "the others are its instances (it is not constructed).",
              "tl.float32.is_floating_point\ntl.int8.itemsize\ntl.complex64.to_real()", {}),
    "device": ("device(type, index=None)", "Where a tensor is or will be allocated: ``'cpu'``, ``'cuda'`` (with an "
               "index) or ``'meta'``.", "tl.device('cpu')\ntl.device('cuda', 1)\ntl.device('cuda:0').index",
               {"type": "``'cpu'``, ``'cuda'``, ``'meta'`` or a ``'type:index'`` string (or an int: a CUDA index).",
                "index": "the device index (None: the current one)."}),
    "layout": ("class tensorlib.layout", "The memory layout of a tensor: ``tl.strided`` (dense) or a sparse one "
               "(``sparse_coo``, ``sparse_csr``, ``sparse_csc``, ``sparse_bsr``, ``sparse_bsc``); not constructed.",
               "tl.eye(2).to_sparse_csr().layout\ntl.strided", {}),
    "memory_format": ("class tensorlib.memory_format", "The order in which a dense tensor's elements are laid out: "
                      "``tl.contiguous_format``, ``tl.channels_last``, ``tl.channels_last_3d``, "
                      "``tl.preserve_format``; not constructed.",
                      "tl.zeros(1, 3, 2, 2).to(memory_format=tl.channels_last).stride()", {}),
    "Size": ("Size(sizes=())", "The shape of a tensor: a tuple of ints (``tensor.shape``, ``tensor.size()``).",
             "tl.Size([2, 3])\ntl.Size([2, 3]).numel()\ntl.zeros(2, 3).shape == (2, 3)",
             {"sizes": "an iterable of ints."}),
    "Generator": ("Generator(device='cpu', *, kind=None)", "A random number generator, passed as "
                  "``generator=`` to the random functions: torch's MT19937 stream by default on the CPU (a seed "
                  "gives torch's numbers), or counter-based Philox4x32-10 (the same numbers at any thread count, "
                  "and on a CUDA device: ``device='cuda'`` makes a Philox generator for CUDA tensors).",
                  "g = tl.Generator().manual_seed(42)\ng.initial_seed()\ntl.randint(0, 10, (3,), generator=g)",
                  {"device": "the device whose random numbers it makes.",
                   "kind": "``'mt19937'`` (torch's stream; the CPU's default) or ``'philox'`` (tensorlib's own, "
                           "see docs/random.md; the only kind, and the default, for ``device='cuda'``)."}),
    "finfo": ("finfo(type=None)", "The machine limits of a floating point dtype (of the real part for complex): "
              "bits, eps, max, min, tiny, smallest_normal, resolution.",
              "tl.finfo(tl.float16).max\ntl.finfo().eps",
              {"type": "a floating or complex dtype; None: the default dtype."}),
    "iinfo": ("iinfo(type)", "The limits of an integer dtype: bits, min, max.",
              "tl.iinfo(tl.int8).min\ntl.iinfo(tl.uint8).max", {"type": "an integer dtype."}),
    "no_grad": ("no_grad()", "A context manager and decorator turning gradient recording off (accepted; tensorlib "
                "has no autograd).", "with tl.no_grad(): on = tl.is_grad_enabled()\non", {}),
    "enable_grad": ("enable_grad()", "A context manager and decorator turning gradient recording on inside a "
                    "``no_grad`` block (accepted; tensorlib has no autograd).",
                    "with tl.no_grad(), tl.enable_grad(): on = tl.is_grad_enabled()\non", {}),
    "inference_mode": ("inference_mode(mode=True)", "A context manager and decorator for inference (accepted; "
                       "tensorlib has no autograd).",
                       "with tl.inference_mode(): on = tl.is_inference_mode_enabled()\non",
                       {"mode": "enable (True) or disable (False) inference mode inside."}),
    "set_grad_enabled": ("set_grad_enabled(mode)", "Sets gradient recording on or off now, or for a ``with`` "
                         "block (restoring it after).",
                         "with tl.set_grad_enabled(False): on = tl.is_grad_enabled()\non\ntl.is_grad_enabled()",
                         {"mode": "True to record gradients, False not to."}),
    "OutOfMemoryError": ("OutOfMemoryError(*args)", "Raised when an allocation fails: a RuntimeError, as torch "
                         "raises it, and a MemoryError.", "issubclass(tl.OutOfMemoryError, RuntimeError)",
                         {"*args": "the message."}),
    "linalg.LinAlgError": ("LinAlgError(*args)", "Raised by the linear algebra functions for a singular or "
                           "non-convergent input (a RuntimeError, as torch's torch.linalg.LinAlgError).",
                           "issubclass(tl.linalg.LinAlgError, RuntimeError)", {"*args": "the message."}),
    "sparse.check_sparse_tensor_invariants": (
        "check_sparse_tensor_invariants(enable=True)", "A context manager and decorator checking the invariants "
        "(index bounds, ordering) of the sparse tensors built inside it; also a global switch (``enable()``, "
        "``disable()``, ``is_enabled()``).", "tl.sparse.check_sparse_tensor_invariants.is_enabled()",
        {"enable": "check inside the block (True) or not (False)."}),
})
for _n, _dt in (("FloatTensor", "float32"), ("DoubleTensor", "float64"), ("HalfTensor", "float16"),
                ("BFloat16Tensor", "bfloat16"), ("ByteTensor", "uint8"), ("CharTensor", "int8"),
                ("ShortTensor", "int16"), ("IntTensor", "int32"), ("LongTensor", "int64"), ("BoolTensor", "bool")):
    CLASSES[_n] = ("%s(*args)" % _n, "torch's legacy constructor of %s tensors: from data, or uninitialised of "
                   "the sizes given; ``isinstance`` tests the dtype." % _dt,
                   "tl.%s([1, 0]).dtype\ntl.%s(2, 3).shape" % (_n, _n),
                   {"*args": "a sequence of numbers (the data), or the sizes as ints."})
# the named tuples of the multi-result ops: name -> (fields, the op's example call)
_VI = "values, indices"
for _n, (_fields, _call) in {
        "aminmax": ("min, max", "tl.aminmax(tl.tensor([3, 1, 2]))"),
        "cummax": (_VI, "tl.cummax(tl.tensor([1, 3, 2]), 0)"), "cummin": (_VI, "tl.cummin(tl.tensor([3, 1, 2]), 0)"),
        "geqrf": ("a, tau", "tl.geqrf(tl.eye(2))"),
        "lu_unpack": ("P, L, U", "tl.lu_unpack(*tl.linalg.lu_factor(tl.eye(2)))"),
        "triangular_solve": ("solution, cloned_coefficient", "tl.triangular_solve(tl.ones(2, 1), tl.eye(2))"),
        "histogram": ("hist, bin_edges", "tl.histogram(tl.tensor([1., 2., 2.]), 2)"),
        "histogramdd": ("hist, bin_edges", "tl.histogramdd(tl.tensor([[1., 2.], [2., 2.]]), 2)"),
        "kthvalue": (_VI, "tl.kthvalue(tl.tensor([3, 1, 2]), 2)"),
        "linalg_cholesky_ex": ("L, info", "tl.linalg.cholesky_ex(tl.eye(2))"),
        "linalg_eig": ("eigenvalues, eigenvectors", "tl.linalg.eig(tl.eye(2))"),
        "linalg_eigh": ("eigenvalues, eigenvectors", "tl.linalg.eigh(tl.eye(2))"),
        "linalg_inv_ex": ("inverse, info", "tl.linalg.inv_ex(tl.eye(2))"),
        "linalg_lstsq": ("solution, residuals, rank, singular_values", "tl.linalg.lstsq(tl.eye(2), tl.ones(2, 1))"),
        "linalg_ldl_factor": ("LD, pivots", "tl.linalg.ldl_factor(tl.eye(2))"),
        "linalg_ldl_factor_ex": ("LD, pivots, info", "tl.linalg.ldl_factor_ex(tl.eye(2))"),
        "linalg_lu": ("P, L, U", "tl.linalg.lu(tl.eye(2))"),
        "linalg_lu_factor": ("LU, pivots", "tl.linalg.lu_factor(tl.eye(2))"),
        "linalg_lu_factor_ex": ("LU, pivots, info", "tl.linalg.lu_factor_ex(tl.eye(2))"),
        "linalg_qr": ("Q, R", "tl.linalg.qr(tl.eye(2))"),
        "linalg_slogdet": ("sign, logabsdet", "tl.linalg.slogdet(tl.eye(2))"),
        "linalg_solve_ex": ("result, info", "tl.linalg.solve_ex(tl.eye(2), tl.ones(2))"),
        "linalg_svd": ("U, S, Vh", "tl.linalg.svd(tl.eye(2))"),
        "max": (_VI, "tl.max(tl.tensor([[1, 5], [7, 2]]), 1)"), "median": (_VI, "tl.median(tl.tensor([[1, 5, 2]]), 1)"),
        "min": (_VI, "tl.min(tl.tensor([[1, 5], [7, 2]]), 1)"), "mode": (_VI, "tl.mode(tl.tensor([[1, 2, 2]]), 1)"),
        "nanmedian": (_VI, "tl.nanmedian(tl.tensor([[1.0, float('nan'), 2.0]]), 1)"),
        "qr": ("Q, R", "tl.qr(tl.eye(2))"), "slogdet": ("sign, logabsdet", "tl.slogdet(tl.eye(2))"),
        "sort": (_VI, "tl.sort(tl.tensor([3, 1, 2]))"), "svd": ("U, S, V", "tl.svd(tl.eye(2))"),
        "topk": (_VI, "tl.topk(tl.tensor([3, 1, 2]), 2)"),
        "frexp": ("mantissa, exponent", "tl.frexp(tl.tensor([6., 0.1]))"),
        "frexp_out": ("mantissa, exponent", "tl.frexp(tl.tensor([6.]), out=(tl.empty(1), tl.empty(1, dtype=tl.int32)))")}.items():
    _first, _last = _fields.split(", ")[0], _fields.split(", ")[-1]
    CLASSES["return_types." + _n] = (
        "%s(%s)" % (_n, _fields), "The named tuple ``%s`` returns: a tuple of its results, also read by field name."
        % _call.split("(", 1)[0], "r = %s\nr.%s\nr[-1] is r.%s" % (_call, _first, _last),
        {f: "the %s result." % f for f in _fields.split(", ")})

# ---- Tensor's operators and protocol methods (what help(tl.Tensor.__add__) shows) ----
_OTHER = {"other": "a tensor or a Python number, broadcast against ``self``."}
_A2, _B2 = "tl.tensor([12, 7])", "tl.tensor([5, 2])"
for _op, (_sym, _fn) in {"add": ("+", "add"), "sub": ("-", "sub"), "mul": ("*", "mul"), "truediv": ("/", "div"),
                         "floordiv": ("//", "floor_divide"), "mod": ("%", "remainder"), "pow": ("**", "pow"),
                         "matmul": ("@", "matmul"), "and": ("&", "bitwise_and"), "or": ("|", "bitwise_or"),
                         "xor": ("^", "bitwise_xor"), "lshift": ("<<", "bitwise_left_shift"),
                         "rshift": (">>", "bitwise_right_shift")}.items():
    _a, _b = ("tl.tensor([[1, 2], [3, 4]])", "tl.tensor([1, 1])") if _op == "matmul" else (_A2, _B2)
    _scalar = "tl.tensor([1, 1])" if _op == "matmul" else "3"
    OPS["Tensor.__%s__" % _op] = (
        "Implements ``self %s other`` (``tl.%s(self, other)``)." % (_sym, _fn),
        "a new tensor (broadcast shape, promoted dtype).", "%s %s %s" % (_a, _sym, _b), _OTHER)
    OPS["Tensor.__r%s__" % _op] = (
        "Implements ``other %s self`` for an ``other`` that is not a tensor (a Python number)." % _sym,
        "a new tensor (broadcast shape, promoted dtype).",
        "%s %s %s" % ("tl.tensor([[1, 2]])" if _op == "matmul" else "20", _sym, _a), _OTHER)
    OPS["Tensor.__i%s__" % _op] = (
        "Implements ``self %s= other``: writes the result into ``self`` (its dtype kept; a result that does not "
        "cast to it raises, as torch)." % _sym, "``self``, modified.",
        "x = %s\nx %s= %s\nx" % (_a, _sym, _scalar), _OTHER)
OPS["Tensor.__itruediv__"] = (OPS["Tensor.__itruediv__"][0], "``self``, modified.",
                              "x = tl.tensor([12.0, 7.0])\nx /= 2\nx", _OTHER)
OPS["Tensor.__imatmul__"] = (OPS["Tensor.__imatmul__"][0], "``self``, modified.",
                             "x = tl.tensor([[1, 2], [3, 4]])\nx @= tl.eye(2, dtype=tl.int64)\nx", _OTHER)
OPS["Tensor.__rmatmul__"] = (OPS["Tensor.__rmatmul__"][0].replace("a Python number", "a NumPy array"),
                             "a new tensor.", "import numpy as np\nnp.eye(2, dtype=np.int64) @ tl.tensor([[1, 2], [3, 4]])",
                             _OTHER)
NOT_TORCH |= {"Tensor.__rmatmul__"}  # NumPy defers to tensorlib's __rmatmul__ (a tensor); with torch it makes an array
OPS["Tensor.__rsub__"] = (OPS["Tensor.__rsub__"][0], "a new tensor.", "20 - tl.tensor([12, 7])", _OTHER)
for _op, _sym in {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}.items():
    OPS["Tensor.__%s__" % _op] = ("Implements ``self %s other``, element by element (``tl.%s``)." % (_sym, _op),
                                  "a bool tensor of the broadcast shape.", "%s %s %s" % (_A2, _sym, "7"), _OTHER)
for _op, (_what, _code) in {"neg": ("``-self`` (``tl.neg``)", "-tl.tensor([1, -2])"),
                            "pos": ("``+self``: ``self`` itself", "+tl.tensor([1, -2])"),
                            "abs": ("``abs(self)`` (``tl.abs``)", "abs(tl.tensor([1, -2]))"),
                            "invert": ("``~self``: the bitwise (for bool: logical) not", "~tl.tensor([True, False])")}.items():
    OPS["Tensor.__%s__" % _op] = ("Implements %s." % _what, "a new tensor of ``self``'s shape and dtype.", _code)
OPS.update({
    "Tensor.__getitem__": ("Indexes the tensor as torch does: ints, slices, None, ``...``, bool and integer "
                           "tensors, lists and NumPy arrays (basic indexing gives a view, advanced a copy).",
                           "a tensor (a view for basic indexing).",
                           "x = tl.arange(6).reshape(2, 3)\nx[1]\nx[:, 1:]\nx[x > 3]\nx[[0, 1], [2, 0]]",
                           {"indices": "an index or a tuple of them."}),
    "Tensor.__setitem__": ("Writes ``value`` into the indexed part of the tensor (broadcast, cast to its dtype).",
                           "None.", "x = tl.zeros(2, 3)\nx[0] = 1\nx[:, 2] = tl.tensor([5.0, 6.0])\nx",
                           {"indices": "an index or a tuple of them, as in ``__getitem__``.",
                            "value": "a tensor or a Python number."}),
    "Tensor.__len__": ("Gives the size of the first dim (a 0-d tensor raises TypeError).", "an int.",
                       "len(tl.zeros(4, 2))"),
    "Tensor.__iter__": ("Iterates over the first dim (a 0-d tensor raises TypeError).",
                        "an iterator of tensors with one dim less (views).",
                        "[row.tolist() for row in tl.tensor([[1, 2], [3, 4]])]"),
    "Tensor.__contains__": ("Tells whether ``element`` equals some element (``(self == element).any()``).",
                            "a Python bool.", "2 in tl.tensor([1, 2, 3])",
                            {"element": "a Python number or a tensor."}),
    "Tensor.__bool__": ("Gives the truth value of a one-element tensor (more elements raise RuntimeError).",
                        "a Python bool.", "bool(tl.tensor([0.0]))"),
    "Tensor.__int__": ("Converts a one-element tensor to a Python int (truncating floats).", "an int.",
                       "int(tl.tensor(3.7))"),
    "Tensor.__index__": ("Converts a one-element integer tensor to an int where Python needs an index.", "an int.",
                         "[10, 20, 30][tl.tensor(1)]"),
    "Tensor.__float__": ("Converts a one-element tensor to a Python float.", "a float.", "float(tl.tensor(2))"),
    "Tensor.__complex__": ("Converts a one-element tensor to a Python complex.", "a complex.",
                           "complex(tl.tensor(1+2j))"),
    "Tensor.__repr__": ("Gives the printed form, as torch prints (``tl.set_printoptions`` applies).", "a str.",
                        "repr(tl.tensor([1.5, 2.0]))",
                        {"tensor_contents": "accepted for compatibility (the printed elements are the tensor's)."}),
    "Tensor.__format__": ("Formats a 0-d tensor as its Python number (``format(x.item(), spec)``); others as "
                          "their ``str``.", "a str.", "f'{tl.tensor(2.5):.2f}'",
                          {"spec": "the format spec."}),
    "Tensor.__hash__": ("Hashes by identity (tensors are usable as dict keys and set members; ``==`` is element-wise).",
                        "an int.", "x = tl.zeros(1)\nhash(x) == id(x)"),
    "Tensor.__array__": ("Gives the elements as a NumPy array (``np.asarray(x)``), sharing memory with a CPU tensor "
                         "where it can.", "a NumPy array.",
                         "import numpy as np\nnp.asarray(tl.tensor([1.5, 2.0]))\nnp.asarray(tl.tensor([1.5, 2.0]), dtype=np.float64)",
                         {"dtype": "the NumPy dtype wanted (None: the tensor's).",
                          "copy": "True: always copy; False: never (raise if needed); None: as needed."}),
    "Tensor.__array_function__": ("Lets NumPy functions called with tensors (``np.concatenate``, ``np.mean``, ...) "
                                  "return tensors where tensorlib has the function, as NEP 18 describes.",
                                  "what the tensorlib function returns (NumPy's result otherwise).",
                                  "import numpy as np\nnp.concatenate([tl.tensor([1]), tl.tensor([2])])",
                                  {"func": "the NumPy function called.", "types": "the argument types that "
                                   "implement the protocol.", "args": "its positional arguments.",
                                   "kwargs": "its keyword arguments."}),
    "Tensor.__array_ufunc__": ("Lets NumPy ufuncs called with tensors (``np.add(x, 1)``) return tensors, as NEP 13 "
                               "describes.", "a tensor (or what NumPy returns for what tensorlib lacks).",
                               "import numpy as np\nnp.add(tl.tensor([1, 2]), 1)",
                               {"ufunc": "the NumPy ufunc.", "method": "``'__call__'``, ``'reduce'``, ...",
                                "*inputs": "its inputs.", "**kwargs": "its keyword arguments."}),
    "Tensor.__array_namespace__": ("Gives the Array API standard's namespace for this array (``tensorlib.array_api``).",
                                   "the module tensorlib.array_api.",
                                   "xp = tl.zeros(1).__array_namespace__()\nxp.__name__",
                                   {"api_version": "the standard's version wanted (None: 2024.12; older ones "
                                                   "accepted)."}),
    "Tensor.__dlpack__": ("Exports the tensor through DLPack (``np.from_dlpack(x)``, ``torch.from_dlpack(x)``), "
                          "sharing its memory.", "a PyCapsule holding a DLPack tensor.",
                          "import numpy as np\nnp.from_dlpack(tl.tensor([1, 2]))",
                          {"stream": "the consumer's stream for a CUDA tensor, an int handle (1: the legacy default "
                                     "stream; -1: no synchronisation): it waits for the work queued on the tensor's "
                                     "current stream; None or -1 on the CPU.",
                           "max_version": "the newest DLPack version the consumer reads (None: the legacy one).",
                           "dl_device": "the device the consumer wants (None: the tensor's).",
                           "copy": "True: export a copy; False: never copy; None: as needed."}),
    "Tensor.__cuda_array_interface__": ("Describes a dense CUDA tensor's memory by the CUDA Array Interface "
                                        "(version 2), for Numba, CuPy and others that read it without a copy; "
                                        "a CPU or sparse tensor has no such attribute (AttributeError, as torch).",
                                        "a dict: typestr, shape, strides (None when contiguous, else bytes), "
                                        "data (pointer, False), version" + _RO,
                                        "hasattr(tl.zeros(2), '__cuda_array_interface__')"),
    "Tensor.__dlpack_device__": ("Gives the DLPack device of the tensor (1 for the CPU, 2 for CUDA) and its index.",
                                 "a tuple (device_type, device_id) of ints.", "tl.zeros(1).__dlpack_device__()"),
    "Tensor.__copy__": ("Makes a shallow copy for ``copy.copy`` (a new tensor sharing the elements' values, "
                        "as torch).", "a tensor.", "import copy\ncopy.copy(tl.tensor([1, 2]))"),
    "Tensor.__deepcopy__": ("Makes a deep copy for ``copy.deepcopy`` (own memory, same strides, names and "
                            "dtype).", "a tensor.", "import copy\ncopy.deepcopy(tl.tensor([1, 2]))",
                            {"memo": "the memo dict of ``copy.deepcopy``."}),
    "Tensor.__reduce_ex__": ("Supports ``pickle``: dense and sparse tensors, views (as their own data), names.",
                             "the pickle reduce tuple.",
                             "import pickle\npickle.loads(pickle.dumps(tl.tensor([1, 2])))",
                             {"proto": "the pickle protocol."}),
})
NOT_TORCH |= {
    "Tensor.__array_function__", "Tensor.__array_ufunc__",  # tensorlib's own NumPy protocols (torch gives arrays)
    "Tensor.__array_namespace__",  # torch's tensors have no Array API namespace
    "Tensor.__dlpack_device__",  # torch gives a DLDeviceType enum member, tensorlib the plain int (the same code)
}

# ---- the members of the other classes: methods (OPS) and properties (PROPS) ----
_CSTI = "tl.sparse.check_sparse_tensor_invariants"
OPS.update({
    "Generator.manual_seed": ("Seeds the generator and rewinds its stream: the same seed gives the same numbers.",
                              "the generator itself.",
                              "g = tl.Generator().manual_seed(3)\ntl.randint(0, 100, (3,), generator=g)",
                              {"seed": "the seed (an int)."}),
    "Generator.seed": ("Seeds the generator from the operating system's entropy source.", "the seed used (an int).",
                       "isinstance(tl.Generator().seed(), int)"),
    "Generator.initial_seed": ("Gives the seed the generator was last seeded with.", "an int.",
                               "tl.Generator().manual_seed(7).initial_seed()"),
    "Generator.get_state": ("Gives the generator's whole state, to restore later with ``set_state``.",
                            "a 1-D uint8 tensor.", "tl.Generator().get_state().dtype"),
    "Generator.set_state": ("Restores a state ``get_state`` gave: the numbers drawn after it repeat.",
                            "the generator itself.",
                            "g = tl.Generator().manual_seed(1)\ns = g.get_state()\na = tl.rand(2, generator=g)\n"
                            "g.set_state(s) is g\ntl.equal(tl.rand(2, generator=g), a)",
                            {"new_state": "a uint8 tensor from ``get_state``."}),
    "Size.numel": ("Gives the number of elements of a tensor of this shape (the product of the sizes).", "an int.",
                   "tl.Size([2, 3, 4]).numel()\ntl.Size([]).numel()"),
    "dtype.to_real": ("Gives the real dtype of a complex dtype's parts (a real dtype gives itself).", "a dtype.",
                      "tl.complex64.to_real()\ntl.float64.to_real()"),
    "dtype.to_complex": ("Gives the complex dtype whose parts have this real dtype (a complex one gives itself).",
                         "a dtype.", "tl.float64.to_complex()\ntl.float16.to_complex()"),
    "sparse.check_sparse_tensor_invariants.is_enabled": (
        "Tells whether the global check of the sparse invariants is on (off by default, as in torch).",
        "a Python bool.", _CSTI + ".is_enabled()"),
    "sparse.check_sparse_tensor_invariants.enable": (
        "Turns the global check of the sparse invariants on: every sparse constructor checks its indices.",
        "None.", "%s.enable()\n%s.is_enabled()\n%s.disable()" % (_CSTI, _CSTI, _CSTI)),
    "sparse.check_sparse_tensor_invariants.disable": (
        "Turns the global check of the sparse invariants off.", "None.",
        "%s.disable()\n%s.is_enabled()" % (_CSTI, _CSTI)),
})
PROPS.update({
    "Generator.device": ("The device whose random numbers the generator makes.", "tensorlib.device" + _RO,
                         "tl.Generator().device"),
    "Generator.kind": ("The generator's stream: ``'mt19937'`` (torch's numbers, the default) or ``'philox'`` "
                       "(counter-based); tensorlib's own.", "str" + _RO, "tl.Generator().kind"),
    "device.type": ("The device type: ``'cpu'``, ``'cuda'`` or ``'meta'``.", "str" + _RO,
                    "tl.device('cuda:1').type"),
    "device.index": ("The device index, None when not given (the current device).", "int or None" + _RO,
                     "tl.device('cuda:1').index\ntl.device('cpu').index is None"),
    "dtype.is_floating_point": ("Whether the dtype is a floating point one (float16, bfloat16, float32, ...).",
                                "bool" + _RO, "tl.float16.is_floating_point\ntl.int32.is_floating_point"),
    "dtype.is_complex": ("Whether the dtype is a complex one.", "bool" + _RO, "tl.complex64.is_complex"),
    "dtype.is_signed": ("Whether the dtype holds negative values.", "bool" + _RO,
                        "tl.uint8.is_signed\ntl.int8.is_signed"),
    "dtype.itemsize": ("The bytes one element of the dtype takes.", "int (read-only)",
                       "tl.bfloat16.itemsize\ntl.complex128.itemsize"),
    "dtype.dtype": ("The NumPy dtype of the same elements (what ``np.dtype(tl.float32)`` reads; tensorlib's "
                    "own).", "numpy.dtype" + _RO, "tl.float32.dtype"),
    "finfo.bits": ("The number of bits of the dtype.", "int (read-only)", "tl.finfo(tl.float32).bits"),
    "finfo.eps": ("The difference between 1.0 and the next representable number.", "float" + _RO,
                  "tl.finfo(tl.float32).eps"),
    "finfo.max": ("The largest finite number.", "float" + _RO, "tl.finfo(tl.float16).max"),
    "finfo.min": ("The smallest (most negative) finite number.", "float" + _RO, "tl.finfo(tl.bfloat16).min"),
    "finfo.tiny": ("The smallest positive normal number (as ``smallest_normal``).", "float" + _RO,
                   "tl.finfo(tl.float32).tiny"),
    "finfo.smallest_normal": ("The smallest positive normal number.", "float" + _RO,
                              "tl.finfo(tl.float64).smallest_normal"),
    "finfo.resolution": ("The approximate decimal resolution, 10 ** -precision.", "float" + _RO,
                         "tl.finfo(tl.float32).resolution"),
    "finfo.dtype": ("The name of the dtype described (as torch: a str).", "str" + _RO, "tl.finfo(tl.float32).dtype"),
    "iinfo.bits": ("The number of bits of the dtype.", "int (read-only)", "tl.iinfo(tl.int16).bits"),
    "iinfo.max": ("The largest value.", "int (read-only)", "tl.iinfo(tl.int16).max"),
    "iinfo.min": ("The smallest value.", "int (read-only)", "tl.iinfo(tl.int16).min"),
    "iinfo.dtype": ("The name of the dtype described (as torch: a str).", "str" + _RO, "tl.iinfo(tl.int16).dtype"),
})
NOT_TORCH |= {
    "Generator.kind", "dtype.dtype",  # tensorlib's own attributes
}
