"""A short tour of tensorlib: run with `bash scripts/demo.sh` (or `python examples/demo.py`
after an in-place build). Parts whose API has not landed yet are skipped with a note."""
import numpy as np

import tensorlib as tl


def section(title):
    print(f"\n== {title}")


section("create")
x = tl.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print("x =", x)
print("shape", tuple(x.shape), "dtype", x.dtype, "stride", x.stride())
print("arange:", tl.arange(6, dtype=tl.int64).tolist())
print("zeros(2, 2, dtype=bfloat16):", tl.zeros(2, 2, dtype=tl.bfloat16).tolist())
print("float8_e4m3fn round trip of 0.3:", tl.tensor([0.3]).to(tl.float8_e4m3fn).float().item())

section("type promotion")
if hasattr(tl, "promote_types"):
    print("promote_types(int32, float16) =", tl.promote_types(tl.int32, tl.float16))
if hasattr(tl, "result_type"):
    print("result_type(int tensor, 2.5) =", tl.result_type(tl.tensor([1, 2]), 2.5))
try:
    print("int64 tensor + float32 tensor ->", (tl.tensor([1, 2]) + tl.tensor([0.5, 0.5])).dtype)
except TypeError:
    print("(arithmetic operators not available yet)")

section("broadcast")
if hasattr(tl, "broadcast_shapes"):
    print("broadcast_shapes((3, 1), (1, 4)) =", tl.broadcast_shapes((3, 1), (1, 4)))
col = tl.tensor([[1], [2], [3]])
print("expand (3,1) -> (3,4), stride", col.expand(3, 4).stride(), ":", col.expand(3, 4).tolist())
try:
    print("col * row =", (col * tl.tensor([10, 20, 30, 40])).tolist())
except TypeError:
    print("(arithmetic operators not available yet)")

section("views share storage")
t = tl.arange(12, dtype=tl.float32).view(3, 4)
tt = t.t()
print("t.t() stride", tt.stride(), "contiguous?", tt.is_contiguous())
t[0, 1] = 100.0
print("after t[0, 1] = 100: t.t()[1, 0] =", tt[1, 0].item())
print("t[:, ::2] =", t[:, ::2].tolist())

section("NumPy round trip, zero copy")
a = np.arange(6, dtype=np.float32).reshape(2, 3)
ta = tl.from_numpy(a)
ta[0, 0] = 42.0
print("write through tensor is seen by NumPy:", a[0, 0])
back = ta.numpy()
print("same memory:", np.shares_memory(a, back), "| tensor.numpy() -> ndarray", back.dtype, back.shape)
print("tensor of a transposed NumPy view keeps its strides:", tl.from_numpy(a.T).stride())
