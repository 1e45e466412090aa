"""The iterator's tiled loop for operands in different layouts (csrc/core/iter_tile.c):
`a + b.T`, `x.T.contiguous()`, casts and copies from transposed or permuted inputs go
through a scratch tile. Results against torch 2.13 and NumPy: every dtype, tile edges
that do not divide the shape, several column parts, negative strides, broadcast and 0-d
operands, permuted 3-D inputs, non-contiguous and aliasing outputs, 1 and 2 threads."""
import numpy as np
import pytest

import tensorlib as tl
from conftest import REGULAR_DTYPE_NAMES, assert_same, make_pair, sample_values, tl_dtype, to_numpy

torch = pytest.importorskip("torch")

# (rows, cols) of the result; b is made (cols, rows) and used as b.T. Edges that do not
# divide the tile's rows (512 bytes of the widest input: 128 float32, 64 float64, 512 bool),
# column counts split into several parts (256 columns per part at most), a 5-row contiguous dim, and one too narrow to tile (5 columns: the plain loop).
SHAPES = [(67, 131), (130, 75), (5, 1001), (64, 64), (70, 1500), (1001, 5)]


class Tiled:
    """Counts the loops that took the tiled path inside the block."""

    def __enter__(self):
        self.start = tl._C._tiled_loops()
        return self

    def __exit__(self, *exc):
        self.count = tl._C._tiled_loops() - self.start


def tiles(shape):
    return shape[1] >= 8 and shape[0] >= 4 and shape[0] * shape[1] >= 4096


@pytest.mark.parametrize("name", REGULAR_DTYPE_NAMES)
@pytest.mark.parametrize("shape", SHAPES)
def test_add_transposed_every_dtype(name, shape):
    a, ta = make_pair(shape, name, 1)
    b, tb = make_pair(shape[::-1], name, 2)
    with Tiled() as t:
        r = a + b.T
    assert_same(r, ta + tb.T)
    assert t.count == tiles(shape)


@pytest.mark.parametrize("name", REGULAR_DTYPE_NAMES)
def test_contiguous_copy_and_cast_of_transposed(name):
    x, tx = make_pair((150, 97), name, 3)
    other = {"float64": "int32", "complex64": "complex128", "complex128": "complex64"}.get(name, "float64")
    dst = tl.empty((97, 150), dtype=x.dtype)
    cast = tl.empty((97, 150), dtype=tl_dtype(other))
    with Tiled() as t:
        r = x.T.contiguous()
        dst.copy_(x.T)
        cast.copy_(x.T)  # a converting copy: the cast loop reads the tile
    assert t.count == 3
    assert_same(r, tx.T.contiguous(), strides=True)
    assert_same(dst, tx.T)
    assert_same(cast, tx.T.to(getattr(torch, other)))
    assert_same(x.T.to(tl_dtype(other)), tx.T.to(getattr(torch, other)))
    # against NumPy too, by value
    np.testing.assert_array_equal(to_numpy(x.T.contiguous()), to_numpy(x).T)


@pytest.mark.parametrize("name", ["float32", "float64", "int64", "complex64"])
def test_mixed_dtypes_read_through_casts(name):
    a, ta = make_pair((90, 110), "float32", 4)
    b, tb = make_pair((110, 90), name, 5)
    with Tiled() as t:
        r1, r2 = a + b.T, b.T * a
    assert t.count == 2
    assert_same(r1, ta + tb.T)
    assert_same(r2, tb.T * ta)


def test_unary_and_ternary_ops():
    x, tx = make_pair((120, 80), "float32", 6)
    y, ty = make_pair((80, 120), "float32", 7)
    z, tz = make_pair((80, 120), "float32", 8)
    assert_same(tl.abs(y.T), torch.abs(ty.T))
    assert_same(tl.where(x > 0, y.T, z.T), torch.where(tx > 0, ty.T, tz.T))
    assert_same(tl.lerp(x, y.T, 0.25), torch.lerp(tx, ty.T, 0.25))


