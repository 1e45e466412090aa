"""The CUDA module's sparse-product entry (csrc/cuda/sparse.cu, tlc_spmm) on the fake CUDA runtime and
the fake cuSPARSE (tests/fake_cudart/fake_cusparse.c), without the core's side of the entry.

sparse.cu's host code (loading libcusparse, one handle per device bound to the current stream, the
descriptors of A, B and C, the workspace from the caching allocator, the arguments of cusparseSpMV and
cusparseSpMM, the errors) needs only the CUDA runtime and cuSPARSE's API, so these tests call the
module's tlc_spmm (exported with C linkage) through ctypes with a tl_backend_spmm_call made here over
device buffers that x.cuda() filled (copies run on the fake runtime; kernels do not), copy C back, and
compare it with NumPy and with the core's host runner (tl._C._backend_spmm_host) of the same call over
host buffers: CSR/CSC/COO x int32/int64 indices x op N/T x row/column-major (leading dims larger than
needed) x SpMV/SpMM x the six dtypes, alpha and beta (beta == 0 included). Small integers, so every
result is exact, float16 included.

Two layers, as in test_cuda_fake_runtime.py: the outer tests (a normal run) build the fakes and run
pytest over this file in a subprocess under them; the inner tests (TL_FAKE_CUDART=1) do the calls.
"""
import ctypes as C
import os
import subprocess
import sys

import numpy as np
import pytest

import tensorlib as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import _fake_cudart  # noqa: E402
from _fake_cuda import SpmmCall  # noqa: E402  (the struct's mirror; importing registers nothing)

INNER = os.environ.get("TL_FAKE_CUDART") == "1"
outer = pytest.mark.skipif(INNER, reason="outer layer")
inner = pytest.mark.skipif(not INNER, reason="runs under the fake CUDA runtime (outer test)")

# backend codes (csrc/backend/backend.h)
INT32, INT64 = 4, 5
BDT = {tl.float16: 6, tl.bfloat16: 7, tl.float32: 8, tl.float64: 9, tl.complex64: 10, tl.complex128: 11}
CSR, CSC, COO = 0, 1, 2
ROW, COL = 0, 1
OP_N, OP_T = 0, 1
# cuSPARSE's values the fake records (cusparse.h): formats, orders, compute types (library_types.h)
CU_FORMAT = {CSR: 1, CSC: 1, COO: 3}  # CSC goes as the CSR matrix of A^T
CU_ORDER = {ROW: 2, COL: 1}
CU_COMPUTE = {tl.float16: 0, tl.bfloat16: 0, tl.float32: 0, tl.float64: 1, tl.complex64: 4, tl.complex128: 5}


def _run(libdir, args=None, devices=1, code=None):
    env = _fake_cudart.fake_env(libdir, devices=devices)
    cmd = [sys.executable] + (["-c", code] if code is not None else
                              ["-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "--tb=short"] + args)
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600, cwd=os.path.dirname(HERE))


@outer
def test_sparse_cu_runs_on_the_fake_cusparse(tmp_path):
    libdir, why = _fake_cudart.build(tmp_path, cublas=False)
    if libdir is None:
        pytest.skip(why)
    r = _run(libdir, [os.path.join("tests", os.path.basename(__file__))], devices=2)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-3000:]
    last = r.stdout.strip().splitlines()[-1]
    assert "failed" not in last and int(last.split(" passed")[0].split()[-1]) >= 9, r.stdout[-2000:]


@outer
def test_missing_libcusparse_is_a_runtime_error(tmp_path):
    """Without a libcusparse the call fails with RuntimeError's kind naming it (the rest of CUDA works)."""
    libdir, why = _fake_cudart.build(tmp_path, cublas=False, cusparse=False)
    if libdir is None:
        pytest.skip(why)
    code = ("import sys; sys.path.insert(0, %r)\n"
            "import test_cuda_sparse_fake as t, tensorlib as tl\n"
            "case = t.Case(tl.float32, t.CSR, t.INT32, t.OP_N, 0, t.ROW, 1.0, 0.0, seed=1)\n"
            "rc, kind, msg = t.call_module(case.device_call())\n"
            "print(rc, kind); print(msg)\n"
            "print(tl.ones(2).cuda().cpu().tolist())\n" % HERE)
    r = _run(libdir, code=code)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    if lines[0] == "0 0":
        pytest.skip("a real libcusparse is installed here")
    assert lines[0] == "-1 1"  # TL_ERR_RUNTIME: RuntimeError
    assert "libcusparse.so.12 could not be loaded" in lines[1] and "cuSPARSE" in lines[1]
    assert lines[2] == "[1.0, 1.0]"


