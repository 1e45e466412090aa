"""Sparse tensors on "cuda" (tensorlib/_sparse_device.py) on the host-memory stand-in backend of
tests/_fake_cuda.py: moving every layout to the device and back, the constructors with
device= (validated from host copies, torch's errors), the products (mm, mv, matmul, addmm,
tensorlib.sparse.mm, dense @ sparse) of COO, CSR, CSC, BSR and BSC matrices with int32/int64
indices through the backend's sparse-product entry (backend/spmm.c; its stand-in is the core's
host runner of the same call, cuSPARSE on CUDA), the ops composed of the device's strided ops
(every layout conversion incl. BSR/BSC with batch and dense dims, to_dense, coalesce, COO + COO,
index_select, scalar products, sum, dtype casts: bit for bit, no round trip, nothing over 8
bytes copied to the host; grid_compositions) and those left as host round trips. Operands hold small integers (complex: both parts), so every
product is exact in each dtype (float16 and bfloat16 included): each result must equal
tensorlib's CPU result of the same call exactly (values, dtype, shape, layout, indices) and
be on the device; products also equal torch 2.13's dense product. Errors must be the CPU's
(type and message) or torch's device error. Run as a script in a subprocess:
`python _fake_cuda_sparse.py`; prints failures, then `failures N` and `ok N`. With
TL_EW_REAL=1 the grid runs on a real CUDA device (cuSPARSE)."""

import pickle

import numpy as np
import torch

import _fake_cuda  # noqa: E402 (tests/ on the path)
from _grid import report, outcome, as_np  # noqa: E402

REAL, LOG = _fake_cuda.for_grid()
import tensorlib as tl  # noqa: E402

FLOATS = ["float32", "float64", "float16", "bfloat16", "complex64", "complex128"]
FAIL = []
COUNT = [0]


def dense(dt, shape, seed, density=0.4):
    """A tensorlib CPU tensor of small integers (complex: both parts), about `density` non-zero."""
    rng = np.random.default_rng(seed)
    v = rng.integers(-3, 4, size=shape) * (rng.random(shape) < density)
    if dt.startswith("complex"):
        v = v + 1j * rng.integers(-3, 4, size=shape) * (v != 0)
    if dt == "bfloat16":
        return tl.tensor(v.astype(np.float32)).to(tl.bfloat16)
    return tl.tensor(np.asarray(v, dtype=np.complex128 if dt.startswith("complex") else np.float64)).to(getattr(tl, dt))


def same(what, got, want, loose=False):
    """got (a device result) equals want (the CPU's): layout, dtype, shape, components, values
    (loose: values within float tolerance on a real GPU, whose exp/log are libdevice's)."""
    COUNT[0] += 1
    if not isinstance(got, tl.Tensor):
        if got != want:
            FAIL.append(f"{what}: device {got!r} vs CPU {want!r}")
        return
    if not got.is_cuda or got.layout != want.layout or got.dtype != want.dtype or got.shape != want.shape:
        FAIL.append(f"{what}: device {got.layout} {got.dtype} {tuple(got.shape)} cuda={got.is_cuda} vs CPU "
                    f"{want.layout} {want.dtype} {tuple(want.shape)}")
        return
    if want.layout == tl.strided:
        parts_g, parts_w = [got], [want]
    elif want.layout == tl.sparse_coo:
        parts_g, parts_w = [got._indices(), got._values()], [want._indices(), want._values()]
        if got.is_coalesced() != want.is_coalesced():
            FAIL.append(f"{what}: coalesced {got.is_coalesced()} vs CPU {want.is_coalesced()}")
    else:
        parts_g, parts_w = list(tl._C._compressed_parts(got)), list(tl._C._compressed_parts(want))
    for g, w in zip(parts_g, parts_w):
        eq = np.allclose(as_np(g), as_np(w), rtol=1e-5, atol=1e-6) if loose and REAL else \
            np.array_equal(as_np(g), as_np(w))
        if not g.is_cuda or g.dtype != w.dtype or g.shape != w.shape or not eq:
            FAIL.append(f"{what}: component {as_np(g)} ({g.dtype}) vs CPU {as_np(w)} ({w.dtype})")
            return


def check(what, f, *xs, torch_ref=None, loose=False):
    """f(*operands) on the CPU and on the device (operands moved first): equal results, or the
    same exception and message; torch_ref (a numpy array) checks the CPU result too."""
    rc, ec = outcome(lambda: f(*xs))
    rg, eg = outcome(lambda: f(*[x.cuda() if isinstance(x, tl.Tensor) else x for x in xs]))
    if ec is not None or eg is not None:
        COUNT[0] += 1
        if type(ec) is not type(eg) or str(ec) != str(eg):
            FAIL.append(f"{what}: CPU {type(ec).__name__}({ec}) vs device {type(eg).__name__}({eg})")
        return
    same(what, rg, rc, loose)
    if torch_ref is not None:
        COUNT[0] += 1
        if not np.array_equal(as_np(rc.to_dense() if rc.layout != tl.strided else rc), torch_ref):
            FAIL.append(f"{what}: CPU {as_np(rc)} vs torch {torch_ref}")


def torch_of(x):
    x = x.to_dense() if x.layout != tl.strided else x
    if x.dtype == tl.bfloat16:
        return torch.tensor(as_np(x)).to(torch.bfloat16)
    return torch.tensor(x.numpy())


def tnp(t):
    t = t.float() if t.dtype in (torch.float16, torch.bfloat16) else t
    return t.numpy()