def test_negative_strides():
    """flip copies from a view with negated strides (the only negative strides the iterator
    sees); transposed and sliced sources, and the flipped results read transposed again."""
    base, tbase = make_pair((300, 70), "float32", 9)
    for dims in [(0,), (1,), (0, 1)]:
        r = tl.flip(base[::2].T, dims)
        assert_same(r, torch.flip(tbase[::2].T, dims), strides=True)
        f, tf = tl.flip(base, dims), torch.flip(tbase, dims)
        with Tiled() as t:
            r2 = f.T.contiguous()
        assert t.count == 1
        assert_same(r2, tf.T.contiguous(), strides=True)
    for name in ["float64", "int8", "complex128", "bfloat16"]:
        x, tx = make_pair((200, 40), name, 10)
        assert_same(tl.flip(x[::2].T, (0, 1)), torch.flip(tx[::2].T, (0, 1)))


def test_broadcast_and_zero_d_operands():
    a, ta = make_pair((77, 99), "float64", 11)
    b, tb = make_pair((99, 77), "float64", 12)
    row, trow = make_pair((1, 99), "float64", 13)
    col, tcol = make_pair((77, 1), "float64", 14)
    s, ts = make_pair((), "float64", 15)
    c, tc = make_pair((3, 77, 99), "float64", 16)
    out = [tl.empty((77, 99), dtype=tl.float64) for _ in range(3)]
    with Tiled() as t:
        # a fresh result takes b.T's layout (torch's rule), so contiguous out= tensors make
        # b.T the operand read through tiles next to the broadcast ones
        got = [tl.add(b.T, row, out=out[0]), tl.mul(col, b.T, out=out[1]), tl.sub(s, b.T, out=out[2]),
               tl.addcmul(a, b.T, s), c + b.T[None], b.T.expand(3, 77, 99) - c]
    assert t.count == 6
    want = [tb.T + trow, tcol * tb.T, ts - tb.T, torch.addcmul(ta, tb.T, ts), tc + tb.T[None],
            tb.T.expand(3, 77, 99) - tc]
    for g, w in zip(got, want):
        assert_same(g, w)


@pytest.mark.parametrize("perm", [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)])
@pytest.mark.parametrize("name", ["float32", "int16", "complex128"])
def test_three_d_permutations(perm, name):
    x, tx = make_pair((9, 17, 33), name, 17)
    shape = tuple(x.permute(perm).shape)
    y, ty = make_pair(shape, name, 18)
    assert_same(x.permute(perm) + y, tx.permute(perm) + ty)
    assert_same(y * x.permute(perm), ty * tx.permute(perm))
    assert_same(x.permute(perm).contiguous(), tx.permute(perm).contiguous(), strides=True)
    np.testing.assert_array_equal(to_numpy(x.permute(perm).contiguous()), to_numpy(x).transpose(perm))


def test_non_contiguous_outputs():
    a, ta = make_pair((66, 130), "float32", 19)
    b, tb = make_pair((130, 66), "float32", 20)
    want = ta + tb.T
    every_other = tl.zeros((66, 260))
    out = every_other[:, ::2]
    with Tiled() as t:
        tl.add(a, b.T, out=out)
    assert t.count == 1
    assert_same(out, want)
    assert not every_other[:, 1::2].numpy().any()  # nothing written between
    # a transposed out=: iteration follows it, so a is the operand read in tiles
    out_t = tl.empty((130, 66)).T
    with Tiled() as t:
        tl.add(a, b.T, out=out_t)
    assert t.count == 1
    assert_same(out_t, want)
    # copy into a strided destination
    dst = tl.zeros((130, 132))[:, ::2]
    dst.copy_(a.T)
    assert_same(dst, ta.T)


