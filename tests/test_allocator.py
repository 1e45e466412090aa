"""The CPU allocator's reuse of freed blocks (small size classes, large cached blocks):
a reused block never leaks old values into zeroed results and never aliases a live one."""
import gc

import numpy as np

import tensorlib as tl


def test_zeroed_results_after_reuse_small_and_large():
    for n in (1, 3, 16, 17, 64, 255, 256, 1 << 20):
        for _ in range(3):
            x = tl.full((n,), 7.5)
            del x
            gc.collect()
            z = tl.zeros(n)
            assert not z.numpy().any(), n
            e = tl.zeros(n, dtype=tl.int8)
            assert not e.numpy().any(), n


def test_live_small_tensors_keep_their_values_while_others_are_freed():
    rng = np.random.default_rng(0)
    live = []
    for step in range(3000):
        n = int(rng.integers(0, 300))
        a = rng.standard_normal(n).astype(np.float32)
        t = tl.from_numpy(a).clone()  # a fresh block from the allocator
        live.append((t, a))
        if len(live) > 50:
            live.pop(int(rng.integers(0, len(live))))  # free one at random
        if step % 500 == 0:
            for t, a in live:
                np.testing.assert_array_equal(t.numpy(), a)
    ptrs = [t.data_ptr() for t, _ in live if t.numel()]
    assert len(ptrs) == len(set(ptrs))  # no two live tensors share a block
    for t, a in live:
        np.testing.assert_array_equal(t.numpy(), a)


def test_small_results_are_64_byte_aligned():
    for n in (1, 5, 16, 40, 200):
        for _ in range(20):
            assert (tl.ones(n) + 1).data_ptr() % 64 == 0


def test_large_block_cache_evicts_oldest_and_never_aliases():
    """More large sizes than the cache keeps (8 blocks, 256 MB): freed blocks push out the
    oldest; live large tensors keep their values and zeros stay zero throughout."""
    rng = np.random.default_rng(1)
    sizes = [(1 << 20) * k + 4096 * k for k in range(2, 14)]  # 8-52 MB of float32
    live = []
    for step in range(60):
        n = sizes[int(rng.integers(0, len(sizes)))]
        t = tl.full((n,), float(step))
        live.append((t, float(step)))
        if len(live) > 3:
            live.pop(int(rng.integers(0, len(live))))
        z = tl.zeros(n)
        assert not z.numpy().any()
        for u, v in live:
            assert u[0].item() == v and u[-1].item() == v