LAYOUTS = {
    "coo": lambda d: d.to_sparse(),
    "coo-uncoalesced": lambda d: tl.sparse_coo_tensor(
        tl.cat([d.to_sparse()._indices()] * 2, 1).flip(1), tl.cat([d.to_sparse()._values()] * 2).flip(0) / 2, d.shape),
    "csr": lambda d: d.to_sparse_csr(),
    "csr-int32": lambda d: tl.sparse_csr_tensor(d.to_sparse_csr().crow_indices().int(),
                                                d.to_sparse_csr().col_indices().int(), d.to_sparse_csr().values(),
                                                d.shape),
    "csc": lambda d: d.to_sparse_csc(),
    "csc-int32": lambda d: tl.sparse_csc_tensor(d.to_sparse_csc().ccol_indices().int(),
                                                d.to_sparse_csc().row_indices().int(), d.to_sparse_csc().values(),
                                                d.shape),
    "bsr": lambda d: d.to_sparse_bsr((2, 2)),
    "bsc": lambda d: d.to_sparse_bsc((2, 2)),
}

# dense operands as stored -> the view the product takes
VIEWS = {
    "": (lambda r, c: (r, c), lambda x: x),
    "T": (lambda r, c: (c, r), lambda x: x.t()),
    "step": (lambda r, c: (r, 2 * c), lambda x: x[:, ::2]),
}


def grid_products(dt):
    for shape, seed in (((6, 8), 1), ((4, 6), 2), ((6, 4), 3)):
        d = dense(dt, shape, seed)
        for lname, make in LAYOUTS.items():
            s = make(d)
            k, m = shape[1], shape[0]
            for vname, (stored, view) in VIEWS.items():
                b = dense(dt, stored(k, 3), seed + 10, density=1)
                x = dense(dt, stored(5, m), seed + 20, density=1)
                ref = tnp(torch_of(d) @ torch_of(view(b)))
                what = f"{dt} {lname} {shape} {vname}"
                check(f"mm {what}", lambda s, b: tl.mm(s, view(b)), s, b, torch_ref=ref)
                check(f"@ {what}", lambda s, b: s @ view(b), s, b, torch_ref=ref)
                check(f"sparse.mm {what}", lambda s, b: tl.sparse.mm(s, view(b)), s, b, torch_ref=ref)
                if lname.startswith("coo") or lname.startswith("csr"):
                    # dense @ sparse (torch takes COO only as mat1; tensorlib both)
                    check(f"dense @ {what}", lambda x, s: view(x) @ s, x, s,
                          torch_ref=tnp(torch_of(view(x)) @ torch_of(d)))
            v = dense(dt, (2 * k,), seed + 30, density=1)
            check(f"mv {dt} {lname} {shape}", lambda s, v: tl.mv(s, v[::2]), s, v,
                  torch_ref=tnp(torch_of(d) @ torch_of(v[::2])))
            check(f"mv contiguous {dt} {lname} {shape}", lambda s, v: tl.mv(s, v), s, v[:k])
            inp = dense(dt, (m, 3), seed + 40, density=1)
            b = dense(dt, (k, 3), seed + 50, density=1)
            for beta, alpha in ((1, 1), (0, 2), (2, 1), (-1, 3)):
                check(f"addmm {dt} {lname} {shape} beta={beta} alpha={alpha}",
                      lambda i, s, b: tl.addmm(i, s, b, beta=beta, alpha=alpha), inp, s, b,
                      torch_ref=tnp(beta * torch_of(inp) + alpha * (torch_of(d) @ torch_of(b))))


def grid_empty(dt):
    """No stored elements, empty dims: zero results of the right shape (no backend call needed)."""
    for shape, bshape in (((4, 6), (6, 3)), ((0, 6), (6, 3)), ((4, 0), (0, 3)), ((4, 6), (6, 0))):
        d = tl.zeros(shape, dtype=getattr(tl, dt))
        b = dense(dt, bshape, 7, density=1)
        for lname in ("coo", "csr", "csc"):
            check(f"empty mm {dt} {lname} {shape} {bshape}", lambda s, b: tl.mm(s, b), LAYOUTS[lname](d), b)


def grid_layout_ops():
    """Moves, conversions, coalesce, arithmetic and reductions of device sparse tensors."""
    for dt in ("float32", "complex64", "int64", "bool"):
        d = dense(dt if dt != "bool" else "float32", (6, 8), 5)
        d = d.bool() if dt == "bool" else d
        for lname, make in LAYOUTS.items():
            s = make(d)
            what = f"{dt} {lname}"
            check(f"move {what}", lambda s: s, s)
            same(f"cpu() {what}", s.cuda().cpu().cuda(), s)
            check(f"to_dense {what}", lambda s: s.to_dense(), s)
            check(f"to_sparse_csr {what}", lambda s: s.to_sparse_csr(), s)
            check(f"to_sparse_csc {what}", lambda s: s.to_sparse_csc(), s)
            check(f"to_sparse_bsr {what}", lambda s: s.to_sparse_bsr((2, 2)), s)
            check(f"to_sparse_coo {what}", lambda s: s.to_sparse_coo(), s)
            check(f"to float64 {what}", lambda s: s.to(tl.float64), s)
            check(f"clone {what}", lambda s: s.clone(), s)
            check(f"pickle {what}", lambda s: pickle.loads(pickle.dumps(s)), s)
            if dt != "bool":
                check(f"mul 2 {what}", lambda s: s * 2, s)
                check(f"neg {what}", lambda s: -s, s)
                check(f"add {what}", lambda s: s + s, s)
                check(f"sum {what}", lambda s: s.sum(), s)
            check(f"t {what}", lambda s: s.t(), s)
            check(f"zero_ {what}", lambda s: s.clone().zero_(), s)
            if not lname.startswith("b"):
                check(f"empty_like {what}", lambda s: tl.empty_like(s), s)
            same(f"copy_ from the CPU {what}", s.cuda().clone().zero_().copy_(s), s.clone().zero_().copy_(s))
            same(f"copy_ to the CPU {what}", s.clone().zero_().copy_(s.cuda()).cuda(), s.clone().zero_().copy_(s))
            if lname.startswith("coo"):
                check(f"coalesce {what}", lambda s: s.coalesce(), s)
                check(f"dense to_sparse {what}", lambda d: d.to_sparse(), d)
    # more sparse dims, dense dims, no entries, empty dims
    for dt in ("float32", "float16", "int32", "complex128"):
        for shape in ((3, 4, 5), (0, 4), (4, 0, 2)):
            d = dense(dt, shape, 11)
            for sd in range(1, len(shape) + 1):
                what = f"{dt} {shape} sparse_dim={sd}"
                check(f"to_sparse {what}", lambda d: d.to_sparse(sd), d)
                s = d.to_sparse(sd)
                dup = tl.sparse_coo_tensor(tl.cat([s._indices()] * 2, 1).flip(1), tl.cat([s._values()] * 2).flip(0),
                                           s.shape)
                check(f"to_dense of duplicates {what}", lambda s: s.to_dense(), dup)
                check(f"coalesce {what}", lambda s: s.coalesce(), dup)
        z = tl.zeros((3, 4), dtype=getattr(tl, dt))
        check(f"no entries to_dense {dt}", lambda s: s.to_dense(), z.to_sparse())
        check(f"no entries to CSR {dt}", lambda s: s.to_sparse_csr(), z.to_sparse())
        check(f"no entries CSR to dense {dt}", lambda s: s.to_dense(), z.to_sparse_csr())
        check(f"no entries CSC to CSR {dt}", lambda s: s.to_sparse_csr(), z.to_sparse_csc())
    # the integer products (no cuSPARSE type): host round trips, the CPU's results
    d = dense("float32", (6, 8), 9).long()
    b = dense("float32", (8, 3), 10, density=1).long()
    for lname in ("coo", "csr", "csc"):
        check(f"int64 mm {lname}", lambda s, b: tl.mm(s, b), LAYOUTS[lname](d), b)


