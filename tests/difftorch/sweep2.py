import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import *
two = {
 "cat": lambda L,a,b: L.cat([a,b]), "stack": lambda L,a,b: L.stack([a,b], -1), "hstack": lambda L,a,b: L.hstack([a,b]),
 "vstack": lambda L,a,b: L.vstack([a,b]), "dstack": lambda L,a,b: L.dstack([a,b]), "column_stack": lambda L,a,b: L.column_stack([a,b]),
 "where": lambda L,a,b: L.where(a.bool(), a, b), "maximum": lambda L,a,b: L.maximum(a,b) , "max2": lambda L,a,b: L.max(a,b),
 "dot": lambda L,a,b: L.dot(a.flatten(), b.flatten()), "outer": lambda L,a,b: L.outer(a.flatten(), b.flatten()),
 "matmul": lambda L,a,b: L.matmul(a, b.mT) if a.dim()>=2 else a*b, "mm": lambda L,a,b: L.mm(a.reshape(a.shape[0] if a.dim() else 1,-1), b.reshape(b.shape[0] if b.dim() else 1,-1).t()),
 "inner": lambda L,a,b: L.inner(a,b), "tensordot": lambda L,a,b: L.tensordot(a,b,dims=a.dim()), "vdot": lambda L,a,b: L.vdot(a.flatten(),b.flatten()),
 "cross": lambda L,a,b: L.cross(a[...,:3], b[...,:3], dim=-1) if a.dim() and a.shape[-1]>=3 else a,
 "take_along_dim": lambda L,a,b: L.take_along_dim(a, b.abs().long() % max(1, a.shape[-1] if a.dim() else 1), -1 if a.dim() else None) if a.numel() else a,
 "gather": lambda L,a,b: L.gather(a, -1 if a.dim() else 0, b.abs().long() % max(1, a.shape[-1] if a.dim() else 1)) if a.numel() else a,
 "scatter_add": lambda L,a,b: a.scatter_add(-1 if a.dim() else 0, b.abs().long() % max(1, a.shape[-1] if a.dim() else 1), a) if a.numel() else a,
 "index_add": lambda L,a,b: a.index_add(0, L.tensor([0]), a[:1]) if a.dim() and a.shape[0] else a,
 "masked_select": lambda L,a,b: L.masked_select(a, b.bool()), "masked_fill": lambda L,a,b: a.masked_fill(b.bool(), 1),
 "eq": lambda L,a,b: L.eq(a,b), "allclose": lambda L,a,b: L.allclose(a.double(),b.double()) if hasattr(L,"allclose") else None,
 "equal": lambda L,a,b: L.equal(a,b), "isclose": lambda L,a,b: L.isclose(a,b) if not a.dtype==L.bool else a,
 "atan2": lambda L,a,b: L.atan2(a,b), "fmod": lambda L,a,b: L.fmod(a,b) if a.is_floating_point() else a, "remainder": lambda L,a,b: L.remainder(a,b) if a.is_floating_point() else a,
 "pow": lambda L,a,b: L.pow(a.abs(), b) if a.dtype!=L.bool else a, "lerp": lambda L,a,b: L.lerp(a,b,0.3) if a.is_floating_point() else a,
 "bucketize": lambda L,a,b: L.bucketize(a, b.flatten().sort().values) if a.dtype not in (L.bool, L.complex64) else a,
 "meshgrid": lambda L,a,b: L.meshgrid(a.flatten(), b.flatten(), indexing="xy"), "broadcast_tensors": lambda L,a,b: L.broadcast_tensors(a, b[:1] if b.dim() else b),
 "tril_indices": lambda L,a,b: a, "addmm": lambda L,a,b: L.addmm(a, a, b.t()) if a.dim()==2 and a.shape[0]==a.shape[1] else a,
 "logaddexp": lambda L,a,b: L.logaddexp(a,b) if a.is_floating_point() else a, "hypot": lambda L,a,b: L.hypot(a,b) if a.is_floating_point() else a,
 "copysign": lambda L,a,b: L.copysign(a,b) if a.dtype!=L.complex64 else a, "floor_divide": lambda L,a,b: L.floor_divide(a, b) if a.is_floating_point() else a,
 "bitwise_xor": lambda L,a,b: a ^ b if not a.is_floating_point() and not a.is_complex() else a, "shift": lambda L,a,b: a << 1 if a.dtype in (L.int32,L.int64,L.int16) else a,
}
bad=[]
for n,f in two.items():
    bad+=run(n,f,nin=2, shapes=((3,3),(0,3),(),(2,3,4)))
print(len(bad))
for b in bad: print(b)