def test_aliasing_outputs():
    """Outputs that share memory with a transposed input give torch's results (or its
    errors): exact aliases are fine, partial overlaps raise, overlaps torch cannot judge are
    read through a copy."""
    x, tx = make_pair((80, 80), "float32", 21)
    y, ty = make_pair((80, 80), "float32", 22)
    # in-place with the other operand transposed: self is operand 0 and an input
    x2, tx2 = x.clone(), tx.clone()
    with Tiled() as t:
        x2.add_(y.T)
    tx2.add_(ty.T)
    assert t.count == 1
    assert_same(x2, tx2)
    # out= is an exact alias of the transposed input
    xt, txt = x.clone().T, tx.clone().T
    tl.add(xt, y, out=xt)
    torch.add(txt, ty, out=txt)
    assert_same(xt, txt)
    # self and its own transpose: torch refuses the partial overlap
    tx3 = tx.clone()
    with pytest.raises(RuntimeError):
        tx3.add_(tx3.T)
    x3 = x.clone()
    with pytest.raises(RuntimeError):
        x3.add_(x3.T)
    assert_same(x3, tx)  # untouched
    with pytest.raises(RuntimeError):
        x3.copy_(x3.T)
    # rows interleaved in one storage (ranges overlap, elements do not)
    base, tbase = make_pair((80, 160), "float32", 23)
    base[:, :80].copy_(base[:, 80:].T)
    tbase[:, :80].copy_(tbase[:, 80:].T)
    assert_same(base, tbase)
    base2, tbase2 = make_pair((80, 160), "float32", 24)
    tl.mul(base2[:, 80:].T, 2, out=base2[:, :80])
    torch.mul(tbase2[:, 80:].T, 2, out=tbase2[:, :80])
    assert_same(base2, tbase2)


@pytest.mark.parametrize("name", ["float32", "complex128", "bool"])
def test_two_threads(name):
    tl.set_num_threads(2)
    try:
        a, ta = make_pair((301, 257), name, 25)
        b, tb = make_pair((257, 301), name, 26)
        with Tiled() as t:
            r1, r2 = a + b.T, b.T.contiguous()
        assert t.count == 2
        assert_same(r1, ta + tb.T)
        assert_same(r2, tb.T.contiguous())
    finally:
        tl.set_num_threads(1)


def test_small_stays_on_the_plain_loop():
    a, ta = make_pair((20, 30), "float32", 27)
    b, tb = make_pair((30, 20), "float32", 28)
    with Tiled() as t:
        r = a + b.T
    assert t.count == 0
    assert_same(r, ta + tb.T)
    vals = sample_values((64, 64), "float64", 29)
    assert tl.tensor(vals).T.contiguous().numpy().tolist() == vals.T.tolist()


@pytest.mark.parametrize("threads", [1, 2])
def test_large_outputs_stream_whole_lines(threads):
    """Outputs of 32 MiB and more are written through non-temporal stores of their whole
    cache lines (the edges of each row part with plain stores): odd shapes whose rows start
    off a line, an offset output, in-place, float64 and a cast."""
    old = tl.get_num_threads()
    tl.set_num_threads(threads)
    try:
        rng = np.random.default_rng(7)
        a = rng.standard_normal((2897, 2901), dtype=np.float32)
        b = rng.standard_normal((2901, 2897), dtype=np.float32)
        ta, tb = tl.from_numpy(a), tl.from_numpy(b)
        with Tiled() as t:
            r = ta + tb.T
        assert t.count == 1 and r.numel() * 4 >= 32 << 20
        np.testing.assert_array_equal(r.numpy(), a + b.T)
        np.testing.assert_array_equal(tb.T.contiguous().numpy(), b.T)
        big = tl.empty(2897 * 2901 + 3)
        out = big[3:].view(2897, 2901)  # rows start 12 bytes into a line
        tl.add(ta, tb.T, out=out)
        np.testing.assert_array_equal(out.numpy(), a + b.T)
        c = ta.clone()
        c.add_(tb.T)
        np.testing.assert_array_equal(c.numpy(), a + b.T)
        d = rng.standard_normal((2051, 2049))
        np.testing.assert_array_equal(tl.from_numpy(d).T.contiguous().numpy(), d.T)
        np.testing.assert_array_equal(tl.from_numpy(d).T.to(tl.float32).numpy(), d.T.astype(np.float32))
    finally:
        tl.set_num_threads(old)