def grid_composed_ops():
    """The sparse layer's compositions of strided ops, with their tensors made on the input's device
    (softmax's exp and log within float tolerance on a real GPU)."""
    d = dense("float32", (3, 4), 21)
    d[0, 1] = 1  # at least one entry per layout
    cases = {
        "coo sum dim0": lambda d: tl.sparse.sum(d.to_sparse(), dim=0),
        "csr sum dim1": lambda d: tl.sparse.sum(d.to_sparse_csr(), dim=1),
        "csr sum dim0": lambda d: tl.sparse.sum(d.to_sparse_csr(), dim=0),
        "csr sum all": lambda d: tl.sparse.sum(d.to_sparse_csr(), dim=(0, 1)),
        "coo softmax": lambda d: tl.sparse.softmax(d.to_sparse(), 1),
        "coo log_softmax": lambda d: tl.sparse.log_softmax(d.to_sparse(), 0),
        "csr softmax": lambda d: tl.sparse.softmax(d.to_sparse_csr(), 1),
        "csr log_softmax": lambda d: tl.sparse.log_softmax(d.to_sparse_csr(), 0),
        "sampled_addmm": lambda d: tl.sparse.sampled_addmm(d.to_sparse_csr(), tl.ones(3, 2, device=d.device),
                                                           tl.ones(2, 4, device=d.device)),
        "coo index_select": lambda d: d.to_sparse().index_select(1, tl.tensor([0, 2], device=d.device)),
        "coo narrow_copy": lambda d: d.to_sparse().narrow_copy(1, 1, 2),
        "sparse_mask": lambda d: d.sparse_mask(d.to_sparse()),
        "coo * coo": lambda d: d.to_sparse() * d.to_sparse(),
        "coo * dense": lambda d: d.to_sparse() * d,
        "csr * dense": lambda d: d.to_sparse_csr() * d,
        "csr * csr": lambda d: d.to_sparse_csr() * d.to_sparse_csr(),
        "coo pow": lambda d: d.to_sparse().pow(2),
        "coo unsqueeze": lambda d: d.to_sparse().unsqueeze(0),
        "coo unsqueeze dense": lambda d: d.to_sparse(1).unsqueeze(2),
        "coo permute": lambda d: d.to_sparse().permute(1, 0),
        "coo cat": lambda d: tl.cat([d.to_sparse(), d.to_sparse()], 0),
        "coo cat dense dim": lambda d: tl.cat([d.to_sparse(1), d.to_sparse(1)], 1),
        "coo stack": lambda d: tl.stack([d.to_sparse(), d.to_sparse()]),
        "smm": lambda d: tl.smm(d.to_sparse(), tl.ones(4, 2, device=d.device)),
        "hspmm": lambda d: tl.hspmm(d.to_sparse(), tl.ones(4, 2, device=d.device)),
        "csr select batch": lambda d: tl.stack([d, d]).to_sparse_csr().select(0, 1),
        "batched csr @ dense": lambda d: tl.stack([d, d]).to_sparse_csr() @ tl.ones(4, 2, device=d.device),
        "csr to bsr": lambda d: d.to_sparse_csr().to_sparse_bsr((1, 2)),
        "coo addmm": lambda d: tl.sparse.addmm(tl.ones(3, 2, device=d.device), d.to_sparse(),
                                               tl.ones(4, 2, device=d.device)),
        "coo sparse_resize_": lambda d: d.to_sparse().sparse_resize_((4, 5), 2, 0),
        "coo abs_": lambda d: d.to_sparse().abs_(),
        "csr mul_": lambda d: d.to_sparse_csr().mul_(2),
        "coo add_": lambda d: d.to_sparse().add_(d.to_sparse()),
        "dense + coo": lambda d: d + d.to_sparse(),
        "coo vstack": lambda d: tl.vstack([d.to_sparse(), d.to_sparse()]),
        "spdiags": lambda d: tl.sparse.spdiags(d[:2], tl.tensor([0, 1]), (4, 4)),
    }
    for what, f in cases.items():
        check(what, f, d, loose="softmax" in what)


