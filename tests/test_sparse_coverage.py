"""Every op the spec's inventory marks as taking sparse tensors (the `sparse` column of
../shared/spec/ops.tsv; scripts/doc_rules.tsv keeps a copy so this runs without the spec)
exists in tensorlib, and every one that takes COO tensors runs on a small uncoalesced COO
tensor with duplicates (and hybrid where it applies) as torch 2.13 does: the same result
(compared densely, with layout, dtype and shape) or the same exception type. Ops that only
concern the compressed layouts are listed with that reason (issue 11's tests cover them)."""
import csv
from pathlib import Path

import numpy as np
import pytest
import torch

import tensorlib as tl

pytestmark = [pytest.mark.filterwarnings("ignore:Sparse invariant checks"),
              pytest.mark.filterwarnings("ignore:Sparse CSR tensor support"),
              pytest.mark.filterwarnings("ignore:.*is deprecated")]

ROOT = Path(__file__).resolve().parent.parent
SPEC = next((p / "shared" / "spec" / "ops.tsv" for p in (ROOT.parent, ROOT.parent.parent)
             if (p / "shared" / "spec" / "ops.tsv").is_file()), ROOT.parent / "shared" / "spec" / "ops.tsv")


def _full(name):
    return name if name.startswith(("Tensor.", "tensorlib.")) else "tensorlib." + name


def sparse_ops():
    """{op name: its sparse note} from the spec when present, else from doc_rules.tsv."""
    if SPEC.is_file():
        with SPEC.open(encoding="utf-8") as f:
            return {_full(r["op"]): r["sparse"] for r in csv.DictReader(f, delimiter="\t") if r["sparse"]}
    out = {}
    for line in (ROOT / "scripts" / "doc_rules.tsv").read_text(encoding="utf-8").splitlines():
        parts = line.split("\t")
        if not line.startswith("#") and len(parts) >= 3 and parts[2]:
            out[_full(parts[0])] = parts[2]
    return out


def resolve(mod, name):
    """tensorlib.x / torch.x / Tensor.x / tensorlib.sparse.x in `mod` (tensorlib or torch)."""
    parts = name.split(".")
    obj = mod.Tensor if parts[0] == "Tensor" else mod
    for p in parts[1:]:
        obj = getattr(obj, p)
    return obj


# ---- inputs -------------------------------------------------------------------------------

def coo(mod, hybrid=False, dtype=None):
    """3 x 4 uncoalesced, with a duplicate (and a dense dim of 2 when hybrid)."""
    ind = [[0, 2, 1, 2, 0], [1, 3, 0, 3, 2]]
    vals = [[0.5, -1.0], [2.0, 1.5], [-3.0, 0.25], [1.0, -2.0], [4.0, 0.0]] if hybrid else [0.5, 2.0, -3.0, 1.0, 4.0]
    size = (3, 4, 2) if hybrid else (3, 4)
    return mod.sparse_coo_tensor(mod.tensor(ind), mod.tensor(vals, dtype=dtype or mod.float64), size)


def unit(mod):  # values in (-1, 1) for asin/atanh/erfinv
    return mod.sparse_coo_tensor(mod.tensor([[0, 2, 1, 2], [1, 3, 0, 0]]), mod.tensor([0.5, -0.25, 0.75, -0.5],
                                                                                       dtype=mod.float64), (3, 4))


def dense(mod, *shape):
    n = int(np.prod(shape))
    return mod.tensor(np.linspace(-1.5, 2.0, n).reshape(shape))


def batch(mod):
    return mod.sparse_coo_tensor(mod.tensor([[0, 1, 1], [0, 2, 1], [1, 0, 3]]), mod.tensor([1.0, 2.0, -1.0],
                                                                                         dtype=mod.float64), (2, 3, 4))


def inplace(method, *args, make=coo):
    def f(mod):
        x = make(mod).clone()
        r = getattr(x, method)(*(a(mod) if callable(a) else a for a in args))
        assert r is x
        return x
    return f


UNARY = ["abs", "angle", "asin", "asinh", "atan", "atanh", "ceil", "conj_physical", "erf", "erfinv", "expm1", "floor",
         "isinf", "isnan", "isneginf", "isposinf", "log1p", "neg", "round", "sgn", "sign", "signbit", "sin", "sinh",
         "sqrt", "tan", "tanh", "trunc"]

