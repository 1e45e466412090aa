"""A host-memory stand-in for the CUDA backend, for tests on machines without a GPU: it
registers through the same capsule and table as tensorlib._C_cuda (device type cuda), its
"device" memory is malloc'ed host memory, its copies memmove and its memset zeroes; its
"pinned" host memory is malloc'ed too (PINNED holds the live blocks), its asynchronous
copies are logged as "copy_async", record_stream as ("record_stream", ptr, stream). What
it checks is the core's side of the backend interface (allocation, fills, copies, the
factories' routing, the element-wise dispatch, the random entry); the CUDA code itself is never run by it. Load it in a subprocess: the
registration lasts for the process."""
import ctypes as C
import os
import tensorlib as tl
import tensorlib.cuda as tc


class Dev(C.Structure):
    _fields_ = [("type", C.c_int16), ("index", C.c_int16)]


CURDEV = C.CFUNCTYPE(C.c_int)
ALLOC = C.CFUNCTYPE(C.c_void_p, C.c_size_t, C.c_int)
FREE = C.CFUNCTYPE(None, C.c_void_p, C.c_size_t, C.c_int)
COPY = C.CFUNCTYPE(C.c_int, C.c_void_p, Dev, C.c_void_p, Dev, C.c_size_t)
MEMSET = C.CFUNCTYPE(C.c_int, C.c_void_p, C.c_size_t, C.c_int)
BIN = C.CFUNCTYPE(C.c_int, C.c_int, C.c_int, C.c_void_p, C.c_void_p, C.c_void_p, C.c_int64, C.c_int)
UN = C.CFUNCTYPE(C.c_int, C.c_int, C.c_int, C.c_void_p, C.c_void_p, C.c_int64, C.c_int)
HALLOC = C.CFUNCTYPE(C.c_void_p, C.c_size_t)
HFREE = C.CFUNCTYPE(None, C.c_void_p)
RECORD = C.CFUNCTYPE(C.c_int, C.c_void_p, C.c_int, C.c_size_t)
EW = C.CFUNCTYPE(C.c_int, C.c_void_p)
RANDOM = C.CFUNCTYPE(C.c_int, C.c_void_p)


class Backend(C.Structure):
    _fields_ = [("abi_version", C.c_uint32), ("size", C.c_uint32), ("name", C.c_char_p),
                ("current_device", CURDEV), ("alloc", ALLOC), ("free", FREE), ("copy", COPY),
                ("memset_zero", MEMSET), ("binary", BIN), ("unary", UN), ("elementwise", EW),
                ("host_alloc", HALLOC), ("host_free", HFREE), ("copy_async", COPY), ("record_stream", RECORD),
                # random
                ("random", RANDOM),
                # reductions (ABI 3)
                ("reduce", EW),
                # scans (ABI 3)
                ("scan", EW),
                # indexing (ABI 4)
                ("index", EW),
                # sorting (ABI 4)
                ("sort", EW),
                # dense products (ABI 4)
                ("gemm", EW),
                # selection (ABI 4)
                ("select", EW),
                # sparse products (ABI 5)
                ("spmm", EW),
                # 2:4 semi-structured products (ABI 5)
                ("semi", EW)]


class CoreApi(C.Structure):
    _fields_ = [("abi_version", C.c_uint32), ("size", C.c_uint32),
                ("register_backend", C.CFUNCTYPE(C.c_int, C.c_int, C.POINTER(Backend)))]


libc = C.CDLL(None)
libc.malloc.restype, libc.malloc.argtypes = C.c_void_p, [C.c_size_t]
libc.free.argtypes = [C.c_void_p]
LOG = []


def _copy(dst, dd, src, sd, n):
    LOG.append(("copy", dd.type, sd.type, n))
    C.memmove(dst, src, n)
    return 0


def _copy_async(dst, dd, src, sd, n):
    LOG.append(("copy_async", dd.type, sd.type, n))
    C.memmove(dst, src, n)
    return 0