def grid_constructors():
    """device= constructors: components moved, validated from host copies with the CPU's errors."""
    i = tl.tensor([[0, 1, 1], [2, 0, 2]])
    v = tl.tensor([3., 4., 5.])
    cases = [
        ("coo", lambda dev: tl.sparse_coo_tensor(i, v, (2, 3), device=dev)),
        ("coo inferred", lambda dev: tl.sparse_coo_tensor(i, v, device=dev)),
        ("coo out of range", lambda dev: tl.sparse_coo_tensor(i, v, (2, 2), device=dev)),
        ("coo negative", lambda dev: tl.sparse_coo_tensor(-i, v, (2, 3), device=dev)),
        ("coo is_coalesced", lambda dev: tl.sparse_coo_tensor(i, v, (2, 3), device=dev, is_coalesced=True)),
        ("coo not coalesced", lambda dev: tl.sparse_coo_tensor(i.flip(1), v, (2, 3), device=dev, is_coalesced=True)),
        ("coo unchecked", lambda dev: tl.sparse_coo_tensor(i, v, (2, 3), device=dev, check_invariants=False)),
        ("coo size only", lambda dev: tl.sparse_coo_tensor((2, 3), device=dev)),
        ("zeros sparse_coo", lambda dev: tl.zeros((2, 3), layout=tl.sparse_coo, device=dev)),
        ("zeros sparse_csr", lambda dev: tl.zeros((2, 3), layout=tl.sparse_csr, device=dev)),
        ("csr", lambda dev: tl.sparse_csr_tensor([0, 1, 3], [2, 0, 2], v, (2, 3), device=dev)),
        ("csr inferred", lambda dev: tl.sparse_csr_tensor([0, 1, 3], [2, 0, 2], v, device=dev)),
        ("csr int32", lambda dev: tl.sparse_csr_tensor(tl.tensor([0, 1, 3]).int(), tl.tensor([2, 0, 2]).int(), v,
                                                       device=dev)),
        ("csr unsorted", lambda dev: tl.sparse_csr_tensor([0, 1, 3], [2, 2, 0], v, (2, 3), device=dev)),
        ("csr bad end", lambda dev: tl.sparse_csr_tensor([0, 1, 2], [2, 0, 2], v, (2, 3), device=dev)),
        ("csr column range", lambda dev: tl.sparse_csr_tensor([0, 1, 3], [2, 0, 3], v, (2, 3), device=dev)),
        ("csc", lambda dev: tl.sparse_csc_tensor([0, 1, 2, 3], [1, 0, 1], v, (2, 3), device=dev)),
        ("bsr", lambda dev: tl.sparse_bsr_tensor([0, 1], [0], tl.ones(1, 2, 2), (2, 4), device=dev)),
        ("bsc blocksize", lambda dev: tl.sparse_bsc_tensor([0, 1], [0], tl.ones(1, 2, 2), (3, 2), device=dev)),
    ]
    for what, f in cases:
        rc, ec = outcome(lambda: f(None))
        rg, eg = outcome(lambda: f("cuda"))
        if ec is not None or eg is not None:
            COUNT[0] += 1
            if type(ec) is not type(eg) or str(ec) != str(eg):
                FAIL.append(f"ctor {what}: CPU {type(ec).__name__}({ec}) vs device {type(eg).__name__}({eg})")
            continue
        same(f"ctor {what}", rg, rc)


def refusal(what, f, etype, msg):
    COUNT[0] += 1
    _, e = outcome(f)
    if type(e) is not etype or str(e) != msg:
        FAIL.append(f"{what}: {type(e).__name__}({e}), wanted {etype.__name__}({msg})")


def grid_errors():
    s = dense("float32", (4, 6), 3).to_sparse().cuda()
    c = dense("float32", (4, 6), 3).to_sparse_csr().cuda()
    b = dense("float32", (6, 2), 4, density=1)
    mix = "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"
    refusal("COO @ CPU dense", lambda: tl.mm(s, b), RuntimeError, mix)
    refusal("CSR @ CPU dense", lambda: tl.mm(c, b), RuntimeError, mix)
    refusal("COO + CPU COO", lambda: s + s.cpu(), RuntimeError, mix)
    refusal("COO components on two devices", lambda: tl.sparse_coo_tensor(s._indices().cpu(), s._values(), s.shape),
            RuntimeError, "backend of indices (CPU) must match backend of values (CUDA)")
    refusal("CSR components on two devices",
            lambda: tl.sparse_csr_tensor(c.crow_indices(), c.col_indices().cpu(), c.values(), c.shape), RuntimeError,
            "Values and col_indices need to be on the same device.")
    refusal("meta", lambda: s.to("meta"), NotImplementedError,
            "tensorlib: sparse tensors on the meta device are not supported")
    refusal("meta dense to_sparse", lambda: tl.zeros(2, 3, device="meta").to_sparse(), NotImplementedError,
            "tensorlib: sparse tensors on the meta device are not supported")
    refusal("meta dense to_sparse_csr", lambda: tl.zeros(2, 3, device="meta").to_sparse_csr(), NotImplementedError,
            "tensorlib: sparse tensors on the meta device are not supported")
    refusal("numpy", lambda: s.numpy(), TypeError, "can't convert Sparse layout tensor to numpy. Use Tensor.to_dense() first.")
    # the core's own guards (private entry points handed device components)
    refusal("validation in place", lambda: tl._C._sparse_coo_new(s._indices(), s._values(), None, True, None),
            RuntimeError, "tensorlib: sparse components on cuda are validated from a host copy "
            "(tensorlib/_sparse_device.py), not in place")
    for dt, name in (("float32", "mm"), ("float64", "mm")):
        x = dense(dt, (4, 6), 3).to_sparse().cuda()
        refusal(f"{dt} dtype mismatch", lambda: tl.mm(x, b.double().cuda() if dt == "float32" else b.cuda()),
                RuntimeError, outcome(lambda: tl.mm(x.cpu(), b.double() if dt == "float32" else b))[1].args[0])