CALLS = {f"tensorlib.{u}": (lambda u: lambda mod: getattr(mod, u)(unit(mod)))(u) for u in UNARY}
CALLS.update({
    "Tensor.add": lambda mod: coo(mod).add(coo(mod, dtype=mod.float32), alpha=2),
    "Tensor.add_": inplace("add_", lambda mod: coo(mod), make=coo),
    "Tensor.addmm": lambda mod: dense(mod, 3, 2).addmm(coo(mod), dense(mod, 4, 2), beta=0.5, alpha=2),
    "Tensor.addmm_": lambda mod: dense(mod, 3, 2).addmm_(coo(mod), dense(mod, 4, 2)),
    "Tensor.any": lambda mod: coo(mod).any(),
    "Tensor.arcsin": lambda mod: unit(mod).arcsin(),
    "Tensor.arcsin_": inplace("arcsin_", make=unit),
    "Tensor.asin": lambda mod: unit(mod).asin(),
    "Tensor.asin_": inplace("asin_", make=unit),
    "Tensor.bmm": lambda mod: batch(mod).bmm(dense(mod, 2, 4, 3)),
    "Tensor.clone": lambda mod: coo(mod, True).clone(),
    "Tensor.coalesce": lambda mod: coo(mod, True).coalesce(),
    "Tensor.deg2rad": lambda mod: coo(mod).deg2rad(),
    "Tensor.deg2rad_": inplace("deg2rad_"),
    "Tensor.dense_dim": lambda mod: coo(mod, True).dense_dim(),
    "Tensor.detach": lambda mod: coo(mod).detach(),
    "Tensor.detach_": inplace("detach_"),
    "Tensor.dim": lambda mod: coo(mod, True).dim(),
    "Tensor.div": lambda mod: coo(mod).div(4),
    "Tensor.div_": inplace("div_", 4),
    "Tensor.floor_divide": lambda mod: coo(mod).floor_divide(2),
    "Tensor.floor_divide_": inplace("floor_divide_", 2),
    "Tensor.get_device": lambda mod: coo(mod).get_device(),
    "Tensor.index_select": lambda mod: coo(mod, True).index_select(1, mod.tensor([3, 0, 3])),
    "Tensor.indices": lambda mod: coo(mod).coalesce().indices(),
    "Tensor.is_coalesced": lambda mod: (coo(mod).is_coalesced(), coo(mod).coalesce().is_coalesced()),
    "Tensor.is_sparse": lambda mod: coo(mod).is_sparse,
    "Tensor.is_sparse_csr": lambda mod: coo(mod).is_sparse_csr,
    "Tensor.isnan": lambda mod: coo(mod).isnan(),
    "Tensor.log1p": lambda mod: unit(mod).log1p(),
    "Tensor.log1p_": inplace("log1p_", make=unit),
    "Tensor.mm": lambda mod: coo(mod).mm(dense(mod, 4, 2)),
    "Tensor.mul": lambda mod: coo(mod).mul(coo(mod, dtype=mod.float32)),
    "Tensor.mul_": inplace("mul_", 3),
    "Tensor.mv": lambda mod: coo(mod).mv(dense(mod, 4)),
    "Tensor.narrow_copy": lambda mod: coo(mod, True).narrow_copy(1, 1, 2),
    "Tensor.neg": lambda mod: coo(mod).neg(),
    "Tensor.neg_": inplace("neg_"),
    "Tensor.negative": lambda mod: coo(mod).negative(),
    "Tensor.negative_": inplace("negative_"),
    "Tensor.numel": lambda mod: coo(mod, True).numel(),
    "Tensor.pow": lambda mod: coo(mod).pow(2),
    "Tensor.rad2deg": lambda mod: coo(mod).rad2deg(),
    "Tensor.rad2deg_": inplace("rad2deg_"),
    "Tensor.resize_as_": lambda mod: mod.sparse_coo_tensor(mod.zeros((2, 0), dtype=mod.int64), mod.zeros(0),
                                                           (2, 2)).resize_as_(coo(mod)),
    "Tensor.size": lambda mod: tuple(coo(mod, True).size()),
    "Tensor.smm": lambda mod: coo(mod).smm(dense(mod, 4, 2)),
    "Tensor.sparse_dim": lambda mod: coo(mod, True).sparse_dim(),
    "Tensor.sparse_mask": lambda mod: dense(mod, 3, 4).sparse_mask(coo(mod).coalesce()),
    "Tensor.sparse_resize_": lambda mod: coo(mod).sparse_resize_((5, 6), 2, 0),
    "Tensor.sparse_resize_and_clear_": lambda mod: coo(mod).sparse_resize_and_clear_((5, 6), 2, 0),
    "Tensor.sqrt": lambda mod: coo(mod).abs().sqrt(),
    "Tensor.square": lambda mod: coo(mod).square(),
    "Tensor.sspaddmm": lambda mod: coo(mod).sspaddmm(coo(mod), dense(mod, 4, 4), beta=0.5, alpha=2),
    "Tensor.sub": lambda mod: coo(mod).sub(coo(mod), alpha=3),
    "Tensor.sub_": inplace("sub_", lambda mod: coo(mod).coalesce()),
    "Tensor.t": lambda mod: coo(mod).t(),
    "Tensor.t_": inplace("t_"),
    "Tensor.to_dense": lambda mod: coo(mod, True).to_dense(),
    "Tensor.to_sparse": lambda mod: dense(mod, 3, 4, 2).to_sparse(2),
    "Tensor.to_sparse_coo": lambda mod: dense(mod, 3, 4).to_sparse_coo(),
    "Tensor.to_sparse_csr": lambda mod: coo(mod).to_sparse_csr(),
    "Tensor.to_sparse_csc": lambda mod: coo(mod).to_sparse_csc(),
    "Tensor.to_sparse_bsr": lambda mod: coo(mod).to_sparse_bsr((1, 2)),
    "Tensor.to_sparse_bsc": lambda mod: coo(mod).to_sparse_bsc((1, 2)),
    "Tensor.transpose": lambda mod: coo(mod, True).transpose(0, 1),
    "Tensor.transpose_": inplace("transpose_", 0, 1),
    "Tensor.values": lambda mod: coo(mod).coalesce().values(),
    "Tensor.zero_": inplace("zero_"),
    "tensorlib.addmm": lambda mod: mod.addmm(dense(mod, 3, 2), coo(mod), dense(mod, 4, 2)),
    "tensorlib.bmm": lambda mod: mod.bmm(batch(mod), dense(mod, 2, 4, 3)),
    "tensorlib.cat": lambda mod: mod.cat([coo(mod), coo(mod).coalesce()], 1),
    "tensorlib.dstack": lambda mod: mod.dstack([coo(mod), coo(mod)]),
    "tensorlib.empty": lambda mod: mod.empty((2, 3), layout=mod.sparse_coo).shape,
    "tensorlib.empty_like": lambda mod: mod.empty_like(coo(mod)).layout == mod.sparse_coo,
    "tensorlib.hspmm": lambda mod: mod.hspmm(coo(mod), dense(mod, 4, 2)),
    "tensorlib.hstack": lambda mod: mod.hstack([coo(mod), coo(mod)]),
    "tensorlib.index_select": lambda mod: mod.index_select(coo(mod), 0, mod.tensor([2, 2, 0])),
    "tensorlib.is_complex": lambda mod: mod.is_complex(coo(mod)),
    "tensorlib.is_floating_point": lambda mod: mod.is_floating_point(coo(mod)),
    "tensorlib.is_nonzero": lambda mod: mod.is_nonzero(mod.sparse_coo_tensor(mod.tensor([[0]]), mod.tensor([2.]),
                                                                           (1,))),
    "tensorlib.is_same_size": lambda mod: mod.is_same_size(coo(mod), coo(mod).coalesce()),
    "tensorlib.is_signed": lambda mod: mod.is_signed(coo(mod)),
    "tensorlib.is_tensor": lambda mod: mod.is_tensor(coo(mod)),
    "tensorlib.lobpcg": lambda mod: tuple(r.shape for r in mod.lobpcg(
        mod.sparse_coo_tensor(mod.tensor([list(range(12)), list(range(12))]), mod.arange(1., 13., dtype=mod.float64),
                              (12, 12)), k=2)),
    "tensorlib.matmul": lambda mod: mod.matmul(coo(mod), dense(mod, 4, 2)),
    "tensorlib.mm": lambda mod: mod.mm(coo(mod), dense(mod, 4, 2)),
    "tensorlib.mv": lambda mod: mod.mv(coo(mod), dense(mod, 4)),
    "tensorlib.native_norm": lambda mod: mod.native_norm(coo(mod)),
    "tensorlib.pca_lowrank": lambda mod: tuple(r.shape for r in mod.pca_lowrank(coo(mod), q=2)),
    "tensorlib.select": lambda mod: mod.select(coo(mod, True), 1, 3),
    "tensorlib.smm": lambda mod: mod.smm(coo(mod), dense(mod, 4, 2)),
    "tensorlib.sparse.addmm": lambda mod: mod.sparse.addmm(dense(mod, 3, 2), coo(mod), dense(mod, 4, 2)),
    "tensorlib.sparse.log_softmax": lambda mod: mod.sparse.log_softmax(coo(mod), 1),
    "tensorlib.sparse.mm": lambda mod: mod.sparse.mm(coo(mod), dense(mod, 4, 2)),
    "tensorlib.sparse.softmax": lambda mod: mod.sparse.softmax(coo(mod), 0),
    "tensorlib.sparse.spdiags": lambda mod: mod.sparse.spdiags(dense(mod, 2, 4), mod.tensor([0, -1]), (4, 4)),
    "tensorlib.sparse.sum": lambda mod: mod.sparse.sum(coo(mod, True), (0,)),
    "tensorlib.sparse_coo_tensor": lambda mod: coo(mod, True),
    "tensorlib.sspaddmm": lambda mod: mod.sspaddmm(coo(mod), coo(mod), dense(mod, 4, 4)),
    "tensorlib.stack": lambda mod: mod.stack([coo(mod), coo(mod)], 1),
    "tensorlib.svd_lowrank": lambda mod: tuple(r.shape for r in mod.svd_lowrank(coo(mod), q=2)),
    "tensorlib.unsqueeze": lambda mod: mod.unsqueeze(coo(mod, True), 1),
    "tensorlib.vstack": lambda mod: mod.vstack([coo(mod), coo(mod)]),
    "tensorlib.zeros": lambda mod: mod.zeros((2, 3), layout=mod.sparse_coo),
    "tensorlib.zeros_like": lambda mod: mod.zeros_like(coo(mod, True)),
})

