"""The CUDA module's host code on a fake CUDA runtime (tests/fake_cudart/fake_cudart.c).

tensorlib._C_cuda is compiled wherever nvcc is, but no GPU runs it here or on CI. Its host
side (initialisation and device queries, the caching allocator and its statistics, streams,
events, pinned memory, copies in every direction, DLPack synchronisation, error paths) needs
only the CUDA runtime API, so these tests run it against a host stand-in of libcudart, built
from the toolkit's own headers and loaded instead of the real library. The fake checks what
the real runtime refuses (a copy whose device side is outside a live allocation, a free of an
unknown pointer, a destroyed stream or event); kernel launches fail with "no kernel image",
and the tests that need them are reported as skipped (tests/conftest.py).

Two layers: the outer tests (a normal run) build the fake and run pytest in a subprocess
under it, over this file and the GPU test files; the inner tests (TL_FAKE_CUDART=1) check
the fake's own counters through ctypes.
"""
import ctypes
import os
import subprocess
import sys

import pytest

import tensorlib as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import _fake_cudart  # noqa: E402

INNER = os.environ.get("TL_FAKE_CUDART") == "1"
GPU_FILES = ["test_cuda.py", "test_cuda_api.py", "test_cuda_memory.py", "test_cuda_random.py", "test_cuda_reduce.py", "test_cuda_scan.py",
             "test_cuda_index.py"]


@pytest.fixture(scope="module")
def fake_lib(tmp_path_factory):
    libdir, why = _fake_cudart.build(tmp_path_factory.mktemp("cudart"))
    if libdir is None:
        pytest.skip(why)
    return libdir