def stand_in_checks():
    """The products reach the backend's spmm entry with the stored format, index dtype and op; the
    rest never does."""
    def calls(f):
        n = len(LOG)
        f()
        return [c[1:] for c in LOG[n:] if c[0] == "spmm"]

    def expect(what, got, want):
        COUNT[0] += 1
        if got != want:
            FAIL.append(f"{what}: spmm calls {got}, wanted {want}")

    d = dense("float32", (6, 8), 1)
    b = dense("float32", (8, 3), 2, density=1).cuda()
    v = dense("float32", (8,), 3, density=1).cuda()
    nnz = int((d != 0).sum())
    csr, csc, coo = d.to_sparse_csr().cuda(), d.to_sparse_csc().cuda(), d.to_sparse().cuda()
    # logged fields: format, index_dtype, dtype, op_a, order, rows, cols, nnz, n
    got = calls(lambda: tl.mm(csr, b))
    expect("CSR @ B", [(c[0], c[3], c[4]) + c[5:9] for c in got], [(0, 0, 0, 6, 8, nnz, 3)])
    got = calls(lambda: tl.mm(csc, b))
    expect("CSC @ B format", [(c[0], c[3]) for c in got], [(1, 0)])
    got = calls(lambda: tl.mm(coo, b))
    expect("COO @ B format", [(c[0], c[3]) for c in got], [(2, 0)])
    got = calls(lambda: tl.mv(csr, v))
    expect("CSR @ v: n = 0", [c[8] for c in got], [0])
    x = dense("float32", (5, 6), 4, density=1).cuda()
    got = calls(lambda: x @ csr)
    # x @ S = (S^T @ x^T)^T: S^T is the CSC view of S's arrays, x^T column-major: no copies
    expect("x @ CSR: S^T as CSC, column-major", [(c[0], c[3], c[4]) for c in got], [(1, 0, 1)])
    got = calls(lambda: x @ coo)
    expect("x @ COO: op T", [(c[0], c[3], c[4]) for c in got], [(2, 1, 1)])
    got = calls(lambda: tl.mm(csr, b.t().contiguous().t()))
    expect("column-major B", [c[4] for c in got], [1])
    csr32 = tl.sparse_csr_tensor(csr.crow_indices().int(), csr.col_indices().int(), csr.values(), csr.shape)
    got32, got64 = calls(lambda: tl.mm(csr32, b)), calls(lambda: tl.mm(csr, b))
    expect("int32 indices: another index dtype", len(got32) == 1 and got32[0][1] != got64[0][1], True)
    expect("no product: no call", calls(lambda: (csr.to_dense(), coo.coalesce(), csr * 2)), [])
    expect("empty: no call", calls(lambda: tl.mm(tl.zeros(6, 8).to_sparse_csr().cuda(), b)), [])
    expect("int64 values: no call", calls(lambda: tl.mm(csr.long(), b.long())), [])

    # the compositions of device ops stay on the device: at most a count (8 bytes) crosses to
    # the host (nonzero's and unique's result sizes); the round trips copy every component
    def to_host(f):
        n = len(LOG)
        f()
        return [c[3] for c in LOG[n:] if c[0] == "copy" and c[1] == 0 and c[2] == 1 and c[3] > 8]

    dup = tl.sparse_coo_tensor(tl.cat([coo._indices()] * 2, 1), tl.cat([coo._values()] * 2), coo.shape)
    for what, f in [("CSR to_dense", lambda: csr.to_dense()), ("CSC to_dense", lambda: csc.to_dense()),
                    ("COO to_dense", lambda: dup.to_dense()), ("coalesce", lambda: dup.coalesce()),
                    ("CSR to COO", lambda: csr.to_sparse_coo()), ("CSC to COO", lambda: csc.to_sparse_coo()),
                    ("COO to CSR", lambda: coo.to_sparse_csr()), ("COO to CSC", lambda: coo.to_sparse_csc()),
                    ("dense to COO", lambda: d.cuda().to_sparse()), ("dense to COO 1", lambda: d.cuda().to_sparse(1)),
                    ("dense to CSR", lambda: d.cuda().to_sparse_csr()), ("dense to CSC", lambda: d.cuda().to_sparse_csc()),
                    ("CSR to CSC", lambda: csr.to_sparse_csc()), ("CSC to CSR", lambda: csc.to_sparse_csr()),
                    ("COO + COO", lambda: coo + coo * 2), ("CSR + CSR", lambda: csr + csr),
                    ("mm of an uncoalesced COO", lambda: tl.mm(dup, b)),
                    ("BSR to_dense", lambda: d.to_sparse_bsr((2, 2)).cuda().to_dense()),
                    ("BSR to COO", lambda: d.to_sparse_bsr((2, 2)).cuda().to_sparse_coo()),
                    ("BSR to BSC", lambda: d.to_sparse_bsr((2, 2)).cuda().to_sparse_bsc((2, 2))),
                    ("BSC to CSR", lambda: d.to_sparse_bsc((2, 2)).cuda().to_sparse_csr()),
                    ("dense to BSR", lambda: d.cuda().to_sparse_bsr((2, 2))),
                    ("CSR to BSC", lambda: csr.to_sparse_bsc((2, 4))),
                    ("COO index_select", lambda: coo.index_select(1, tl.tensor([3, 0, 3]).cuda()))]:
        expect(f"{what}: on the device", to_host(f), [])
    unsorted = tl.sparse_coo_tensor(coo._indices().flip(1), coo._values().flip(0), coo.shape)
    expect("COO + unsorted COO: a round trip", to_host(lambda: coo + unsorted) != [], True)