# compressed layouts only (issue 11; tests/test_sparse_compressed*.py)
COMPRESSED_ONLY = {"Tensor.ccol_indices", "Tensor.col_indices", "Tensor.crow_indices", "Tensor.row_indices",
                   "tensorlib.sparse.sampled_addmm", "tensorlib.sparse.spsolve", "tensorlib.sparse_bsc_tensor",
                   "tensorlib.sparse_bsr_tensor", "tensorlib.sparse_compressed_tensor", "tensorlib.sparse_csc_tensor",
                   "tensorlib.sparse_csr_tensor"}


def outcome(f, mod):
    try:
        return f(mod), None
    except Exception as e:  # noqa: BLE001
        return None, type(e)


def plain(r):
    """A comparable form: dense NumPy values with layout and dtype names, recursively."""
    if isinstance(r, (torch.Tensor, tl.Tensor)):
        layout = str(r.layout).split(".")[-1]
        d = r.to_dense() if layout != "strided" else r
        return layout, str(r.dtype).split(".")[-1], tuple(r.shape), d.detach().numpy() if isinstance(
            d, torch.Tensor) else d.numpy()
    if isinstance(r, (tuple, list)):
        return tuple(plain(x) for x in r)
    if isinstance(r, (torch.Size,)):
        return tuple(r)
    return r


def same(a, b):
    if isinstance(a, tuple) and a and isinstance(a[-1], np.ndarray):
        assert a[:3] == b[:3]
        np.testing.assert_allclose(a[3], b[3], rtol=1e-12, atol=1e-12)
    elif isinstance(a, tuple):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            same(x, y)
    else:
        assert a == b


def test_every_sparse_op_of_the_spec_exists():
    ops = sparse_ops()
    assert len(ops) > 100
    missing = []
    for name in ops:
        try:
            resolve(tl, name)
        except AttributeError:
            missing.append(name)
    assert not missing, missing


def test_every_coo_op_has_a_call_here():
    ops = set(sparse_ops())
    assert ops <= set(CALLS) | COMPRESSED_ONLY, sorted(ops - set(CALLS) - COMPRESSED_ONLY)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_coo_op_runs_like_torch(name):
    rt, et = outcome(CALLS[name], torch)
    rl, el = outcome(CALLS[name], tl)
    if et is not None:
        assert el is not None and issubclass(el, et), (name, et, el, rl)
        return
    assert el is None, (name, el)
    same(plain(rt), plain(rl))
