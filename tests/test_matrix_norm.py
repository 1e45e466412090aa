"""linalg.svdvals, linalg.matrix_norm and norm(p='nuc') against torch 2.13 and NumPy:
every order, dtypes float32/float64/complex64/complex128, batches, dim pairs in any order,
keepdim, dtype=, non-contiguous inputs, empty matrices, errors and messages."""
import math

import numpy as np
import pytest

import tensorlib as tl

torch = pytest.importorskip("torch")

ORDS = ["fro", "nuc", 2, -2, 1, -1, math.inf, -math.inf]
DTYPES = ["float32", "float64", "complex64", "complex128"]
TOL = {"float32": 2e-5, "complex64": 2e-5, "float64": 1e-12, "complex128": 1e-12}


def make(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        a = a + 1j * rng.standard_normal(shape)
    a = np.ascontiguousarray(a.astype(dtype))
    return tl.from_numpy(a.copy()), torch.from_numpy(a.copy())


def close(r, e, dtype):
    assert str(r.dtype).split(".")[-1] == str(e.dtype).split(".")[-1], (r.dtype, e.dtype)
    assert tuple(r.shape) == tuple(e.shape), (tuple(r.shape), tuple(e.shape))
    np.testing.assert_allclose(r.numpy(), e.numpy(), rtol=TOL[dtype], atol=TOL[dtype])


def raises_like(fx, ft):
    with pytest.raises(Exception) as te:
        ft()
    with pytest.raises(type(te.value) if type(te.value).__name__ != "_LinAlgError" else tl.linalg.LinAlgError) as xe:
        fx()
    assert str(xe.value) == str(te.value)


@pytest.mark.parametrize("dt", DTYPES)
def test_svdvals(dt):
    for shape in [(4, 4), (5, 3), (3, 5), (2, 3, 6, 4), (1, 1), (7, 1)]:
        a, t = make(shape, dt)
        close(tl.linalg.svdvals(a), torch.linalg.svdvals(t), dt)
        np.testing.assert_allclose(tl.linalg.svdvals(a).numpy(), np.linalg.svd(a.numpy(), compute_uv=False),
                                   rtol=TOL[dt] * 10, atol=TOL[dt] * 10)
    a, t = make((6, 5, 4), dt, seed=1)
    close(tl.linalg.svdvals(a.transpose(0, 2)), torch.linalg.svdvals(t.transpose(0, 2)), dt)
    close(tl.linalg.svdvals(a[::2, 1::2]), torch.linalg.svdvals(t[::2, 1::2]), dt)
    for shape in [(0, 3), (3, 0), (2, 0, 3), (0, 2, 2)]:
        close(tl.linalg.svdvals(tl.zeros(shape, dtype=getattr(tl, dt))),
              torch.linalg.svdvals(torch.zeros(shape, dtype=getattr(torch, dt))), dt)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("ord", ORDS)
def test_matrix_norm(dt, ord):
    for shape, dim in [((4, 5), (-2, -1)), ((5, 4), (1, 0)), ((3, 4, 5), (0, 2)), ((3, 4, 5), (2, 0)),
                       ((2, 3, 4, 5), (1, -1)), ((3, 3), (0, 1))]:
        a, t = make(shape, dt, seed=len(shape))
        for keepdim in (False, True):
            close(tl.linalg.matrix_norm(a, ord, dim, keepdim), torch.linalg.matrix_norm(t, ord, dim, keepdim), dt)
        close(tl.linalg.matrix_norm(a.mT, ord), torch.linalg.matrix_norm(t.mT, ord), dt)
    a, t = make((4, 6), dt, seed=9)
    ref = np.linalg.norm(a.numpy().astype(np.complex128 if dt.startswith("complex") else np.float64), ord)
    np.testing.assert_allclose(tl.linalg.matrix_norm(a, ord).item(), ref, rtol=TOL[dt] * 10)
    wide = "complex128" if dt.startswith("complex") else "float64"
    close(tl.linalg.matrix_norm(a, ord, dtype=getattr(tl, wide)),
          torch.linalg.matrix_norm(t, ord, dtype=getattr(torch, wide)), dt)


@pytest.mark.parametrize("ord", ORDS)
def test_matrix_norm_empty(ord):
    for shape, dim in [((0, 3), (-2, -1)), ((3, 0), (-2, -1)), ((2, 0, 3), (0, 2)), ((0, 3, 3), (-2, -1))]:
        for keepdim in (False, True):
            a, t = tl.zeros(shape), torch.zeros(shape)
            try:
                e = torch.linalg.matrix_norm(t, ord, dim, keepdim)
            except Exception:  # noqa: BLE001
                raises_like(lambda: tl.linalg.matrix_norm(a, ord, dim, keepdim),
                            lambda: torch.linalg.matrix_norm(t, ord, dim, keepdim))
                continue
            close(tl.linalg.matrix_norm(a, ord, dim, keepdim), e, "float32")


def test_norm_nuc_and_fro_matrix_paths():
    a, t = make((3, 4, 5), "float64", seed=3)
    for kw in ({"dim": (0, 2)}, {"dim": (2, 1), "keepdim": True}, {"dim": [0, 1]}):
        close(tl.norm(a, p="nuc", **kw), torch.norm(t, p="nuc", **kw), "float64")
        close(a.norm(p="nuc", **kw), t.norm(p="nuc", **kw), "float64")
    close(tl.norm(a[0], p="nuc"), torch.norm(t[0], p="nuc"), "float64")
    a32, t32 = make((4, 5), "float32")
    close(tl.norm(a32, p="nuc", dtype=tl.float64), torch.norm(t32, p="nuc", dtype=torch.float64), "float64")
    # p=2 with two dims stays torch.norm's vector 2-norm
    close(tl.norm(a, p=2, dim=(0, 1)), torch.norm(t, p=2, dim=(0, 1)), "float64")
    for p, kw in (("nuc", {}), ("fro", {"dim": (0, 1, 2)}), ("abc", {}), ("nuc", {"dim": 0}),
                  ("nuc", {"dim": (1, 1)}), ("nuc", {"dim": (0, 3)})):
        raises_like(lambda: tl.norm(a, p=p, **kw), lambda: torch.norm(t, p=p, **kw))
    out, tout = tl.empty(0, dtype=tl.float64), torch.empty(0, dtype=torch.float64)
    close(tl.norm(a[0], p="nuc", out=out), torch.norm(t[0], p="nuc", out=tout), "float64")
    close(out, tout, "float64")


def test_matrix_norm_errors():
    f, tf = tl.ones(3, 3), torch.ones(3, 3)
    cases = [
        (lambda m: m.linalg.matrix_norm(m.ones(3)),),
        (lambda m: m.linalg.matrix_norm(m.ones(3, 3, dtype=m.int64)),),
        (lambda m: m.linalg.matrix_norm(m.ones(3, 3, dtype=m.int64), "nuc"),),
        (lambda m: m.linalg.matrix_norm(m.ones(3, 3), 3),),
        (lambda m: m.linalg.matrix_norm(m.ones(3, 3), 2.5),),
        (lambda m: m.linalg.matrix_norm(m.ones(3, 3), "abc"),),
        (lambda m: m.linalg.matrix_norm(m.ones(3, 3), 2, dim=(0,)),),
        (lambda m: m.linalg.matrix_norm(m.ones(3, 3), 2, dim=(0, 3)),),
        (lambda m: m.linalg.matrix_norm(m.ones(3, 3), 2, dim=(0, -2)),),
        (lambda m: m.linalg.matrix_norm(m.ones(3, 3, dtype=m.float16), "nuc"),),
        (lambda m: m.linalg.matrix_norm(m.ones(3, 3, dtype=m.bfloat16), 2),),
        (lambda m: m.linalg.matrix_norm(m.ones(3, 3, dtype=m.complex64), 2, dtype=m.float64),),
        (lambda m: m.linalg.matrix_norm(m.ones(3, 3), 2, dtype=m.float16),),
        (lambda m: m.linalg.matrix_norm(m.ones(3, 3), 2, dtype=m.int64),),
        (lambda m: m.linalg.svdvals(m.ones(3, 3, dtype=m.float16)),),
        (lambda m: m.linalg.svdvals(m.ones(3, 3, dtype=m.int64)),),
        (lambda m: m.linalg.svdvals(m.ones(3)),),
        (lambda m: m.linalg.svdvals(m.tensor([[float("nan"), 1.], [1., 1.]])),),
        (lambda m: m.linalg.matrix_norm(m.tensor([[[1., 1.], [1., 1.]], [[float("nan"), 1.], [1., 1.]]]), "nuc"),),
        (lambda m: m.linalg.svdvals(m.ones(2, 2), driver="gesvd"),),
    ]
    for (fn,) in cases:
        raises_like(lambda: fn(tl), lambda: fn(torch))
    assert issubclass(tl.linalg.LinAlgError, RuntimeError)
    assert f.norm(p="fro").item() == pytest.approx(tf.norm(p="fro").item())
    # fro keeps low precision; inf over an all-NaN matrix gives NaN
    close(tl.linalg.matrix_norm(tl.ones(3, 3, dtype=tl.float16)).float(),
          torch.linalg.matrix_norm(torch.ones(3, 3, dtype=torch.float16)).float(), "float32")
    nan = float("nan")
    close(tl.linalg.matrix_norm(tl.full((2, 2), nan), math.inf),
          torch.linalg.matrix_norm(torch.full((2, 2), nan), math.inf), "float32")