# ---- the compositions of device ops (tensorlib/_sparse_device.py) ---------------------------
# Block layouts, batch and dense dims, bool and integer values, stored -0.0, int32 indices, and
# COO + COO of sorted uncoalesced operands: each result equals the CPU's bit for bit (indices,
# their dtype, values, -0.0 included, is_coalesced) and nothing but a count (<= 8 bytes) crossed
# to the host, and no host round trip ran (_sparse_device._host counts them).

TRIPS = [0]


def _count_trips():
    sd = tl._sparse_device
    host = sd._host

    def counted(a):
        TRIPS[0] += 1
        return host(a)
    sd._host = counted


def bits(x):
    """x's values as bytes-comparable NumPy data (float -0.0 and +0.0 differ)."""
    a = as_np(x)
    return a.view(np.uint8) if a.dtype != np.bool_ and a.size else a


def composed(what, f, *xs, trip=False):
    """check(), bit for bit, and the device call stays on the device (trip: it must not: a case
    kept as a host round trip)."""
    rc, ec = outcome(lambda: f(*xs))
    devs = [x.cuda() if isinstance(x, tl.Tensor) else x for x in xs]
    n, t0 = len(LOG), TRIPS[0]
    rg, eg = outcome(lambda: f(*devs))
    big = [c[3] for c in LOG[n:] if c[0] == "copy" and c[1] == 0 and c[2] == 1 and c[3] > 8]
    COUNT[0] += 1
    if not REAL and (bool(big) or TRIPS[0] != t0) != trip:
        FAIL.append(f"{what}: {TRIPS[0] - t0} round trips, copies to the host {big[:6]}, wanted "
                    f"{'a round trip' if trip else 'none'}")
    if ec is not None or eg is not None:
        COUNT[0] += 1
        if type(ec) is not type(eg) or str(ec) != str(eg):
            FAIL.append(f"{what}: CPU {type(ec).__name__}({ec}) vs device {type(eg).__name__}({eg})")
        return
    same(what, rg, rc)
    if rc.layout == tl.strided:
        parts_g, parts_w = [rg], [rc]
    elif rc.layout == tl.sparse_coo:
        parts_g, parts_w = [rg._values()], [rc._values()]
    else:
        parts_g, parts_w = [tl._C._compressed_parts(rg)[2]], [tl._C._compressed_parts(rc)[2]]
    for g, w in zip(parts_g, parts_w):
        if g.shape == w.shape and g.dtype == w.dtype and not np.array_equal(bits(g), bits(w)):
            FAIL.append(f"{what}: values differ in their bits (-0.0?): {as_np(g)} vs CPU {as_np(w)}")


def signed(dt, shape, seed, density=0.4, batch=0):
    """dense() with -0.0 at some zeros (floats), the same pattern in every batch (batch leading
    dims): each batch's values differ, its non-zero positions are the same."""
    one = dense("float64", shape[batch:], seed, density)
    rng = np.random.default_rng(seed + 1)
    reps = int(np.prod(shape[:batch])) if batch else 1
    scale = tl.tensor(np.arange(1, reps + 1, dtype=np.float64).reshape(shape[:batch] + (1,) * (len(shape) - batch)))
    d = (one.expand(shape) * scale) if batch else one
    if dt == "bool":
        return d != 0
    if dt.startswith("int"):
        return d.to(getattr(tl, dt))
    neg = tl.tensor((rng.random(shape) < 0.3).astype(np.bool_)) & (d == 0)
    d = tl.where(neg, tl.tensor(-0.0, dtype=tl.float64), d)
    if dt.startswith("complex"):
        d = d.to(tl.complex128) * tl.tensor(1 - 1j)
    return d.to(getattr(tl, dt))


def int32_indices(s):
    """s (compressed) with int32 indices."""
    ci, pi, v = tl._C._compressed_parts(s)
    return tl.sparse_compressed_tensor(ci.int(), pi.int(), v, s.shape, layout=s.layout)


BLOCK_DTYPES = ("float32", "float64", "complex64", "float16", "bool", "int32")
# (shape, batch dims, dense dims)
BLOCK_SHAPES = [((4, 6), 0, 0), ((6, 4), 0, 0), ((4, 6, 2), 0, 1), ((2, 4, 6), 1, 0), ((2, 3, 4, 2), 2, 0),
                ((3, 4, 6, 2), 1, 1), ((0, 6), 0, 0), ((4, 0), 0, 0), ((4, 6, 0), 0, 1)]