PINNED = set()


def _host_alloc(n):
    p = libc.malloc(max(n, 1))
    PINNED.add(p)
    LOG.append(("host_alloc", n))
    return p


def _host_free(p):
    PINNED.remove(p)
    LOG.append(("host_free",))
    libc.free(p)


def _record(p, dev, stream):
    LOG.append(("record_stream", p, stream))
    return 0


def _memset(dst, n, dev):
    LOG.append(("memset", n))
    C.memset(dst, 0, n)
    return 0


def _logged(tag, struct, host, *fields):
    """An entry of the stand-in: logs (tag, the named fields of its call struct), then runs the
    core's host runner of the same call."""
    def entry(p):
        c = struct.from_address(p)
        LOG.append((tag, *(getattr(c, f) for f in fields)))
        return host(p)
    return entry


# The element-wise entry is the core's host runner of the same call (backend/hd_check.c: the
# hd_math.h functions per element through an int64 index calculator), so every element-wise
# op on a "cuda" tensor goes through the core's whole device path and the formulas the CUDA
# kernel runs. (The free entry is libc's free itself, the extra arguments ignored as the x86-64
# ABI allows: a Python callback cannot run while an exception is pending, and tensors are
# released while one propagates.) Each call is logged with its compute dtype code, ndim and numel.
_HOST_EW = EW(tl._C._backend_ew_host)


class EwCall(C.Structure):
    _fields_ = [("size", C.c_uint32), ("op", C.c_int32), ("nin", C.c_int32), ("compute", C.c_int32),
                ("device_index", C.c_int32), ("ndim", C.c_int32), ("numel", C.c_int64)]


_elementwise = _logged("elementwise", EwCall, _HOST_EW, "op", "nin", "compute", "ndim", "numel")


# The random entry is the core's host runner of the same call (backend/random.c: the
# per-block function of kernels/hd_random.h the CUDA kernel runs). Logged with the sampler,
# mode, dtype code, ndim, numel and first counter block.
_HOST_RANDOM = RANDOM(tl._C._backend_random_host)


class RandomCall(C.Structure):
    _fields_ = [("size", C.c_uint32), ("sampler", C.c_int32), ("mode", C.c_int32), ("dtype", C.c_int32),
                ("device_index", C.c_int32), ("ndim", C.c_int32), ("numel", C.c_int64), ("a", C.c_double),
                ("b", C.c_double), ("int_from", C.c_uint64), ("int_range", C.c_uint64), ("seed", C.c_uint64),
                ("first", C.c_uint64)]


_random = _logged("random", RandomCall, _HOST_RANDOM, "sampler", "mode", "dtype", "ndim", "numel", "first")


# The reduce entry: the core's host runner of the same call (backend/reduce.c, the
# kernels/hd_reduce.h steps the CUDA kernel runs); logged with op, dtypes and geometry counts.
_HOST_RED = EW(tl._C._backend_reduce_host)


class RedCall(C.Structure):
    _fields_ = [("size", C.c_uint32), ("op", C.c_int32), ("device_index", C.c_int32), ("in_dtype", C.c_int32),
                ("acc_dtype", C.c_int32), ("out_dtype", C.c_int32), ("nkept", C.c_int32), ("nred", C.c_int32),
                ("pad_", C.c_int32), ("nout", C.c_int64), ("nelem", C.c_int64)]


_reduce = _logged("reduce", RedCall, _HOST_RED,
                  "op", "in_dtype", "acc_dtype", "out_dtype", "nkept", "nred", "nout", "nelem")


# The scan entry: the core's host runner of the same call (backend/scan.c, the row function
# of kernels/hd_scan.h the CUDA kernel runs); logged with op, dtypes, rows and length.
_HOST_SCAN = EW(tl._C._backend_scan_host)


