"""Matrix products against NumPy and torch 2.13: shapes of every matmul rank combination,
batch broadcasting, transposed and strided operands, dtypes, errors, names, out=."""
import itertools
import warnings

import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(0)

NP_DTYPES = {tl.float32: np.float32, tl.float64: np.float64, tl.complex64: np.complex64,
             tl.complex128: np.complex128, tl.int64: np.int64, tl.int32: np.int32, tl.int16: np.int16,
             tl.int8: np.int8, tl.uint8: np.uint8}
TORCH_DTYPES = {tl.float32: torch.float32, tl.float64: torch.float64, tl.complex64: torch.complex64,
                tl.complex128: torch.complex128, tl.int64: torch.int64, tl.int32: torch.int32,
                tl.int16: torch.int16, tl.int8: torch.int8, tl.uint8: torch.uint8, tl.float16: torch.float16,
                tl.bfloat16: torch.bfloat16}


def arr(shape, dtype=np.float64):
    if np.issubdtype(dtype, np.integer):
        return RNG.integers(-5 if np.issubdtype(dtype, np.signedinteger) else 0, 6, size=shape).astype(dtype)
    a = RNG.standard_normal(shape)
    if np.issubdtype(dtype, np.complexfloating):
        a = a + 1j * RNG.standard_normal(shape)
    return a.astype(dtype)


def tol(dtype):
    return {np.float32: 1e-4, np.complex64: 1e-4}.get(dtype, 1e-10)


def check(res, expected, dtype=np.float64):
    r = res.numpy()
    assert r.shape == expected.shape
    assert r.dtype == expected.dtype
    if np.issubdtype(expected.dtype, np.integer):
        np.testing.assert_array_equal(r, expected)
    else:
        np.testing.assert_allclose(r, expected, rtol=tol(dtype), atol=tol(dtype))


SHAPES = [(3,), (2, 3), (4, 2, 3), (2, 1, 2, 3), (1, 3)]


@pytest.mark.parametrize("sa,sb", [(a, b) for a in SHAPES for b in [(3,), (3, 4), (2, 3, 4), (5, 1, 3, 4), (1, 3, 2)]])
def test_matmul_rank_combinations(sa, sb):
    a, b = arr(sa), arr(sb)
    try:
        expected = np.matmul(a, b)
    except ValueError:
        _err(lambda: torch.matmul(torch.from_numpy(a), torch.from_numpy(b)),
             lambda: tl.matmul(tl.from_numpy(a), tl.from_numpy(b)))
        return
    check(tl.matmul(tl.from_numpy(a), tl.from_numpy(b)), expected)
    check(tl.from_numpy(a) @ tl.from_numpy(b), np.matmul(a, b))


@pytest.mark.parametrize("dtype", list(NP_DTYPES))
def test_mm_dtypes(dtype):
    nd = NP_DTYPES[dtype]
    a, b = arr((5, 7), nd), arr((7, 3), nd)
    expected = torch.mm(torch.from_numpy(a), torch.from_numpy(b)).numpy()
    check(tl.mm(tl.from_numpy(a), tl.from_numpy(b)), expected, nd)


def test_integer_matmul_exact_and_wraps():
    a = np.full((2, 300), 100, np.int8)
    b = np.full((300, 2), 3, np.int8)
    r = tl.mm(tl.from_numpy(a), tl.from_numpy(b)).numpy()
    np.testing.assert_array_equal(r, torch.mm(torch.from_numpy(a), torch.from_numpy(b)).numpy())
    big = np.array([[2**40, 3]], np.int64)
    np.testing.assert_array_equal(tl.mm(tl.from_numpy(big), tl.from_numpy(big.T.copy())).numpy(), big @ big.T)


@pytest.mark.parametrize("dtype", [tl.float16, tl.bfloat16])
def test_half_matmul_fp32_accumulation(dtype):
    a, b = arr((4, 64), np.float32), arr((64, 5), np.float32)
    ta, tb = torch.from_numpy(a).to(TORCH_DTYPES[dtype]), torch.from_numpy(b).to(TORCH_DTYPES[dtype])
    expected = torch.mm(ta, tb).float().numpy()
    r = tl.mm(tl.from_numpy(a).to(dtype), tl.from_numpy(b).to(dtype))
    assert r.dtype == dtype
    np.testing.assert_allclose(r.float().numpy(), expected, rtol=2e-2, atol=2e-2)