def grid_blocks():
    seed = 100
    for dt in BLOCK_DTYPES:
        for shape, bd, dd in BLOCK_SHAPES:
            seed += 1
            for density in (0.4, 0.0):
                d = signed(dt, shape, seed, density, batch=bd)
                M, N = shape[bd], shape[bd + 1]
                what = f"{dt} {shape} bd={bd} dd={dd} density={density}"
                for bs in ((1, 1), (2, 2), (1, 2), (2, 1), (2, 3)):
                    if M % bs[0] or N % bs[1]:
                        continue
                    for lay, name in ((tl.sparse_bsr, "bsr"), (tl.sparse_bsc, "bsc")):
                        w = f"{what} {name} {bs}"
                        to = getattr(tl.Tensor, f"to_sparse_{name}")
                        composed(f"dense to {w}", lambda d: to(d, bs, dense_dim=dd), d)
                        composed(f"dense to_sparse(layout) {w}", lambda d: d.to_sparse(layout=lay, blocksize=bs,
                                                                                       dense_dim=dd), d)
                        s = to(d, bs, dense_dim=dd)
                        for iname, x in (("", s), (" int32", int32_indices(s))):
                            ww = w + iname
                            composed(f"to_dense {ww}", lambda x: x.to_dense(), x)
                            composed(f"to_sparse_coo {ww}", lambda x: x.to_sparse_coo(), x)
                            composed(f"to_sparse {ww}", lambda x: x.to_sparse(), x)
                            composed(f"to_sparse_csr {ww}", lambda x: x.to_sparse_csr(), x)
                            composed(f"to_sparse_csc {ww}", lambda x: x.to_sparse_csc(), x)
                            composed(f"to_sparse_bsr {ww}", lambda x: x.to_sparse_bsr(bs), x)
                            composed(f"to_sparse_bsc {ww}", lambda x: x.to_sparse_bsc(bs), x)
                            composed(f"to_sparse_bsr (1, 2) {ww}", lambda x: x.to_sparse_bsr((1, 2)), x)
                            composed(f"to strided {ww}", lambda x: x.to_sparse(layout=tl.strided), x)
                    # the other layouts -> BSR/BSC
                    for name in ("bsr", "bsc"):
                        to = getattr(tl.Tensor, f"to_sparse_{name}")
                        w = f"{what} to {name} {bs}"
                        for src, make in (("csr", tl.Tensor.to_sparse_csr), ("csc", tl.Tensor.to_sparse_csc)):
                            s = make(d, dense_dim=dd)
                            composed(f"{src} {w}", lambda x: to(x, bs), s)
                            composed(f"{src} int32 {w}", lambda x: to(x, bs), int32_indices(s))
                        coo = d.to_sparse(d.dim() - dd)
                        composed(f"coo {w}", lambda x: to(x, bs), coo)
                        dup = tl.sparse_coo_tensor(tl.cat([coo._indices()] * 2, 1).flip(1),
                                                   tl.cat([coo._values()] * 2).flip(0), coo.shape)
                        composed(f"uncoalesced coo {w}", lambda x: to(x, bs), dup)
            # batches with different numbers of blocks: the CPU's error
            if bd:
                d = signed(dt, shape, seed, 0.5)
                composed(f"unequal batches {dt} {shape}", lambda d: d.to_sparse_bsr((2, 2), dense_dim=dd), d)
                composed(f"unequal batches csr {dt} {shape}", lambda d: d.to_sparse_csr(dense_dim=dd), d)
    # the plain layouts with batch and dense dims (the same kernels)
    for dt in BLOCK_DTYPES:
        for shape, bd, dd in BLOCK_SHAPES:
            d = signed(dt, shape, 7, batch=bd)
            for name in ("csr", "csc"):
                w = f"{dt} {shape} bd={bd} dd={dd} {name}"
                composed(f"dense to {w}", lambda d: getattr(d, f"to_sparse_{name}")(dense_dim=dd), d)
                s = getattr(d, f"to_sparse_{name}")(dense_dim=dd)
                for iname, x in (("", s), (" int32", int32_indices(s))):
                    composed(f"to_dense {w}{iname}", lambda x: x.to_dense(), x)
                    composed(f"to_sparse_coo {w}{iname}", lambda x: x.to_sparse_coo(), x)
                    composed(f"flip {w}{iname}", lambda x: x.to_sparse_csc() if name == "csr" else x.to_sparse_csr(),
                             x)


def grid_coo_stored():
    """COO with stored -0.0 and bool values: coalesce, to_dense, to CSR (the host kernels copy a
    sum's first entry, and copy, not add, into a strided tensor when the positions ascend)."""
    i = tl.tensor([[0, 0, 1, 1, 2], [1, 3, 0, 2, 2]])
    for dt in ("float32", "float64", "complex64", "float16", "bool", "int64"):
        v = signed(dt, (5,), 3, density=0.6)
        v = v if dt in ("bool", "int64") else tl.tensor([-0.0, 2.0, -0.0, 0.0, -1.0]).to(v.dtype)
        for what, s in (("sorted uncoalesced", tl.sparse_coo_tensor(i, v, (3, 4))),
                        ("coalesced", tl.sparse_coo_tensor(i, v, (3, 4), is_coalesced=True)),
                        ("duplicates", tl.sparse_coo_tensor(tl.cat([i, i], 1), tl.cat([v, v]), (3, 4))),
                        ("unsorted", tl.sparse_coo_tensor(i.flip(1), v, (3, 4))),
                        ("duplicates unsorted", tl.sparse_coo_tensor(tl.cat([i, i.flip(1)], 1), tl.cat([v, v.flip(0)]),
                                                                     (3, 4))),
                        ("empty", tl.sparse_coo_tensor(i[:, :0], v[:0], (3, 4))),
                        ("one", tl.sparse_coo_tensor(i[:, :1], v[:1], (3, 4)))):
            w = f"{dt} {what}"
            composed(f"coalesce {w}", lambda s: s.coalesce(), s)
            composed(f"to_dense {w}", lambda s: s.to_dense(), s)
            composed(f"to_sparse_csr {w}", lambda s: s.to_sparse_csr(), s)
            composed(f"to_sparse_csc {w}", lambda s: s.to_sparse_csc(), s)
            composed(f"to_sparse_bsr {w}", lambda s: s.to_sparse_bsr((1, 2)), s)
        d = signed(dt, (3, 4, 2), 4)
        composed(f"dense to_sparse(2) {dt}", lambda d: d.to_sparse(2), d)