class ScanCall(C.Structure):
    _fields_ = [("size", C.c_uint32), ("op", C.c_int32), ("device_index", C.c_int32), ("in_dtype", C.c_int32),
                ("out_dtype", C.c_int32), ("nkept", C.c_int32), ("nrows", C.c_int64), ("len", C.c_int64)]


_scan = _logged("scan", ScanCall, _HOST_SCAN, "op", "in_dtype", "out_dtype", "nkept", "nrows", "len")


# The index entry: the core's host runner of the same call (backend/index.c, the
# kernels/hd_index.h element steps the CUDA kernel runs); logged with mode, flags, ndim, numel.
_HOST_INDEX = EW(tl._C._backend_index_host)


class IndexCall(C.Structure):
    _fields_ = [("size", C.c_uint32), ("mode", C.c_int32), ("flags", C.c_int32), ("device_index", C.c_int32),
                ("elsize", C.c_int32), ("dtype", C.c_int32), ("ndim", C.c_int32), ("pad_", C.c_int32),
                ("numel", C.c_int64)]


_index = _logged("index", IndexCall, _HOST_INDEX, "mode", "flags", "ndim", "numel")


# The sort entry: the core's host runner of the same call (backend/sort.c: the kernels/hd_sort.h
# keys under the CPU's stable sort, where the CUDA module runs CUB's radix sort); logged with
# dtype, descending, rows and length.
_HOST_SORT = EW(tl._C._backend_sort_host)


class SortCall(C.Structure):
    _fields_ = [("size", C.c_uint32), ("device_index", C.c_int32), ("dtype", C.c_int32), ("descending", C.c_int32),
                ("nrows", C.c_int64), ("len", C.c_int64)]


_sort = _logged("sort", SortCall, _HOST_SORT, "dtype", "descending", "nrows", "len")


# The gemm entry: the core's host runner of the same call (backend/gemm.c: the products in
# column-major terms on host memory, accumulated in double); logged with dtype, flags,
# transpositions, m, n, k, batch and the batch strides.
_HOST_GEMM = EW(tl._C._backend_gemm_host)


class GemmCall(C.Structure):
    _fields_ = [("size", C.c_uint32), ("device_index", C.c_int32), ("dtype", C.c_int32), ("flags", C.c_int32),
                ("transa", C.c_int32), ("transb", C.c_int32), ("m", C.c_int64), ("n", C.c_int64), ("k", C.c_int64),
                ("batch", C.c_int64), ("alpha", C.c_double * 2), ("beta", C.c_double * 2), ("a", C.c_void_p),
                ("b", C.c_void_p), ("c", C.c_void_p), ("lda", C.c_int64), ("ldb", C.c_int64), ("ldc", C.c_int64),
                ("stride_a", C.c_int64), ("stride_b", C.c_int64), ("stride_c", C.c_int64)]


_gemm = _logged("gemm", GemmCall, _HOST_GEMM,
                "dtype", "flags", "transa", "transb", "m", "n", "k", "batch", "stride_a", "stride_b", "stride_c")


# The select entry: the core's host runner (backend/select.c; CUB's DeviceSelect on CUDA); logged
# with the element count.
_HOST_SELECT = EW(tl._C._backend_select_host)


class SelectCall(C.Structure):
    _fields_ = [("size", C.c_uint32), ("device_index", C.c_int32), ("numel", C.c_int64)]


_select = _logged("select", SelectCall, _HOST_SELECT, "numel")


# The spmm entry: the core's host runner (backend/spmm.c; cuSPARSE's SpMV/SpMM on CUDA); logged
# with format, index dtype, dtype, op, order, the stored shape, nnz and n.
_HOST_SPMM = EW(tl._C._backend_spmm_host)


