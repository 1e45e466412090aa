"""Common tensorlib calls that must type-check cleanly (tests/test_stubs.py runs mypy over this file)."""
import numpy as np

import tensorlib as tl

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