def grid_coo_add():
    """COO + COO: sorted operands flagged uncoalesced (a user's sparse_coo_tensor) are merged on
    the device; the host kernel walks unsorted ones in their stored order: a round trip."""
    rng = np.random.default_rng(5)
    for dt in ("float32", "float64", "complex64", "float16", "int32", "int64"):
        for shape, sd in (((5, 6), 2), ((5, 6, 3), 2), ((5, 6, 3), 1), ((4, 3, 5), 3)):
            a, b = signed(dt, shape, 20 + sd).to_sparse(sd), signed(dt, shape, 30 + sd).to_sparse(sd)
            ua = tl.sparse_coo_tensor(a._indices(), a._values(), a.shape)  # sorted, flagged uncoalesced
            ub = tl.sparse_coo_tensor(b._indices(), b._values(), b.shape)
            fa = tl.sparse_coo_tensor(a._indices().flip(1), a._values().flip(0), a.shape)  # unsorted
            da = tl.sparse_coo_tensor(tl.cat([a._indices()] * 2, 1), tl.cat([a._values()] * 2), a.shape)
            # non-decreasing with duplicates (each entry twice, or a's three times and b's once)
            ra = tl.sparse_coo_tensor(a._indices().repeat_interleave(2, 1), a._values().repeat_interleave(2, 0),
                                      a.shape)
            rb = tl.sparse_coo_tensor(b._indices().repeat_interleave(3, 1), b._values().repeat_interleave(3, 0) * 2,
                                      b.shape)
            nv = tl.zeros_like(a._values()).neg() if dt[0] in "fc" else a._values()
            neg = tl.sparse_coo_tensor(a._indices(), nv, a.shape)
            w = f"{dt} {shape} sd={sd}"
            for what, x, y, trip in (("coalesced + coalesced", a, b, False), ("sorted + coalesced", ua, b, False),
                                     ("coalesced + sorted", a, ub, False), ("sorted + sorted", ua, ub, False),
                                     ("sorted + itself", ua, ua, False), ("-0.0 + sorted", neg, ub, False),
                                     ("-0.0 + -0.0", neg, neg, False),
                                     ("repeated + coalesced", ra, b, False), ("coalesced + repeated", a, rb, False),
                                     ("repeated + repeated", ra, rb, False), ("repeated + sorted", rb, ua, False),
                                     ("-0.0 + repeated", neg, ra, False),
                                     ("unsorted + coalesced", fa, b, True), ("sorted + duplicates", ub, da, True)):
                if x._nnz() == 0 or y._nnz() == 0:
                    trip = False
                composed(f"{what} {w}", lambda x, y: x + y, x, y, trip=trip)
                composed(f"{what} sub alpha {w}", lambda x, y: x.sub(y, alpha=2), x, y, trip=trip)
            composed(f"float64 + sorted {w}", lambda x, y: x + y, ua.double(), ub, trip=False)
    del rng


def grid_index_select():
    """index_select of COO tensors along a sparse dim (the plan of (entry, index position) pairs)
    and COO @ COO (which plans with it): on the device, the CPU's entries in the CPU's order."""
    for dt in ("float32", "complex64", "int64", "bool"):
        for shape, sd in (((5, 6), 2), ((5, 6, 3), 2), ((4, 3, 5), 3), ((7, 2), 1)):
            d = signed(dt, shape, 40 + sd, density=0.5)
            s = d.to_sparse(sd)
            dup = tl.sparse_coo_tensor(tl.cat([s._indices()] * 2, 1).flip(1), tl.cat([s._values()] * 2).flip(0),
                                       s.shape)
            for lname, x in (("coalesced", s), ("uncoalesced", dup), ("empty", d.zero_().to_sparse(sd))):
                for dim in range(sd):
                    n = shape[dim]
                    idx = {"all": list(range(n)), "reversed": list(range(n))[::-1], "duplicates": [1, 1, 0, n - 1, 1],
                           "negative": [-1, 0, -n], "empty": [], "long": [j % n for j in range(60)],
                           "out of range": [0, n], "below range": [-n - 1], "one": [n // 2]}
                    for iname, ix in idx.items():
                        composed(f"index_select {dt} {shape} sd={sd} {lname} dim={dim} {iname}",
                                 lambda x, i: x.index_select(dim, i), x, tl.tensor(ix, dtype=tl.int64))
    # big enough for the index-major order (nse * len(index) > 2**15)
    d = signed("float64", (300, 200), 50, density=0.3)
    index = tl.tensor(np.random.default_rng(1).integers(-300, 300, size=400))
    composed("index_select index-major", lambda x, i: x.index_select(0, i), d.to_sparse(), index)
    composed("index_select index-major dim 1", lambda x, i: x.index_select(1, i % 200), d.to_sparse(), index)
    for dt in ("float32", "float64", "complex64"):
        a, b = signed(dt, (5, 6), 60, 0.5).to_sparse(), signed(dt, (6, 4), 61, 0.5).to_sparse()
        composed(f"coo @ coo {dt}", lambda a, b: tl.mm(a, b), a, b)
        composed(f"coo @ uncoalesced coo {dt}", lambda a, b: tl.sparse.mm(a, b),
                 a, tl.sparse_coo_tensor(b._indices().flip(1), b._values().flip(0), b.shape))


def grid_other_dtypes():
    """dtypes without a device != 0 (float8, uint16-64): dense -> sparse keeps the round trip;
    the conversions that only move values compose."""
    for name in ("uint16", "uint32", "uint64", "float8_e4m3fn", "float8_e5m2"):
        d = tl.tensor(np.array([[1, 0, 2, 0], [0, 0, 3, 1]], dtype=np.float32)).to(getattr(tl, name))
        composed(f"dense to bsr {name}", lambda x: x.to_sparse_bsr((1, 2)), d, trip=True)
        composed(f"dense to csr {name}", lambda x: x.to_sparse_csr(), d, trip=True)
        for lname, s in (("bsr", d.to_sparse_bsr((1, 2))), ("csc", d.to_sparse_csc())):
            composed(f"{lname} to_dense {name}", lambda x: x.to_dense(), s)
            composed(f"{lname} to_sparse_coo {name}", lambda x: x.to_sparse_coo(), s)
            composed(f"{lname} flip {name}", lambda x: x.to_sparse_bsc((1, 2)) if lname == "bsr" else x.to_sparse_csr(),
                     s)

def grid_compositions():
    _count_trips()
    grid_blocks()
    grid_coo_stored()
    grid_coo_add()
    grid_index_select()
    grid_other_dtypes()


def main():
    for dt in FLOATS:
        grid_products(dt)
        grid_empty(dt)
    grid_layout_ops()
    grid_composed_ops()
    grid_constructors()
    grid_errors()
    grid_compositions()
    if not REAL:
        stand_in_checks()


if __name__ == "__main__":
    main()
    report(FAIL, COUNT[0])