@pytest.mark.parametrize("layout_a,layout_b", itertools.product(["c", "t", "step", "neg"], repeat=2))
def test_strided_and_transposed_operands(layout_a, layout_b):
    def make(shape, layout):
        base = arr(shape)
        if layout == "c":
            return base, tl.from_numpy(base)
        if layout == "t":
            x = tl.from_numpy(base.T.copy()).t()
            return base, x
        if layout == "step":
            big = arr((shape[0] * 2, shape[1] * 3))
            return big[::2, ::3], tl.from_numpy(big)[::2, ::3]
        flipped = np.ascontiguousarray(base[::-1])  # negative strides copied in
        return flipped, tl.from_numpy(flipped)
    a, ta = make((6, 5), layout_a)
    b, tb = make((5, 4), layout_b)
    check(tl.mm(ta, tb), a @ b)
    check(tl.matmul(ta.unsqueeze(0).expand(3, 6, 5), tb), np.matmul(np.broadcast_to(a, (3, 6, 5)), b))


def test_transposed_batches_and_broadcast_operands():
    a, b, c = arr((3, 4, 5)), arr((3, 6, 5)), arr((1, 5, 2))
    check(tl.bmm(tl.from_numpy(a), tl.from_numpy(b).transpose(1, 2)), a @ b.transpose(0, 2, 1))
    check(tl.matmul(tl.from_numpy(a).transpose(0, 1), tl.from_numpy(c)), np.matmul(a.transpose(1, 0, 2), c))
    check(tl.matmul(tl.from_numpy(a), tl.from_numpy(b).transpose(1, 2)[:, :, ::2]), a @ b.transpose(0, 2, 1)[:, :, ::2])


@pytest.mark.parametrize("fn", ["mm", "bmm", "mv", "dot", "vdot", "matmul", "outer", "inner"])
def test_empty_and_zero_k(fn):
    shapes = {"mm": ((0, 3), (3, 2)), "bmm": ((2, 3, 0), (2, 0, 4)), "mv": ((3, 0), (0,)), "dot": ((0,), (0,)),
              "vdot": ((0,), (0,)), "matmul": ((2, 0, 3), (3, 4)), "outer": ((0,), (3,)), "inner": ((2, 0), (3, 0))}
    sa, sb = shapes[fn]
    a, b = np.zeros(sa), np.zeros(sb)
    expected = getattr(torch, fn)(torch.from_numpy(a), torch.from_numpy(b)).numpy()
    check(getattr(tl, fn)(tl.from_numpy(a), tl.from_numpy(b)), expected)


def test_vectors():
    a, b = arr((7,), np.complex128), arr((7,), np.complex128)
    check(tl.dot(tl.from_numpy(a), tl.from_numpy(b)), np.array(np.dot(a, b)))
    check(tl.vdot(tl.from_numpy(a), tl.from_numpy(b)), np.array(np.vdot(a, b)))
    m, v = arr((4, 7)), arr((7,))
    check(tl.mv(tl.from_numpy(m), tl.from_numpy(v)), m @ v)
    check(tl.from_numpy(m).mv(tl.from_numpy(v)), m @ v)
    check(tl.outer(tl.from_numpy(v), tl.from_numpy(v[:3])), np.outer(v, v[:3]))
    check(tl.ger(tl.from_numpy(v), tl.from_numpy(v[:3])), np.outer(v, v[:3]))
    i = np.arange(3)
    check(tl.outer(tl.from_numpy(v[:3].astype(np.float32)), tl.from_numpy(i)),
          torch.outer(torch.from_numpy(v[:3].astype(np.float32)), torch.from_numpy(i)).numpy(), np.float32)


@pytest.mark.parametrize("beta,alpha", [(1, 1), (0.5, 2.0), (0, 1), (2, 0)])
def test_add_products(beta, alpha):
    def both(name, *arrays):
        ours = getattr(tl, name)(*[tl.from_numpy(x) for x in arrays], beta=beta, alpha=alpha)
        theirs = getattr(torch, name)(*[torch.from_numpy(x) for x in arrays], beta=beta, alpha=alpha)
        check(ours, theirs.numpy())
    both("addmm", arr((1, 4)), arr((3, 5)), arr((5, 4)))
    both("addmv", arr((3,)), arr((3, 5)), arr((5,)))
    both("addr", arr((3, 1)), arr((3,)), arr((2,)))
    both("baddbmm", arr((4,)), arr((2, 3, 5)), arr((2, 5, 4)))
    both("addbmm", arr((3, 4)), arr((2, 3, 5)), arr((2, 5, 4)))


