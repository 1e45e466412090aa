"""Common tensorlib calls that must type-check cleanly (tests/test_stubs.py runs mypy over this file)."""
import numpy as np

import tensorlib as tl
import tensorlib.array_api as xp

x: tl.Tensor = tl.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=tl.float64)
y = tl.zeros(2, 2) + 1
z = tl.ones((2, 2), dtype=tl.float64, device="cpu")
w = x * 2 + y / 3 - z @ x
w = -w ** 2 % 5
mask: tl.Tensor = (x > 1) & (x != 3)
s: tl.Tensor = x.sum(dim=0, keepdim=True)
s = tl.sum(x, dim=(0, 1))
m = x.mean(dim=-1).abs().sqrt()
sol: tl.Tensor = tl.linalg.solve(x, tl.tensor([1.0, 2.0], dtype=tl.float64))
spec: tl.Tensor = tl.fft.rfft(tl.arange(8.0))
row: tl.Tensor = x[0]
elem = x[0, 1:]
x[mask] = 0.0
shape: tl.Size = x.shape
n: int = x.ndim + x.dim() + x.numel() + shape[0]
dt: tl.dtype = x.dtype
dev: tl.device = x.device
arr: np.ndarray = x.numpy()
flag: bool = bool(x.is_contiguous()) and tl.is_tensor(x)
v = float(x[0, 0]) + x[1, 1].item()
parts = [p.reshape(-1) for p in x]
t2 = x.t().contiguous().view(4).to(tl.float32)
c = tl.cat([x, y.to(tl.float64)], dim=0)
p2: tl.Tensor = tl.transpose(x, 0, 1).permute(1, 0).clone().squeeze(0).unsqueeze(-1).transpose_(0, 1)
tl.set_default_dtype(tl.float64)
tl.set_default_dtype(tl.float32)
default: tl.dtype = tl.get_default_dtype()
r = tl.arange(6).reshape(2, 3).float().to(tl.float64).double().mean(dim=1)


def more_calls() -> None:
    """Everyday calls from the tutorials, each one typed as torch users write them."""
    x = tl.tensor([[1.0, 2.0], [3.0, 4.0]])
    c = x > 2
    a1 = tl.where(c, 1.0, x)
    a2 = tl.where(c, x, 0.0)
    a3 = tl.pow(2, x) + tl.pow(x, 2) + 2 ** x + 1 - x
    a4 = tl.clamp(x, min=0) + x.clamp(max=3.0) + x.clip(0, 1)
    a5 = tl.full((2,), 1.5) + tl.tensor(3) + tl.zeros_like(x) + tl.ones_like(x, dtype=tl.float32)
    a6 = x.view(-1).view(2, 2).view(tl.int32)
    a7 = x.expand(2, 2) + x.expand_as(x) + tl.einsum("ij->ji", x) + tl.matmul(x, x) + tl.mm(x, x)
    ok: bool = tl.allclose(x, x) and tl.equal(x, x)
    vals = tl.max(x, dim=0).values + tl.sort(x).indices + x.max() + x.max(dim=1)[0]
    g = tl.Generator()
    g.manual_seed(0)
    r = tl.randn(2, 3, generator=g) + tl.rand(2, 3) + tl.randint(0, 5, (2, 3))
    tl.manual_seed(0)
    m = tl.isclose(x, x) | tl.maximum(x, x).bool()
    st = tl.stack([x, x]) + tl.cat((x, x)).sum()
    n0: int = x.size(0) + len(x) + x.shape[1] + x.size()[0]
    lst = x.tolist()
    arr = np.asarray(x) + x.numpy()
    fn = tl.from_numpy(np.zeros(3)) + tl.as_tensor([1, 2, 3])
    ix = x.index_select(0, tl.tensor([0])) + tl.sum(x, 0) + tl.mean(x, dim=[0, 1])
    with tl.no_grad():
        y = x * 2
    nrm = tl.linalg.norm(x) + tl.linalg.inv(x).sum() + tl.linalg.det(x)
    ff = tl.fft.fft(x) + tl.fft.ifft(tl.fft.fft(x))
    cv = x.to("cpu") + x.to(device="cpu", dtype=tl.float32) + x.cpu() + x.type(tl.float64)
    nm = tl.ones(2, 3, names=("N", "C")).rename("A", "B").sum("A")
    sp = x.to_sparse().to_dense() + tl.sparse_coo_tensor(tl.tensor([[0], [1]]), tl.tensor([1.0]), (2, 2))
    itm: float = x[0, 0].item()
    bl = x.argmax() + x.argsort(dim=1) + x.topk(1).values + x.cumsum(0) + x.std() + x.var(dim=0)
    sq = x.unsqueeze(0).squeeze() + x.flatten().reshape(2, 2) + x.permute(1, 0) + x.T + x.mT
    ii = x[..., 0] + x[:, None, 0].squeeze(1) + x[tl.tensor([0, 1])] + x[x > 1].sum() + x[[0, 1]]
    x[0] = tl.tensor([5.0, 6.0])
    x[0, 0] = 1
    x += 1
    x *= x
    dt = x.dtype.is_floating_point and x.is_floating_point() and tl.is_floating_point(x)
    e = tl.empty(2, 3, dtype=tl.int64).fill_(3).float().abs_()
    lin = tl.linspace(0, 1, 5) + tl.logspace(0, 1, 5) + tl.eye(5)[0] + tl.arange(5)
    fi: float = tl.finfo(tl.float32).eps
    ii2: int = tl.iinfo(tl.int32).max
    p = tl.promote_types(tl.int32, tl.float32)
    dev = tl.device("cpu")
    t3 = tl.tensor([1, 2], device=dev)
    pi2 = tl.pi * 2 + tl.e


more_calls()
xa = xp.asarray([1.0, 2.0])
xs: tl.Tensor = xp.sum(xa, axis=0) + xp.linalg.vector_norm(xa) + xp.concat([xa, xa])[0]
