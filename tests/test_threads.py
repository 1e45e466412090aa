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