def test_beta_zero_ignores_nan():
    inp = np.full((2, 2), np.nan)
    r = tl.addmm(tl.from_numpy(inp), tl.from_numpy(np.eye(2)), tl.from_numpy(np.eye(2)), beta=0)
    np.testing.assert_array_equal(r.numpy(), np.eye(2))


def test_inplace_methods():
    c = arr((3, 4))
    x = tl.from_numpy(c.copy())
    r = x.addmm_(tl.from_numpy(arr((3, 2))), tl.from_numpy(arr((2, 4))))
    assert r is x
    y = tl.from_numpy(arr((3, 3)))
    y0 = y.numpy().copy()
    y @= tl.from_numpy(np.eye(3))
    np.testing.assert_allclose(y.numpy(), y0)


def _err(fn_t, fn_l):
    with pytest.raises(Exception) as et:
        fn_t()
    with pytest.raises(type(et.value)) as el:
        fn_l()
    assert str(el.value) == str(et.value), (str(el.value), str(et.value))


ERROR_CASES = [
    ("mm", [(2, 3), (4, 5)]), ("mm", [(2, 3), (3,)]), ("mm", [(3,), (3, 2)]),
    ("matmul", [(2, 3), (4,)]), ("matmul", [(4,), (2, 3)]), ("matmul", [(2, 2, 3), (3, 4, 5)]),
    ("matmul", [(2, 2, 3), (2, 4, 5)]), ("matmul", [(2, 2, 3), (4, 5)]), ("matmul", [(2, 2, 3), (4,)]),
    ("matmul", [(3,), (2, 4, 5)]), ("matmul", [(), (3,)]), ("matmul", [(4,), (3,)]),
    ("bmm", [(2, 3), (2, 3, 4)]), ("bmm", [(2, 2, 3), (3, 3, 5)]), ("bmm", [(2, 2, 3), (2, 4, 5)]),
    ("mv", [(2, 3), (4,)]), ("mv", [(2, 3), (3, 1)]), ("dot", [(3,), (4,)]), ("dot", [(3, 1), (3,)]),
    ("vdot", [(3,), (4,)]), ("outer", [(3,), (3, 1)]), ("inner", [(3, 2), (3,)]),
    ("tensordot", [(2, 3), (4, 5)]), ("addmm", [(3, 3), (2, 3), (3, 5)]), ("addmv", [(3,), (2, 3), (3,)]),
    ("addmv", [(2, 2), (2, 3), (3,)]), ("baddbmm", [(2, 3), (2, 2, 3), (2, 4, 3)]),
    ("addbmm", [(2, 3), (2, 2, 3), (3, 3, 3)]), ("addbmm", [(2, 3), (2, 2, 3), (2, 4, 3)]),
    ("addr", [(2, 3), (2,), (4,)]), ("addr", [(2, 3), (2, 1), (3,)]),
]


@pytest.mark.parametrize("name,shapes", ERROR_CASES)
def test_shape_errors_match_torch(name, shapes):
    arrays = [arr(s) if s else np.array(1.0) for s in shapes]
    args = (1,) if name == "tensordot" else ()
    _err(lambda: getattr(torch, name)(*[torch.from_numpy(a) for a in arrays], *args),
         lambda: getattr(tl, name)(*[tl.from_numpy(a) for a in arrays], *args))


@pytest.mark.parametrize("name,shapes", [("mm", [(2, 3), (3, 4)]), ("matmul", [(2, 3), (3, 4)]),
                                         ("matmul", [(2, 2, 3), (2, 3, 4)]), ("bmm", [(2, 2, 3), (2, 3, 4)]),
                                         ("mv", [(2, 3), (3,)]), ("dot", [(3,), (3,)]),
                                         ("addmm", [(2, 4), (2, 3), (3, 4)]), ("baddbmm", [(2, 2, 4), (2, 2, 3), (2, 3, 4)])])
def test_dtype_mismatch_errors(name, shapes):
    arrays = [arr(s) for s in shapes]
    arrays[-1] = arrays[-1].astype(np.float32)
    _err(lambda: getattr(torch, name)(*[torch.from_numpy(a) for a in arrays]),
         lambda: getattr(tl, name)(*[tl.from_numpy(a) for a in arrays]))


@pytest.mark.parametrize("name,dims", [("mm", [2, 2]), ("bmm", [3, 3]), ("mv", [2, 1]), ("dot", [1, 1]),
                                       ("matmul", [3, 3])])