def _run(libdir, args, devices=1, memory=None, code=None):
    env = _fake_cudart.fake_env(libdir, devices=devices, memory=memory)
    cmd = [sys.executable] + (["-c", code] if code is not None else
                              ["-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "--tb=short"] + args)
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600,
                          cwd=os.path.dirname(HERE))


def _counts(stdout):
    last = [ln for ln in stdout.splitlines() if " in " in ln and ("passed" in ln or "failed" in ln)]
    words = last[-1].replace(",", "").split() if last else []
    return {words[i + 1]: int(words[i]) for i in range(len(words) - 1) if words[i].isdigit()}


@pytest.mark.skipif(INNER, reason="outer layer")
@pytest.mark.parametrize("devices", [1, 2])
def test_gpu_tests_run_on_the_fake_runtime(fake_lib, devices):
    files = [os.path.join("tests", f) for f in GPU_FILES + [os.path.basename(__file__)]]
    # the element-wise grids run in subprocesses of their own that need the device code
    r = _run(fake_lib, files + ["-k", "not test_public_elementwise_ops_match_cpu and not test_random_on_device "
                                   "and not test_reductions_on_real_device and not test_scans_on_real_device"],
             devices=devices)
    assert r.returncode == 0, (r.stdout[-6000:] + r.stderr[-3000:])
    n = _counts(r.stdout)
    # the device tests ran (not all skipped): streams, events, memory, copies, pinned memory
    assert n.get("passed", 0) >= 300, r.stdout[-2000:]


@pytest.mark.skipif(INNER, reason="outer layer")
@pytest.mark.parametrize("devices, available, message", [
    (0, False, "No CUDA GPUs are available"),
    (-1, False, "Found no NVIDIA driver on your system"),
])
def test_no_device_and_no_driver(fake_lib, devices, available, message):
    code = ("import tensorlib as tl\n"
            "print(tl.cuda.is_available(), tl.cuda.device_count())\n"
            "try:\n    tl.zeros(2, device='cuda')\nexcept RuntimeError as e:\n    print('RuntimeError', e)\n")
    r = _run(fake_lib, None, devices=devices, code=code)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "%s 0" % available
    assert lines[1].startswith("RuntimeError") and message in lines[1]


@pytest.mark.skipif(INNER, reason="outer layer")
def test_out_of_memory_gives_the_cache_back_then_raises(fake_lib):
    code = ("import tensorlib as tl\n"
            "a = tl.empty(600 << 10, dtype=tl.uint8, device='cuda'); del a\n"  # cached, 600 KiB
            "b = tl.empty(700 << 10, dtype=tl.uint8, device='cuda')\n"  # needs the cache given back
            "print(tl.cuda.memory_reserved())\n"
            "try:\n    tl.empty(1 << 20, dtype=tl.uint8, device='cuda')\n"
            "except Exception as e:\n    print(type(e).__name__, e)\n")
    r = _run(fake_lib, None, memory=1 << 20, code=code)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == str(700 << 10)
    kind, msg = lines[1].split(" ", 1)
    assert kind in ("OutOfMemoryError", "RuntimeError", "MemoryError"), lines[1]
    assert msg.startswith("CUDA out of memory. Tried to allocate %d bytes" % (1 << 20))


@pytest.mark.skipif(INNER, reason="outer layer")
def test_gpu_benchmark_script_runs(tmp_path):
    # without the fake cuBLAS: its host loops would take hours over the 4096^2 GEMM rows
    fake_lib, why = _fake_cudart.build(tmp_path, cublas=False)
    if fake_lib is None:
        pytest.skip(why)
    out = tmp_path / "bench.json"
    script = os.path.join(os.path.dirname(HERE), "benchmarks", "cuda_bench.py")
    r = _run(fake_lib, None, code="import runpy, sys; sys.argv = %r; runpy.run_path(%r, run_name='__main__')" % (
        [script, "--log2n", "12", "--reps", "2", "--json", str(out)], script))
    assert r.returncode == 0, r.stderr
    import json
    rows = {row["row"]: row for row in json.load(open(out))["rows"]}
    assert rows["copy f32 2^12 (D2D)"]["tensorlib_ms"] > 0
    assert rows["h2d pinned f32 2^12"]["tensorlib_ms"] > 0 and rows["d2h pinned f32 2^12"]["tensorlib_ms"] > 0
    assert "no kernel image" in rows["add f32 2^12 out="]["tensorlib_error"]


# ---- inner layer: in the process that runs on the fake -------------------------------

def _fake():
    for soname in ("libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0"):
        try:
            lib = ctypes.CDLL(soname)
            lib.tl_fake_cudart_in_use.restype = ctypes.c_size_t
            lib.tl_fake_cudart_launches.restype = ctypes.c_long
            return lib
        except (OSError, AttributeError):
            continue
    pytest.skip("fake cudart not loaded")


inner = pytest.mark.skipif(not INNER, reason="runs under the fake CUDA runtime (outer test)")


@inner
def test_allocator_returns_every_block():
    lib = _fake()
    tl.cuda.empty_cache()
    base = lib.tl_fake_cudart_in_use(0)  # tensors other tests keep alive
    allocated, reserved = tl.cuda.memory_allocated(), tl.cuda.memory_reserved()
    xs = [tl.ones(n, device="cuda") for n in (1, 100, 1000, 100000)]
    ys = [x.cpu().cuda() for x in xs]
    assert lib.tl_fake_cudart_in_use(0) > base
    assert tl.cuda.memory_allocated() == allocated + 2 * (512 + 512 + 4096 + 400384)
    del xs, ys
    assert tl.cuda.memory_allocated() == allocated
    assert tl.cuda.memory_reserved() > reserved  # cached
    tl.cuda.empty_cache()
    assert tl.cuda.memory_reserved() == reserved
    assert lib.tl_fake_cudart_in_use(0) == base


@inner
def test_cached_block_is_reused_without_a_new_cudamalloc():
    lib = _fake()
    tl.cuda.empty_cache()
    x = tl.empty(1000, device="cuda")
    used = lib.tl_fake_cudart_in_use(0)
    del x
    y = tl.empty(1000, device="cuda")
    assert lib.tl_fake_cudart_in_use(0) == used
    del y


@inner
def test_every_copy_direction_keeps_the_values():
    src = tl.arange(24, dtype=tl.float64).reshape(2, 3, 4)
    for t in (src, src.transpose(0, 2), src[:, ::2], src.to(tl.float16)):
        d = t.cuda()
        assert d.is_cuda and d.device == tl.device("cuda:0")
        assert tl.equal(d.cpu(), t)
        assert tl.equal(d.clone().cpu() if d.is_contiguous() else d.cpu(), t)
    dst = tl.empty(2, 3, 4, dtype=tl.float64, device="cuda")
    assert tl.equal(dst.copy_(src).cpu(), src)  # copy_ across devices: one byte copy
    host = tl.zeros(2, 3, 4, dtype=tl.float64)
    assert tl.equal(host.copy_(dst), src)
    p = src.pin_memory()
    assert p.is_pinned()
    d = p.to("cuda", non_blocking=True)
    back = d.to("cpu", non_blocking=True)
    tl.cuda.synchronize()
    assert back.is_pinned() and tl.equal(back, src)


@inner
def test_second_device_when_there_are_two():
    if tl.cuda.device_count() < 2:
        pytest.skip("one fake device")
    lib = _fake()
    tl.cuda.empty_cache()
    before0 = tl.cuda.memory_allocated(0)
    a = tl.ones(256, device="cuda:1")
    assert a.get_device() == 1
    assert tl.cuda.memory_allocated(1) == 1024 and tl.cuda.memory_allocated(0) == before0
    assert lib.tl_fake_cudart_in_use(1) == 1024
    with tl.cuda.device(1):
        assert tl.cuda.current_device() == 1
        b = tl.zeros(3, device="cuda")
    assert b.get_device() == 1 and tl.cuda.current_device() == 0
    c = a.cpu().to("cuda:0")
    assert c.get_device() == 0 and tl.equal(c.cpu(), a.cpu())
    with pytest.raises(RuntimeError, match="same device"):
        a + c
    del a, b, c
    tl.cuda.empty_cache()
    assert lib.tl_fake_cudart_in_use(1) == 0


@inner
def test_kernel_launch_reports_the_runtime_error_and_writes_nothing():
    lib = _fake()
    n0 = lib.tl_fake_cudart_launches()
    x = tl.ones(10, device="cuda")
    out = tl.full((10,), 7.0, device="cuda")
    with pytest.raises(RuntimeError, match="no kernel image"):
        tl.add(x, x, out=out)
    assert lib.tl_fake_cudart_launches() == n0 + 1
    assert tl.equal(out.cpu(), tl.full((10,), 7.0))
    assert tl.equal((x.cpu() + 1), tl.full((10,), 2.0))  # the CPU is untouched by it


@inner
def test_events_and_recorded_blocks_release_their_handles():
    lib = _fake()
    s = tl.cuda.Stream()
    with tl.cuda.stream(s):
        pass
    tl.cuda.empty_cache()  # events guarding cached blocks of earlier tests
    base = lib.tl_fake_cudart_live_handles()  # the stream pool stays for the process
    for _ in range(50):
        a, b = tl.cuda.Event(enable_timing=True), tl.cuda.Event(enable_timing=True)
        a.record()
        b.record(s)
        b.synchronize()
        assert a.elapsed_time(b) >= 0
    del a, b
    assert lib.tl_fake_cudart_live_handles() == base
    x = tl.ones(1000, device="cuda")
    x.record_stream(s)
    del x  # freed while s may still use it: an event on s guards the block
    tl.cuda.empty_cache()  # waits for that event, then frees the block and the event
    assert lib.tl_fake_cudart_live_handles() == base


@inner
def test_pinned_blocks_are_cached_and_wait_for_their_copies():
    lib = _fake()
    lib.tl_fake_cudart_host_allocs.restype = ctypes.c_long
    tl.cuda.empty_cache()
    blocks = lib.tl_fake_cudart_host_blocks()  # pinned tensors other tests keep alive
    n0 = lib.tl_fake_cudart_host_allocs()
    for _ in range(5):
        p = tl.arange(1000.0).pin_memory()  # 8000 bytes -> one 8 KiB block, reused
        assert p.is_pinned()
        del p
    assert lib.tl_fake_cudart_host_allocs() == n0 + 1
    src = tl.arange(1000.0).pin_memory()
    d = src.to("cuda", non_blocking=True)
    del src  # the copy may still read it: the block waits for an event on the stream
    back = d.to("cpu", non_blocking=True)  # a pinned result: the cached block once that event is done
    tl.cuda.synchronize()
    assert back.is_pinned() and tl.equal(back, tl.arange(1000.0))
    assert lib.tl_fake_cudart_host_allocs() == n0 + 1
    big = tl.ones(5000).pin_memory()  # 20000 bytes: a new 32 KiB block
    assert lib.tl_fake_cudart_host_allocs() == n0 + 2
    assert lib.tl_fake_cudart_host_blocks() == blocks + 2
    del back, big, d
    tl.cuda.empty_cache()
    assert lib.tl_fake_cudart_host_blocks() == blocks


@inner
def test_current_stream_is_per_thread():
    import threading
    s = tl.cuda.Stream()
    seen = {}

    def other():
        seen["start"] = tl.cuda.current_stream().cuda_stream
        with tl.cuda.stream(tl.cuda.Stream()):
            seen["inside"] = tl.cuda.current_stream().cuda_stream

    with tl.cuda.stream(s):
        t = threading.Thread(target=other)
        t.start()
        t.join()
        assert tl.cuda.current_stream() == s  # the other thread's choice stays there
    assert seen["start"] == 0 and seen["inside"] not in (0, s.cuda_stream)
    assert tl.cuda.current_stream().cuda_stream == 0


@inner
def test_python_numbers_and_cuda_array_interface():
    x = tl.tensor([[1.5, -2.0], [3.0, 4.0]], dtype=tl.float64).cuda()
    assert float(x[0, 0]) == 1.5 and int(x[0, 1]) == -2 and bool(x[1, 0]) and complex(x[1, 1]) == 4 + 0j
    assert x[0, 0].item() == 1.5
    assert tl.tensor(7, dtype=tl.int64).cuda().__index__() == 7
    cai = x.__cuda_array_interface__
    assert cai == {"typestr": "<f8", "shape": (2, 2), "strides": None, "data": (x.data_ptr(), False), "version": 2}
    t = x.t()
    assert t.__cuda_array_interface__["strides"] == (8, 16)
    assert tl.empty(0, device="cuda").__cuda_array_interface__["data"] == (0, False)
    with pytest.raises(TypeError, match="bfloat16"):
        tl.zeros(1, dtype=tl.bfloat16, device="cuda").__cuda_array_interface__
    assert not hasattr(tl.zeros(1), "__cuda_array_interface__")


@inner
def test_device_copies_keep_names():
    x = tl.arange(6.0).reshape(2, 3).rename("a", "b")
    d = x.cuda()
    assert d.names == ("a", "b") and d.cpu().names == ("a", "b")
    assert x.t().to("cuda", tl.float64).names == ("b", "a")
    assert x.to("cuda", non_blocking=True).names == ("a", "b")


# ---- cuBLAS (csrc/cuda/blas.cu) on the fake libcublas (tests/fake_cudart/fake_cublas.c) --------

def _fake_cublas():
    try:
        lib = ctypes.CDLL("libcublas.so.13")  # the instance blas.cu's dlopen gets
        lib.tl_fake_cublas_gemms.restype = ctypes.c_long
        lib.tl_fake_cublas_handles.restype = ctypes.c_long
        lib.tl_fake_cublas_last_stream.restype = ctypes.c_void_p
        return lib
    except (OSError, AttributeError):
        pytest.skip("fake cuBLAS not loaded")


def _ints(shape, dt, seed):
    import numpy as np
    v = np.random.default_rng(seed).integers(-3, 4, size=shape).astype(np.float32)
    return tl.tensor(v).to(dt)


@inner
def test_products_run_blas_cu_on_the_fake_cublas():
    """The module's cuBLAS host code: one handle for the device, the call's types, transpositions,
    leading dims and batch strides (the fake refuses what cuBLAS refuses and reads only inside live
    device allocations), alpha/beta in the compute type, the TF32 and reduced-precision switches,
    the current stream. Only products whose operands need no device kernel (no copies, which the
    fake runtime cannot launch); small integers, so the results equal the CPU's exactly."""
    lib = _fake_cublas()
    n0 = lib.tl_fake_cublas_gemms()
    for dt in (tl.float32, tl.float64, tl.float16, tl.bfloat16, tl.complex64, tl.complex128):
        a, b, bt = _ints((3, 4), dt, 1), _ints((4, 5), dt, 2), _ints((5, 4), dt, 3)
        x, y = _ints((2, 3, 4), dt, 4), _ints((2, 4, 5), dt, 5)
        v = _ints((4,), dt, 6)
        pairs = [(tl.mm(a.cuda(), b.cuda()), a @ b), (tl.mm(a.cuda(), bt.cuda().t()), a @ bt.t()),
                 (tl.bmm(x.cuda(), y.cuda()), tl.bmm(x, y)), (tl.matmul(x.cuda(), b.cuda()), x @ b),
                 (tl.matmul(x.cuda().transpose(1, 2).transpose(1, 2), y.cuda()), x @ y),
                 (tl.mv(a.cuda(), v.cuda()), tl.mv(a, v)), (tl.dot(v.cuda(), v.cuda()), tl.dot(v, v)),
                 (tl.addmm(_ints((3, 5), dt, 7).cuda(), a.cuda(), b.cuda(), beta=0, alpha=2),
                  tl.addmm(_ints((3, 5), dt, 7), a, b, beta=0, alpha=2))]
        for got, want in pairs:
            assert got.is_cuda and got.dtype == want.dtype and got.shape == want.shape
            assert tl.equal(got.cpu(), want), (dt, got.cpu(), want)
    assert lib.tl_fake_cublas_gemms() >= n0 + 6 * 8
    assert lib.tl_fake_cublas_handles() == 1  # one handle per device, kept
    m = tl.backends.cuda.matmul
    ah, bh = _ints((3, 4), tl.float32, 1), _ints((4, 5), tl.float32, 2)
    a, b = ah.cuda(), bh.cuda()  # (casts on the device would launch kernels: cast on the host)
    try:
        tl.mm(a, b)
        assert (lib.tl_fake_cublas_last_compute(), lib.tl_fake_cublas_last_math()) == (68, 0)
        m.allow_tf32 = True
        tl.mm(a, b)
        assert lib.tl_fake_cublas_last_compute() == 77  # CUBLAS_COMPUTE_32F_FAST_TF32
        tl.mm(ah.double().cuda(), bh.double().cuda())
        assert lib.tl_fake_cublas_last_compute() == 70
        m.allow_bf16_reduced_precision_reduction = False
        tl.mm(ah.bfloat16().cuda(), bh.bfloat16().cuda())
        assert (lib.tl_fake_cublas_last_compute(), lib.tl_fake_cublas_last_math()) == (68, 16)
        tl.mm(ah.half().cuda(), bh.half().cuda())
        assert lib.tl_fake_cublas_last_math() == 0
    finally:
        m.allow_tf32 = False
        m.allow_bf16_reduced_precision_reduction = True
    s = tl.cuda.Stream()
    with tl.cuda.stream(s):
        tl.mm(a, b)
    assert lib.tl_fake_cublas_last_stream() == s.cuda_stream
    tl.mm(a, b)
    assert not lib.tl_fake_cublas_last_stream()  # the legacy default stream
    # integers never reach cuBLAS
    n = lib.tl_fake_cublas_gemms()
    with pytest.raises(NotImplementedError, match="\"addmm_cuda\" not implemented for 'Long'"):
        tl.mm(ah.long().cuda(), bh.long().cuda())
    assert lib.tl_fake_cublas_gemms() == n


@pytest.mark.skipif(INNER, reason="outer layer")
def test_missing_libcublas_is_a_runtime_error(tmp_path):
    """Without a libcublas the first product raises RuntimeError naming it (the rest of CUDA works)."""
    libdir, why = _fake_cudart.build(tmp_path, cublas=False)
    if libdir is None:
        pytest.skip(why)
    code = ("import tensorlib as tl\n"
            "a = tl.ones(2, 2, device='cuda')\n"
            "try:\n    tl.mm(a, a)\nexcept RuntimeError as e:\n    print('RuntimeError', e)\n"
            "print(tl.ones(2).cuda().cpu().tolist())\n")
    r = _run(libdir, None, code=code)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    if not lines[0].startswith("RuntimeError"):
        pytest.skip("a real libcublas is installed here: %s" % lines[0])
    assert "libcublas.so.13 could not be loaded" in lines[0] and lines[1] == "[1.0, 1.0]"


# ---- cuSPARSELt (csrc/cuda/semi.cu) on the fake libcusparseLt (tests/fake_cudart/fake_cusparselt.c) ----

def _fake_cusparselt():
    try:
        lib = ctypes.CDLL("libcusparseLt.so.0")  # the instance semi.cu's dlopen gets
        for f in ("handles", "compresses", "matmuls", "plans"):
            getattr(lib, "tl_fake_cusparselt_" + f).restype = ctypes.c_long
        lib.tl_fake_cusparselt_last_stream.restype = ctypes.c_void_p
        return lib
    except (OSError, AttributeError):
        pytest.skip("fake cuSPARSELt not loaded")


def _semi_pattern(rows, cols, dt, seed):
    import numpy as np
    rng = np.random.default_rng(seed)
    v = rng.integers(-3, 4, size=(rows, cols)).astype(np.float32)
    for r in range(rows):
        for g in range(0, cols, 4):
            v[r, g + rng.choice(4, size=2, replace=False)] = 0
    return tl.tensor(v).to(dt)


@inner
def test_semi_products_run_semi_cu_on_the_fake_cusparselt():
    """The module's cuSPARSELt host code: loading, one handle per device, the structured and dense
    descriptors, the compression of the padded matrix for each side (the fake refuses a broken 2:4
    pattern and reads and writes only inside live device allocations at the sizes it reported),
    cached plans, the workspace, the current stream, the padded result copied back. float16 and
    bfloat16 (int8's int32 result needs a cast kernel, which the fake runtime cannot launch);
    small integers, so the results equal the CPU's exactly."""
    from tensorlib.sparse import to_sparse_semi_structured as semi
    lib = _fake_cusparselt()
    c0, m0 = lib.tl_fake_cusparselt_compresses(), lib.tl_fake_cusparselt_matmuls()
    for dt in (tl.float16, tl.bfloat16):
        for rows, cols, n in [(4, 16, 3), (32, 64, 32), (5, 48, 7)]:
            sd = _semi_pattern(rows, cols, dt, rows + cols)
            b, a = _ints((cols, n), dt, 2), _ints((n, rows), dt, 3)
            s_dev = semi(sd.cuda())  # compressed for S @ B at construction
            got = tl.mm(s_dev, b.cuda())
            assert got.is_cuda and got.dtype == dt and tl.equal(got.cpu(), semi(sd) @ b)
            got = tl.mm(a.cuda(), s_dev)  # compressed for A @ S on first use
            assert got.is_cuda and tl.equal(got.cpu(), a @ semi(sd))
            got = tl.mm(a.cuda(), semi(sd).cuda())  # moved with .cuda(): compressed lazily
            assert tl.equal(got.cpu(), a @ semi(sd))
    assert lib.tl_fake_cusparselt_compresses() == c0 + 2 * 3 * 3
    assert lib.tl_fake_cusparselt_matmuls() == m0 + 2 * 3 * 3
    assert lib.tl_fake_cusparselt_handles() == 1  # one handle per device, kept
    assert lib.tl_fake_cusparselt_last_compute() == 2  # CUSPARSE_COMPUTE_32F
    assert lib.tl_fake_cusparselt_last_side() == 0  # the 2:4 matrix as matB
    sd = _semi_pattern(8, 128, tl.float16, 9)  # a padded shape (32 x 128, n 32) no product above had
    s_dev, b = semi(sd.cuda()), _ints((128, 4), tl.float16, 4).cuda()
    plans = lib.tl_fake_cusparselt_plans()
    tl.mm(s_dev, b)
    tl.mm(s_dev, b)
    assert lib.tl_fake_cusparselt_plans() == plans + 1  # one plan, cached
    assert lib.tl_fake_cusparselt_last_side() == 1
    st = tl.cuda.Stream()
    with tl.cuda.stream(st):
        tl.mm(s_dev, b)
    assert lib.tl_fake_cusparselt_last_stream() == st.cuda_stream
    tl.mm(s_dev, b)
    assert not lib.tl_fake_cusparselt_last_stream()  # the legacy default stream
    # the entry's errors are torch-style RuntimeErrors naming the call (here the fake's 2:4 check
    # on a matrix that breaks the pattern, which only the private primitive can hand it)
    bad = tl.ones(32, 32, dtype=tl.float16).cuda()
    buf = tl.empty(tl._C._semi_device(bad, True, None), dtype=tl.uint8, device="cuda")
    with pytest.raises(RuntimeError, match="CUSPARSE_STATUS_INVALID_VALUE when calling `cusparseLtSpMMACompress2"):
        tl._C._semi_device(bad, True, buf)
    # float32 is no dtype of the entry (cuSPARSELt's float sparsity is 1:2): the host round trip
    n = lib.tl_fake_cusparselt_matmuls()
    sf = _semi_pattern(4, 16, tl.float32, 5)
    bf = _ints((16, 3), tl.float32, 6)
    assert tl.equal(tl.mm(semi(sf.cuda()), bf.cuda()).cpu(), semi(sf) @ bf)
    assert lib.tl_fake_cusparselt_matmuls() == n


@inner
def test_entries_give_the_callers_device_back():
    """Work on cuda:1 tensors (products on cuBLAS and cuSPARSE, copies, synchronize) leaves the
    caller's current device current, as torch's CUDAGuard (the entries selected the tensor's device
    and kept it: a later tl.zeros(device='cuda') landed on cuda:1)."""
    if tl.cuda.device_count() < 2:
        pytest.skip("one fake device")
    tl.cuda.set_device(0)
    a = _ints((3, 4), tl.float32, 1)
    b = _ints((4, 2), tl.float32, 2)
    for what, f in [("mm", lambda: tl.mm(a.to("cuda:1"), b.to("cuda:1"))),
                    ("sparse mm", lambda: tl.mm(a.to_sparse_csr().to("cuda:1"), b.to("cuda:1"))),
                    ("copy", lambda: a.to("cuda:1").cpu()), ("synchronize", lambda: tl.cuda.synchronize(1))]:
        r = f()
        assert tl.cuda.current_device() == 0, what
        assert tl.zeros(2, device="cuda").device == tl.device("cuda:0"), what
        if isinstance(r, tl.Tensor) and r.is_cuda:
            assert r.device == tl.device("cuda:1") and tl.equal(r.cpu(), a @ b), what