# ---- the calls (also used by the subprocess of the missing-library test) --------------------------

_EXPECTED_SIZE = 152  # sizeof(tl_backend_spmm_call) on x86-64


def _module():
    import tensorlib._C_cuda as m
    lib = C.CDLL(m.__file__)
    lib.tlc_spmm.argtypes = [C.c_void_p]
    lib.tlc_spmm.restype = C.c_int
    return lib


def _core():
    lib = C.CDLL(tl._C.__file__)
    lib.tl_err_msg.restype = C.c_char_p
    lib.tl_err_kind.restype = C.c_int
    return lib


def call_module(call):
    """(return code, error kind, error message) of the module's tlc_spmm on the call."""
    core = _core()
    core.tl_err_clear()
    rc = _module().tlc_spmm(C.addressof(call))
    msg = core.tl_err_msg()
    return rc, core.tl_err_kind(), (msg.decode() if msg else "")


def call_host(call):
    host = C.CFUNCTYPE(C.c_int, C.c_void_p)(tl._C._backend_spmm_host)
    return host(C.addressof(call))


def _tensor(a, dt):
    """A host tensor of dtype dt holding the integer-valued array a (real or complex)."""
    if dt in (tl.complex64, tl.complex128):
        return tl.tensor(np.asarray(a, dtype=np.complex128)).to(dt)
    return tl.tensor(np.asarray(a, dtype=np.float64)).to(dt)


def _values(t):
    """The complex128 NumPy array of a host tensor's values."""
    dt = t.dtype
    if dt in (tl.complex64, tl.complex128):
        return t.to(tl.complex128).numpy()
    return t.to(tl.float64).numpy().astype(np.complex128)


class Case:
    """One product: A (rows x cols, ~half zeros) in a format and index dtype, op, n (0: SpMV), order,
    leading dims one larger than needed, alpha and beta; host tensors, their device copies, and the
    expected C."""

    def __init__(self, dt, fmt, idt, op, n, order, alpha, beta, seed, rows=4, cols=3):
        rng = np.random.default_rng(seed)
        cplx = dt in (tl.complex64, tl.complex128)
        a = rng.integers(-3, 4, size=(rows, cols)) * (rng.random((rows, cols)) < 0.6)
        if cplx:
            a = a + 1j * rng.integers(-2, 3, size=(rows, cols)) * (a != 0)
        a[0, 0] = a[0, 0] or 2  # nnz >= 1
        self.dt, self.fmt, self.idt, self.op, self.n, self.order = dt, fmt, idt, op, n, order
        self.rows, self.cols = rows, cols
        self.alpha, self.beta = complex(alpha), complex(beta)
        m, k = (cols, rows) if op == OP_T else (rows, cols)
        ni = np.int32 if idt == INT32 else np.int64
        if fmt == CSC:
            cc, rr = np.nonzero(a.T)  # column by column
            offsets = np.searchsorted(cc, np.arange(cols + 1)).astype(ni)
            indices, vals = rr.astype(ni), a[rr, cc]
        else:
            rr, cc = np.nonzero(a)  # row by row: sorted (row, column) pairs
            offsets = (np.searchsorted(rr, np.arange(rows + 1)) if fmt == CSR else rr).astype(ni)
            indices, vals = cc.astype(ni), a[rr, cc]
        self.nnz = len(vals)
        bm = rng.integers(-3, 4, size=(k, max(n, 1))) + (1j * rng.integers(-2, 3, size=(k, max(n, 1))) if cplx else 0)
        cm = rng.integers(-3, 4, size=(m, max(n, 1))) + (1j * rng.integers(-2, 3, size=(m, max(n, 1))) if cplx else 0)
        if beta == 0:
            cm = np.zeros_like(cm)  # the core zeroes C when beta == 0
        op_a = a.T if op == OP_T else a
        self.expected = self.alpha * (op_a @ bm) + self.beta * cm
        # dense operands as stored: vectors contiguous; matrices in `order` with ld one larger
        if n == 0:
            self.ldb = self.ldc = 0
            bstore, cstore = bm[:, 0], cm[:, 0]
        elif order == ROW:
            self.ldb, self.ldc = n + 1, n + 1
            bstore = np.zeros((k, n + 1), dtype=bm.dtype)
            bstore[:, :n] = bm
            cstore = np.full((m, n + 1), 7, dtype=cm.dtype)  # the padding must stay 7
            cstore[:, :n] = cm
        else:
            self.ldb, self.ldc = k + 1, m + 1
            bstore = np.zeros((n, k + 1), dtype=bm.dtype)
            bstore[:, :k] = bm.T
            cstore = np.full((n, m + 1), 7, dtype=cm.dtype)
            cstore[:, :m] = cm.T
        self.m, self.k = m, k
        self.host = {"offsets": tl.tensor(offsets), "indices": tl.tensor(indices), "values": _tensor(vals, dt),
                     "b": _tensor(bstore, dt), "c": _tensor(cstore, dt)}
        self.dev = {name: t.cuda() for name, t in self.host.items()}

    def _call(self, t):
        c = SpmmCall()
        c.size = C.sizeof(SpmmCall)
        c.device_index = 0
        c.format, c.index_dtype, c.dtype, c.op_a, c.order = self.fmt, self.idt, BDT[self.dt], self.op, self.order
        c.rows, c.cols, c.nnz, c.n, c.ldb, c.ldc = self.rows, self.cols, self.nnz, self.n, self.ldb, self.ldc
        c.alpha[:] = [self.alpha.real, self.alpha.imag]
        c.beta[:] = [self.beta.real, self.beta.imag]
        c.offsets, c.indices, c.values = t["offsets"].data_ptr(), t["indices"].data_ptr(), t["values"].data_ptr()
        c.b, c.c = t["b"].data_ptr(), t["c"].data_ptr()
        return c

    def device_call(self):
        return self._call(self.dev)

    def host_call(self):
        return self._call(self.host)

    def result(self, c):
        """C (m x n, or m) of the stored tensor c, complex128, and the padding's values."""
        v = _values(c)
        if self.n == 0:
            return v[:, None], np.array([7])
        if self.order == ROW:
            return v[:, :self.n], v[:, self.n:]
        return v[:, :self.m].T, v[:, self.m:]


