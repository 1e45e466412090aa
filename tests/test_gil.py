"""The GIL is released around long work (matrix products, sorts, copies, elementwise ops with
a fresh result, above 2**15 input elements): another Python thread runs meanwhile, the
inputs' storages stay alive and cannot be resized or re-pointed (set_) until the op ends, and
ops running at once in several threads give the results they give alone."""
import threading
import time

import numpy as np

import tensorlib as tl


def _during(long_call):
    """Runs long_call in this thread while another counts how often it ran during the call."""
    state = {"in_call": False, "stop": False, "ticks": 0}

    def ticker():
        while not state["stop"]:
            if state["in_call"]:
                state["ticks"] += 1
            time.sleep(0.0001)  # short: on a fast machine the long calls last a few ms

    th = threading.Thread(target=ticker)
    th.start()
    try:
        time.sleep(0.01)
        state["in_call"] = True
        out = long_call()
        state["in_call"] = False
    finally:
        state["stop"] = True
        th.join()
    return out, state["ticks"]


def test_another_thread_runs_during_a_long_matmul():
    a = tl.randn(1500, 1500, dtype=tl.float64, generator=tl.Generator().manual_seed(0))
    r, ticks = _during(lambda: a @ a)  # one call: holding the GIL, the ticker would not run during it
    assert ticks > 5
    np.testing.assert_allclose(r.numpy(), a.numpy() @ a.numpy(), rtol=1e-12)


def test_another_thread_runs_during_long_sorts_and_copies():
    x = tl.randn(4_000_000, generator=tl.Generator().manual_seed(1))
    # large enough that each call lasts several ms even with the fast kernels (the transposes
    # stream their 64 MB outputs), so a loaded machine still shows the other thread running
    m = tl.randn(4096, 4096, generator=tl.Generator().manual_seed(1))
    for call in (lambda: x.sort()[0], lambda: m.sin(), lambda: m.mT.contiguous(), lambda: m.mT.to(tl.float64)):
        r, ticks = _during(call)
        assert ticks > 2
    np.testing.assert_array_equal(r.numpy(), m.numpy().T.astype(np.float64))


def test_storage_pinned_while_released():
    """set_ and resize_ of any tensor of a storage an op reads without the GIL are refused."""
    a = tl.randn(900, 900, dtype=tl.float64, generator=tl.Generator().manual_seed(2))
    want = (a @ a).numpy()
    refused, tried = [], [0]
    stop = threading.Event()

    def meddler():
        while not stop.is_set():
            tried[0] += 1
            try:
                a.view(-1).set_(tl.zeros(3, dtype=tl.float64))   # a view: a itself keeps its storage
                a.view(-1)[:1].resize_(10 ** 7)                     # would reallocate a's storage
            except RuntimeError as e:
                refused.append(str(e))

    th = threading.Thread(target=meddler)
    th.start()
    try:
        results = [a @ a for _ in range(6)]
    finally:
        stop.set()
        th.join()
    assert refused and all("export" in m for m in refused)
    for r in results:
        np.testing.assert_allclose(r.numpy(), want, rtol=1e-12)
    a.view(-1).set_(tl.zeros(3, dtype=tl.float64))  # and allowed again afterwards
    np.testing.assert_allclose((a @ a).numpy(), want, rtol=1e-12)


def test_concurrent_ops_match_serial_results():
    g = tl.Generator().manual_seed(3)
    xs = [tl.randn(300_000, generator=g) for _ in range(4)]
    ms = [tl.randn(300, 300, generator=g) for _ in range(4)]

    def work(i):
        x, m = xs[i], ms[i]
        return [(x * 2 + 1).sin(), x.sort()[0], m @ m, m.mT.contiguous(), tl.addmm(m, m, m)]

    serial = [work(i) for i in range(4)]
    got = [None] * 4

    def run(i):
        for _ in range(3):
            got[i] = work(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s, c in zip(serial, got):
        for u, v in zip(s, c):
            assert u.numpy().tobytes() == v.numpy().tobytes()


def test_set_default_dtype_while_ops_run_without_the_gil():
    # Ops with a fresh result read the default float dtype after releasing the GIL; one op
    # sees one value (pinned when it released the GIL), whatever another thread sets meanwhile.
    x = tl.arange(1 << 16)  # int64, above the size at which the GIL is released
    want = x.numpy() * 0.5
    bad = []

    def run():
        for _ in range(40):
            for r in (x * 0.5, x / 2, (x + 0.5) * 0.5 - 0.25):  # exact in float32 and float64
                a = r.numpy()
                if r.dtype not in (tl.float32, tl.float64) or not np.array_equal(a, want.astype(a.dtype)):
                    bad.append(r.dtype)

    try:
        threads = [threading.Thread(target=run) for _ in range(2)]
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads):
            tl.set_default_dtype(tl.float64)
            tl.set_default_dtype(tl.float32)
        for t in threads:
            t.join()
    finally:
        tl.set_default_dtype(tl.float32)
    assert bad == []