def test_bool_not_implemented(name, dims):
    shapes = {1: (2,), 2: (2, 2), 3: (2, 2, 2)}
    _err(lambda: getattr(torch, name)(*[torch.ones(shapes[d], dtype=torch.bool) for d in dims]),
         lambda: getattr(tl, name)(*[tl.ones(*shapes[d], dtype=tl.bool) for d in dims]))


def test_out_semantics():
    a, b = arr((2, 3)), arr((3, 5))
    out = tl.empty(2, 5, dtype=tl.float64)
    r = tl.mm(tl.from_numpy(a), tl.from_numpy(b), out=out)
    assert r is out
    check(out, a @ b)
    _err(lambda: torch.mm(torch.from_numpy(a), torch.from_numpy(b), out=torch.empty(2, 5)),
         lambda: tl.mm(tl.from_numpy(a), tl.from_numpy(b), out=tl.empty(2, 5)))
    out = tl.empty(3, 3, dtype=tl.float64)
    with pytest.warns(UserWarning, match="resized"):
        tl.mm(tl.from_numpy(a), tl.from_numpy(b), out=out)
    assert tuple(out.shape) == (2, 5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = tl.empty(0, dtype=tl.float64)
        tl.matmul(tl.from_numpy(a), tl.from_numpy(b), out=out)
    check(out, a @ b)


def test_names_contract_away():
    x = tl.zeros(3, 3, names=("N", "D"))
    y = tl.zeros(3, 3, names=("in", "out"))
    assert x.mm(y).names == ("N", "out")
    assert x.mv(tl.zeros(3, names=("something",))).names == ("N",)
    x4 = tl.zeros(3, 3, 3, 3, names=("A", "B", "C", "D"))
    y3 = tl.zeros(3, 3, 3, names=("B", "E", "F"))
    assert tl.matmul(x4, y3).names == ("A", "B", "C", "F")
    assert tl.matmul(x4, tl.zeros(3)).names == ("A", "B", "C")
    assert tl.bmm(tl.zeros(2, 3, 4, names=("B", "M", None)), tl.zeros(2, 4, 5)).names == ("B", "M", None)
    assert tl.addmm(tl.zeros(3, 3, names=(None, "out")), x, y).names == ("N", "out")
    assert tl.dot(tl.zeros(3, names=("a",)), tl.zeros(3, names=("b",))).names == ()


def test_names_batch_mismatch_and_unsupported():
    with pytest.raises(RuntimeError, match="do not match"):
        tl.matmul(tl.zeros(2, 3, 3, names=("A", None, None)), tl.zeros(2, 3, 3, names=("B", None, None)))
    with pytest.raises(RuntimeError, match="named tensors"):
        tl.einsum("ij,jk", tl.zeros(2, 2, names=("a", "b")), tl.zeros(2, 2))
    assert tl.outer(tl.zeros(2, names=("a",)), tl.zeros(2)).names == ("a", None)  # outer has a rule now


EINSUM = [("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,jk", [(3, 4), (4, 5)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
          ("ii->i", [(4, 4)]), ("ii", [(4, 4)]), ("ij->ji", [(3, 4)]), ("ij->", [(3, 4)]), ("i,i->", [(5,), (5,)]),
          ("i,j->ij", [(3,), (4,)]), ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)]), ("bhqd,bhkd->bhqk", [(2, 3, 4, 5), (2, 3, 6, 5)]),
          ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]), ("iij->j", [(3, 3, 4)]), ("ijk->kj", [(2, 3, 4)]),
          ("i...->...", [(3, 4, 5)]), ("ab,ab->a", [(3, 4), (3, 4)]), ("ij,ij,ij->", [(2, 3)] * 3),
          ("aBc,cD->aBD", [(2, 3, 4), (4, 5)])]


@pytest.mark.parametrize("eq,shapes", EINSUM)
def test_einsum_against_numpy(eq, shapes):
    arrays = [arr(s) for s in shapes]
    check(tl.einsum(eq, *[tl.from_numpy(a) for a in arrays]), np.asarray(np.einsum(eq, *arrays)))


def test_einsum_errors():
    a, b = arr((2, 3)), arr((4, 5))
    _err(lambda: torch.einsum("ij,jk->ik", torch.from_numpy(a), torch.from_numpy(b)),
         lambda: tl.einsum("ij,jk->ik", tl.from_numpy(a), tl.from_numpy(b)))