def _fake_cusparse():
    try:
        lib = C.CDLL("libcusparse.so.12")  # the instance sparse.cu's dlopen gets
    except OSError:
        pytest.skip("fake cuSPARSE not loaded")
    if not hasattr(lib, "tl_fake_cusparse_spmms"):
        pytest.skip("a real libcusparse is loaded")
    for f in ("spmvs", "spmms", "handles", "size_queries", "live_descriptors"):
        getattr(lib, "tl_fake_cusparse_" + f).restype = C.c_long
    lib.tl_fake_cusparse_last_stream.restype = C.c_void_p
    lib.tl_fake_cusparse_last_buffer.restype = C.c_void_p
    lib.tl_fake_cusparse_last_buffer_size.restype = C.c_size_t
    return lib


DTYPES = [tl.float16, tl.bfloat16, tl.float32, tl.float64, tl.complex64, tl.complex128]


@inner
def test_struct_mirror_has_the_c_size():
    assert C.sizeof(SpmmCall) == _EXPECTED_SIZE


@inner
@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_products_match_numpy_and_the_host_runner(dt):
    fake = _fake_cusparse()
    seed = 0
    for fmt in (CSR, CSC, COO):
        for idt in (INT32, INT64):
            for op in (OP_N, OP_T):
                for n, order in ((0, ROW), (2, ROW), (3, COL), (1, COL)):
                    seed += 1
                    cplx = dt in (tl.complex64, tl.complex128)
                    alpha, beta = [(2, -1), (1, 0), (-1, 3)][seed % 3]
                    if cplx:
                        alpha, beta = [(1 + 2j, -1 + 1j), (2 - 1j, 0), (1, 1j)][seed % 3]
                    case = Case(dt, fmt, idt, op, n, order, alpha, beta, seed)
                    nv, nm = fake.tl_fake_cusparse_spmvs(), fake.tl_fake_cusparse_spmms()
                    rc, kind, msg = call_module(case.device_call())
                    assert rc == 0, (fmt, idt, op, n, order, msg)
                    assert (fake.tl_fake_cusparse_spmvs(), fake.tl_fake_cusparse_spmms()) == \
                        ((nv + 1, nm) if n == 0 else (nv, nm + 1))
                    # CSC went as the CSR of A^T with the operation flipped
                    assert fake.tl_fake_cusparse_last_op() == (op if fmt != CSC else 1 - op)
                    assert fake.tl_fake_cusparse_last_format() == CU_FORMAT[fmt]
                    assert fake.tl_fake_cusparse_last_compute() == CU_COMPUTE[dt]
                    assert fake.tl_fake_cusparse_last_order() == (-1 if n == 0 else CU_ORDER[order])
                    got, pad = case.result(case.dev["c"].cpu())
                    where = (str(dt), fmt, idt, op, n, order)
                    assert np.array_equal(got, case.expected), (where, got, case.expected)
                    assert np.all(pad == 7), where
                    assert call_host(case.host_call()) == 0
                    host, _ = case.result(case.host["c"])
                    assert np.array_equal(host, got), where
    assert fake.tl_fake_cusparse_live_descriptors() == 0  # every descriptor destroyed


