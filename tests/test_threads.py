"""tensorlib's thread pool (csrc/core/parallel.c): results do not depend on the thread
count, set_num_threads round-trips, a forked child can use threads, and Python threads may
call tensorlib concurrently."""
import multiprocessing
import os
import signal
import threading
import time

import numpy as np
import pytest

import tensorlib as tl


@pytest.fixture
def threads():
    old = tl.get_num_threads()
    yield
    tl.set_num_threads(old)


def _at(nt, f):
    tl.set_num_threads(nt)
    return f()


# Sizes well past every op's grain (32768 elements, 4x that for copies) and not multiples
# of any chunk size, so chunk edges fall mid-vector.
N = 1_000_003


def _ops(dtype):
    rng = np.random.default_rng(5)
    a = rng.standard_normal(N).astype(dtype)
    b = rng.standard_normal(N).astype(dtype)
    m = rng.standard_normal((1013, 997)).astype(dtype)
    ta, tb, tm = tl.from_numpy(a), tl.from_numpy(b), tl.from_numpy(m)

    def add_out():
        out = tl.empty(N, dtype=ta.dtype)
        tl.add(ta, tb, out=out)
        return out.numpy()

    return {
        "add": lambda: (ta + tb).numpy(),
        "add_out": add_out,
        "exp": lambda: tl.exp(ta).numpy(),
        "mul_bcast": lambda: (tm * tm[0]).numpy(),
        "copy_T": lambda: tm.T.contiguous().numpy(),
        "clone": lambda: ta.clone().numpy(),
        "sum": lambda: ta.sum().numpy(),
        "sum_dim0": lambda: tm.sum(0).numpy(),
        "sum_dim1": lambda: tm.sum(1).numpy(),
        "amax": lambda: tm.amax(0).numpy(),
        "cumsum": lambda: tm.cumsum(1).numpy(),
    }, (a, b, m)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_results_identical_across_thread_counts(threads, dtype):
    ops, (a, b, m) = _ops(dtype)
    expect = {"add": a + b, "add_out": a + b, "exp": np.exp(a), "mul_bcast": m * m[0],
              "copy_T": m.T, "clone": a, "sum": a.sum(dtype=np.float64), "sum_dim0": m.sum(0, dtype=np.float64),
              "sum_dim1": m.sum(1, dtype=np.float64), "amax": m.max(0), "cumsum": np.cumsum(m, 1, dtype=np.float64)}
    for name, f in ops.items():
        one = _at(1, f)
        tol = 1e-4 if dtype == np.float32 else 1e-10
        np.testing.assert_allclose(one, expect[name], rtol=tol, atol=tol * 10, err_msg=name)
        for nt in (2, 3):
            np.testing.assert_array_equal(_at(nt, f), one, err_msg="%s at %d threads" % (name, nt))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_column_extremes_identical_across_thread_counts(threads, dtype):
    # amax/amin over axis 0 cut their columns into equal tasks that follow the thread count
    # (fewer than two per thread otherwise); widths that leave ragged last tasks
    rng = np.random.default_rng(7)
    for shape in ((200, 12345), (64, 8193), (3000, 700), (40, 40000)):
        m = rng.standard_normal(shape).astype(dtype)
        m[rng.integers(0, shape[0], 50), rng.integers(0, shape[1], 50)] = np.nan
        m[0, :7] = -0.0
        tm = tl.from_numpy(m)
        for f, want in ((lambda: tm.amin(0).numpy(), np.min(m, 0)), (lambda: tm.amax(0).numpy(), np.max(m, 0))):
            one = _at(1, f)
            np.testing.assert_array_equal(one, want)
            for nt in (2, 3, 4):
                got = _at(nt, f)
                assert got.tobytes() == one.tobytes(), (shape, nt)


def _cover(n, grain, nested=False, wake=False):
    counts, woke = tl._C._pool_cover(n, grain, nested, wake)
    return np.frombuffer(counts, dtype=np.int32), woke


@pytest.mark.parametrize("nt", [1, 2, 3, 4])
def test_pool_runs_every_index_exactly_once(threads, nt):
    # tl_parallel_for directly: tiny and large ranges, grains above and below the chunk
    # alignment (chunks of 1024+ indices are rounded to multiples of 64), one chunk, n < grain,
    # with the workers woken whatever the timing says and with the caller's own choice
    tl.set_num_threads(nt)
    sizes = [(1, 1), (2, 1), (3, 2), (7, 1), (64, 1), (100, 7), (1023, 1), (1025, 1), (4097, 1),
             (65 * 1024 + 3, 1), (1_000_003, 1), (1_000_003, 32768), (1_000_003, 999_999), (5, 10), (1 << 20, 1 << 14)]
    for n, grain in sizes:
        for wake in (False, True):
            counts, woke = _cover(n, grain, wake=wake)
            assert counts.min() == 1 and counts.max() == 1, (n, grain, wake)
            if nt == 1 or n <= grain:
                assert woke == 0, (n, grain)
    counts, woke = _cover(0, 1, wake=True)
    assert counts.size == 0 and woke == 0