@pytest.mark.parametrize("sa,sb,dims", [((3, 4), (5, 2), 0), ((3, 4, 5), (5, 2), 1), ((3, 4, 5), (4, 5, 2), 2),
                                         ((3, 4, 5), (4, 3, 2), ([1, 0], [0, 1])), ((3, 4, 5), (5, 2), ([2], [0])),
                                         ((3, 4, 5), (5, 3, 2), ([0, 2], [1, 0]))])
def test_tensordot_against_numpy(sa, sb, dims):
    a, b = arr(sa), arr(sb)
    check(tl.tensordot(tl.from_numpy(a), tl.from_numpy(b), dims), np.tensordot(a, b, dims))


def test_inner_against_numpy():
    a, b = arr((2, 3, 4)), arr((5, 4))
    check(tl.inner(tl.from_numpy(a), tl.from_numpy(b)), np.inner(a, b))
    check(tl.inner(tl.from_numpy(np.array(2.0)), tl.from_numpy(b)), 2.0 * b)


def test_large_gemm_and_threads():
    a, b = arr((300, 200), np.float32), arr((200, 250), np.float32)
    x, y = arr((64, 20, 30)), arr((64, 30, 10))
    n = tl.get_num_threads()
    try:
        for t in (1, 2):
            tl.set_num_threads(t)
            check(tl.mm(tl.from_numpy(a), tl.from_numpy(b)), a @ b, np.float32)
            check(tl.bmm(tl.from_numpy(x), tl.from_numpy(y)), x @ y)
    finally:
        tl.set_num_threads(n)


@pytest.mark.parametrize("eq,shapes", [("ii", [(3, 3)]), ("ij->", [(3, 3)]), ("ij->j", [(2, 3)]), ("ii->i", [(3, 3)]),
                                       ("ij,jk->", [(2, 3), (3, 4)]), ("ij,k->i", [(2, 3), (4,)]),
                                       ("ij,kl->", [(2, 3), (2, 2)]), ("ij,jk->ik", [(2, 3), (3, 4)])])
@pytest.mark.parametrize("dt", ["int32", "int8", "bool", "float16"])
def test_einsum_integer_dtypes_like_torch(eq, shapes, dt):
    """Dims summed out of one operand go through sum (int64 for bool/ints); kept dims keep the dtype."""
    g = np.random.default_rng(len(eq))
    xs = [g.integers(0, 3, size=s) for s in shapes]
    ours = [tl.tensor(x.tolist(), dtype=getattr(tl, dt)) for x in xs]
    ref = [torch.tensor(x.tolist(), dtype=getattr(torch, dt)) for x in xs]
    try:
        want = torch.einsum(eq, *ref)
    except (RuntimeError, NotImplementedError) as e:
        with pytest.raises(type(e)):
            tl.einsum(eq, *ours)
        return
    got = tl.einsum(eq, *ours)
    assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]
    np.testing.assert_array_equal(got.numpy().astype(np.float64), want.numpy().astype(np.float64))


@pytest.mark.parametrize("fn,shapes", [("mm", [(0, 3), (3, 2)]), ("mm", [(2, 0), (0, 2)]), ("mv", [(2, 0), (0,)]),
                                       ("bmm", [(1, 2, 0), (1, 0, 2)]), ("bmm", [(0, 2, 3), (0, 3, 2)]),
                                       ("matmul", [(2, 0), (0,)]), ("matmul", [(3, 2, 0), (0, 2)]),
                                       ("mm", [(2, 2), (2, 2)]), ("dot", [(0,), (0,)])])
@pytest.mark.parametrize("dt", ["bool", "uint16"])
def test_products_with_an_empty_operand_skip_the_dtype_check(fn, shapes, dt):
    """torch fills the empty-sum result before its dtype dispatch: bool/uint16 products with an
    empty operand return zeros; non-empty ones (and dot) still raise its NotImplementedError."""
    ours = [tl.ones(*s, dtype=getattr(tl, dt)) for s in shapes]
    ref = [torch.ones(*s, dtype=getattr(torch, dt)) for s in shapes]
    try:
        want = getattr(torch, fn)(*ref)
    except (RuntimeError, NotImplementedError) as e:
        with pytest.raises(type(e), match=str(e)[:20].replace("(", r"\(").replace('"', '.')):
            getattr(tl, fn)(*ours)
        return
    got = getattr(tl, fn)(*ours)
    assert tuple(got.shape) == tuple(want.shape) and got.dtype == getattr(tl, dt)
    assert not got.to(tl.int64).numpy().any()