@inner
def test_one_handle_per_device_and_the_workspace_goes_back():
    fake = _fake_cusparse()
    case = Case(tl.float32, CSR, INT64, OP_N, 2, ROW, 1, 0, seed=5)
    call_module(case.device_call())
    handles = fake.tl_fake_cusparse_handles()
    assert handles >= 1
    base = tl.cuda.memory_allocated(0)
    queries = fake.tl_fake_cusparse_size_queries()
    rc, _, msg = call_module(case.device_call())
    assert rc == 0, msg
    buf, size = fake.tl_fake_cusparse_last_buffer(), fake.tl_fake_cusparse_last_buffer_size()
    assert buf and size > 0 and fake.tl_fake_cusparse_size_queries() == queries + 1
    assert tl.cuda.memory_allocated(0) == base  # the workspace went back to the allocator
    reserved = tl.cuda.memory_reserved(0)
    rc, _, msg = call_module(case.device_call())
    assert rc == 0, msg
    assert fake.tl_fake_cusparse_last_buffer() == buf  # ... and is handed out again from its cache
    assert tl.cuda.memory_reserved(0) == reserved
    assert fake.tl_fake_cusparse_handles() == handles  # one handle for the device, kept
    # bound to the current stream before each call
    s = tl.cuda.Stream()
    with tl.cuda.stream(s):
        rc, _, msg = call_module(case.device_call())
    assert rc == 0, msg
    assert fake.tl_fake_cusparse_last_stream() == s.cuda_stream
    call_module(case.device_call())
    assert not fake.tl_fake_cusparse_last_stream()  # the legacy default stream
    assert fake.tl_fake_cusparse_handles() == handles
    if tl.cuda.device_count() >= 2:  # a second device gets a handle of its own
        with tl.cuda.device(1):
            case1 = Case(tl.float64, COO, INT32, OP_T, 0, ROW, 2, 0, seed=6)
        call = case1.device_call()
        call.device_index = 1
        assert all(t.device.index == 1 for t in case1.dev.values())
        rc, _, msg = call_module(call)
        assert rc == 0, msg
        got, _ = case1.result(case1.dev["c"].cpu())
        assert np.array_equal(got, case1.expected)
        assert fake.tl_fake_cusparse_handles() == handles + 1
        assert tl.cuda.current_device() == 0  # the caller's device is kept
        call_module(call)
        assert fake.tl_fake_cusparse_handles() == handles + 1
    assert fake.tl_fake_cusparse_live_descriptors() == 0


@inner
def test_refusals():
    fake = _fake_cusparse()
    case = Case(tl.float32, CSR, INT32, OP_N, 2, COL, 1, 0, seed=7)
    calls = fake.tl_fake_cusparse_spmms()
    bad = []
    c = case.device_call()
    c.size -= 8
    bad.append(c)
    for field, value in (("format", 3), ("index_dtype", 2), ("op_a", 2), ("order", 2), ("nnz", 0), ("ldb", 2)):
        c = case.device_call()
        setattr(c, field, value)
        bad.append(c)
    for c in bad:
        rc, kind, msg = call_module(c)
        assert (rc, kind) == (-1, 1) and "malformed spmm call" in msg, msg
    c = case.device_call()
    c.dtype = INT32
    rc, kind, msg = call_module(c)
    assert (rc, kind) == (-1, 6) and "cuSPARSE has no products of this dtype" in msg  # NotImplementedError
    assert fake.tl_fake_cusparse_spmms() == calls  # nothing reached cuSPARSE
    # what cuSPARSE refuses comes back in torch's words, with nothing leaked
    base = tl.cuda.memory_allocated(0)
    c = case.device_call()
    c.b = case.host["b"].data_ptr()  # host memory: an illegal address on the device
    rc, kind, msg = call_module(c)
    assert (rc, kind) == (-1, 1), msg
    assert msg.startswith("CUDA error: CUSPARSE_STATUS_EXECUTION_FAILED when calling `cusparseSpMM(handle, "), msg
    c = case.device_call()
    c.nnz += 1  # offsets[rows] != nnz: a structure cuSPARSE's kernels would read out of bounds with
    rc, kind, msg = call_module(c)
    assert "CUSPARSE_STATUS_EXECUTION_FAILED" in msg
    assert tl.cuda.memory_allocated(0) == base and fake.tl_fake_cusparse_live_descriptors() == 0
    assert fake.tl_fake_cusparse_spmms() == calls
    rc, _, msg = call_module(case.device_call())  # and the handle still works
    assert rc == 0, msg