@pytest.mark.parametrize("nt", [2, 4])
def test_pool_nested_regions_run_serially(threads, nt):
    # a tl_parallel_for inside a chunk runs on that thread and covers its range once
    tl.set_num_threads(nt)
    for n, grain in ((10, 1), (4099, 1), (300_001, 1000)):
        for wake in (False, True):
            counts, _ = _cover(n, grain, nested=True, wake=wake)
            assert counts.min() == 1 and counts.max() == 1, (n, grain, wake)


def test_pool_many_regions_back_to_back(threads):
    # regions in quick succession (a worker may still be arriving from the last wake, or
    # may never arrive before the region ends) and Python threads contending for the pool
    tl.set_num_threads(2)
    for i in range(300):
        counts, _ = _cover(1000 + i * 37, 1 + i % 5, wake=i % 3 == 0)
        assert counts.min() == 1 and counts.max() == 1, i
    errors = []

    def run(k):
        try:
            for i in range(100):
                c, _ = _cover(20_000 + k * 101 + i, 1 + k, wake=bool(i % 2))
                if c.min() != 1 or c.max() != 1:
                    errors.append((k, i))
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    ts = [threading.Thread(target=run, args=(k,)) for k in range(3)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors
    lat, cost, woken = tl._C._pool_stats()
    assert lat >= 0 and cost >= 0 and woken > 0


def test_matmul_identical_across_thread_counts(threads):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((64, 128, 128)).astype(np.float32)
    y = rng.standard_normal((64, 128, 128)).astype(np.float32)
    tx, ty = tl.from_numpy(x), tl.from_numpy(y)
    one = _at(1, lambda: tl.bmm(tx, ty).numpy())
    np.testing.assert_allclose(one, x @ y, rtol=1e-4, atol=1e-3)
    for nt in (2, 3):
        np.testing.assert_array_equal(_at(nt, lambda: tl.bmm(tx, ty).numpy()), one)
    # a single large product (OpenBLAS threads) and the exact integer path
    a = rng.standard_normal((400, 300))
    b = rng.standard_normal((300, 350))
    np.testing.assert_allclose(_at(2, lambda: tl.mm(tl.from_numpy(a), tl.from_numpy(b)).numpy()), a @ b, rtol=1e-12)
    ia = rng.integers(-50, 50, (8, 60, 70))
    ib = rng.integers(-50, 50, (8, 70, 40))
    for nt in (1, 2):
        np.testing.assert_array_equal(_at(nt, lambda: tl.bmm(tl.from_numpy(ia), tl.from_numpy(ib)).numpy()), ia @ ib)


def test_set_num_threads_round_trip(threads):
    for n in (1, 2, 3, 7, 1):
        tl.set_num_threads(n)
        assert tl.get_num_threads() == n
        np.testing.assert_array_equal((tl.arange(200_000) * 2).numpy(), np.arange(200_000) * 2)
    with pytest.raises(RuntimeError):
        tl.set_num_threads(0)
    assert tl.get_num_threads() == 1


def _child_work():
    tl.set_num_threads(2)
    x = tl.arange(1_000_000, dtype=tl.float64)
    ok = float((x + x).sum()) == 999_999.0 * 1_000_000
    a = tl.ones((16, 64, 64))
    ok = ok and bool((tl.bmm(a, a) == 64).all())
    return ok


def _pool_task(i):
    return _child_work() and i >= 0


def test_fork_after_parallel_region(threads):
    tl.set_num_threads(2)
    assert _child_work()  # the parent's workers and OpenBLAS threads exist now
    pid = os.fork()
    if pid == 0:  # child: must not wait on the parent's workers, which do not exist here
        try:
            code = 0 if _child_work() else 1
        except BaseException:
            code = 2
        os._exit(code)
    deadline = time.monotonic() + 60
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            pytest.fail("forked child deadlocked in a parallel region")
        time.sleep(0.02)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    assert _child_work()  # the parent's pool still works


def test_multiprocessing_fork_pool(threads):
    tl.set_num_threads(2)
    assert _child_work()
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(2) as pool:
        res = pool.map_async(_pool_task, range(4))
        assert res.get(timeout=60) == [True] * 4


def test_python_threads_concurrently(threads):
    tl.set_num_threads(2)
    rng = np.random.default_rng(3)
    a = rng.standard_normal(300_001)
    m = rng.standard_normal((8, 96, 96)).astype(np.float32)
    ta, tm = tl.from_numpy(a), tl.from_numpy(m)
    want_sum, want_exp, want_bmm = ta.sum().item(), tl.exp(ta).numpy(), tl.bmm(tm, tm).numpy()
    errors = []

    def run(k):
        try:
            for i in range(15):
                if (i + k) % 3 == 0:
                    assert ta.sum().item() == want_sum
                elif (i + k) % 3 == 1:
                    np.testing.assert_array_equal(tl.exp(ta).numpy(), want_exp)
                else:
                    np.testing.assert_array_equal(tl.bmm(tm, tm).numpy(), want_bmm)
                if k == 0 and i % 5 == 0:
                    tl.set_num_threads(1 + i % 2)
        except BaseException as e:  # reported below
            errors.append(e)

    ts = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(60)
    assert not any(t.is_alive() for t in ts)
    assert not errors, errors