class SpmmCall(C.Structure):
    _fields_ = [("size", C.c_uint32), ("device_index", C.c_int32), ("format", C.c_int32),
                ("index_dtype", C.c_int32), ("dtype", C.c_int32), ("op_a", C.c_int32), ("order", C.c_int32),
                ("rows", C.c_int64), ("cols", C.c_int64), ("nnz", C.c_int64), ("n", C.c_int64),
                ("ldb", C.c_int64), ("ldc", C.c_int64), ("alpha", C.c_double * 2), ("beta", C.c_double * 2),
                ("offsets", C.c_void_p), ("indices", C.c_void_p), ("values", C.c_void_p), ("b", C.c_void_p),
                ("c", C.c_void_p)]


_spmm = _logged("spmm", SpmmCall, _HOST_SPMM, "format", "index_dtype", "dtype", "op_a", "order", "rows", "cols",
                "nnz", "n")


# The semi entry: the core's host runner (backend/semi.c; cuSPARSELt on CUDA); logged with the
# mode, dtype, side, the stored shape and n.
_HOST_SEMI = EW(tl._C._backend_semi_host)


class SemiCall(C.Structure):
    _fields_ = [("size", C.c_uint32), ("device_index", C.c_int32), ("mode", C.c_int32), ("dtype", C.c_int32),
                ("left", C.c_int32), ("pad_", C.c_int32), ("rows", C.c_int64), ("cols", C.c_int64), ("n", C.c_int64)]


_semi = _logged("semi", SemiCall, _HOST_SEMI, "mode", "dtype", "left", "rows", "cols", "n")


KEEP = [CURDEV(lambda: 0), ALLOC(lambda n, d: libc.malloc(max(n, 1))), FREE(C.cast(libc.free, C.c_void_p).value),
        COPY(_copy), MEMSET(_memset), BIN(lambda *a: -1), UN(lambda *a: -1), EW(_elementwise), HALLOC(_host_alloc),
        HFREE(_host_free), COPY(_copy_async), RECORD(_record), RANDOM(_random), EW(_reduce), EW(_scan), EW(_index), EW(_sort),
        EW(_gemm), EW(_select), EW(_spmm), EW(_semi)]
BACKEND = Backend(5, C.sizeof(Backend), b"fake-cuda", *KEEP)


class Streams:
    """Stands in for tensorlib._C_cuda's stream and event functions (tensorlib.cuda._backend):
    CURRENT is the current stream's handle, the calls are logged; anything else goes to the
    real module (or is missing when it was not built)."""
    CURRENT = 0

    def __init__(self, real):
        self._real, self._events = real, 0

    def get_stream(self, idx):
        return Streams.CURRENT

    def current_device(self):
        return 0

    def event_create(self, idx, timing, blocking, interprocess):
        self._events += 1
        LOG.append(("event_create", idx))
        return 1000 + self._events

    def event_record(self, ev, stream):
        LOG.append(("event_record", ev, stream))

    def stream_wait_event(self, stream, ev):
        LOG.append(("stream_wait_event", stream, ev))

    def event_destroy(self, ev):
        LOG.append(("event_destroy", ev))

    def __getattr__(self, name):
        if self._real is None:
            raise AttributeError(name)
        return getattr(self._real, name)


def for_grid():
    """For the grid scripts (_fake_cuda_*.py): (REAL, LOG). With TL_EW_REAL=1 the grid runs on
    a real CUDA device: nothing is installed and the log stays empty; otherwise the stand-in is
    installed and LOG records its backend calls."""
    if os.environ.get("TL_EW_REAL") == "1":
        return True, []
    install()
    return False, LOG


def install():
    """Registers a host-memory stand-in for the CUDA backend (device type 1), as _C_cuda would."""
    get = C.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = C.c_void_p, [C.py_object, C.c_char_p]
    api = CoreApi.from_address(get(tl._C._backend_api, b"tensorlib._C._backend_api.v5"))
    assert api.register_backend(1, C.byref(BACKEND)) == 0
    tc._initialized = True  # what _lazy_init sets after registering
    tc._backend, tc._looked = Streams(tc._module()), True
