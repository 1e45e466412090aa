import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import *
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'sweep5.py')).read().split("cases = {")[0].split("import numpy as np",1)[1])
R=np.random.default_rng(3)
def M(L, shape, dt="float32", seed=0):
    a=np.random.default_rng(seed).integers(-3,4,size=shape).astype("float64")
    x=L.from_numpy(a).to(getattr(L,dt))
    return x
cases={}
for dt in ["float32","float64","int64","int32","float16","bfloat16","complex64","uint8","int8","bool"]:
    cases.update({
     f"mm {dt}": lambda L,dt=dt: L.mm(M(L,(3,4),dt), M(L,(4,5),dt,1)),
     f"mm_t {dt}": lambda L,dt=dt: L.mm(M(L,(4,3),dt).t(), M(L,(5,4),dt,1).t()),
     f"bmm {dt}": lambda L,dt=dt: L.bmm(M(L,(2,3,4),dt), M(L,(2,4,5),dt,1)),
     f"matmul_bcast {dt}": lambda L,dt=dt: L.matmul(M(L,(2,1,3,4),dt), M(L,(5,4,2),dt,1)),
     f"matmul_vec {dt}": lambda L,dt=dt: L.matmul(M(L,(4,),dt), M(L,(2,4,3),dt,1)),
     f"matmul_mv {dt}": lambda L,dt=dt: L.matmul(M(L,(2,3,4),dt), M(L,(4,),dt,1)),
     f"mv {dt}": lambda L,dt=dt: L.mv(M(L,(3,4),dt), M(L,(4,),dt,1)),
     f"dot {dt}": lambda L,dt=dt: L.dot(M(L,(4,),dt), M(L,(4,),dt,1)),
     f"vdot {dt}": lambda L,dt=dt: L.vdot(M(L,(4,),dt), M(L,(4,),dt,1)),
     f"outer {dt}": lambda L,dt=dt: L.outer(M(L,(4,),dt), M(L,(3,),dt,1)),
     f"addmm {dt}": lambda L,dt=dt: L.addmm(M(L,(3,5),dt,2), M(L,(3,4),dt), M(L,(4,5),dt,1), beta=2, alpha=3),
     f"addmv {dt}": lambda L,dt=dt: L.addmv(M(L,(3,),dt,2), M(L,(3,4),dt), M(L,(4,),dt,1), beta=0),
     f"addr {dt}": lambda L,dt=dt: L.addr(M(L,(3,4),dt,2), M(L,(3,),dt), M(L,(4,),dt,1)),
     f"baddbmm {dt}": lambda L,dt=dt: L.baddbmm(M(L,(2,3,5),dt,2), M(L,(2,3,4),dt), M(L,(2,4,5),dt,1), alpha=2),
     f"addbmm {dt}": lambda L,dt=dt: L.addbmm(M(L,(3,5),dt,2), M(L,(2,3,4),dt), M(L,(2,4,5),dt,1)),
     f"einsum {dt}": lambda L,dt=dt: L.einsum("bij,bjk->bik", M(L,(2,3,4),dt), M(L,(2,4,5),dt,1)),
     f"einsum_tr {dt}": lambda L,dt=dt: L.einsum("ii", M(L,(4,4),dt)),
     f"einsum_outer {dt}": lambda L,dt=dt: L.einsum("i,j->ij", M(L,(4,),dt), M(L,(3,),dt,1)),
     f"tensordot {dt}": lambda L,dt=dt: L.tensordot(M(L,(2,3,4),dt), M(L,(4,3,5),dt,1), dims=([1,2],[1,0])),
     f"inner {dt}": lambda L,dt=dt: L.inner(M(L,(2,4),dt), M(L,(3,4),dt,1)),
     f"mm_empty {dt}": lambda L,dt=dt: L.mm(M(L,(3,0),dt), M(L,(0,5),dt,1)),
    })
cases.update({
 "mm_bad": lambda L: L.mm(M(L,(3,4)), M(L,(5,4))), "matmul_bad": lambda L: L.matmul(M(L,(2,3,4)), M(L,(3,5,4))),
 "mm_mixed": lambda L: L.mm(M(L,(3,4)), M(L,(4,5),"float64")), "dot_bad": lambda L: L.dot(M(L,(4,)), M(L,(3,))),
 "bmm_bad": lambda L: L.bmm(M(L,(2,3,4)), M(L,(3,4,5))), "mv_bad": lambda L: L.mv(M(L,(3,4)), M(L,(3,))),
 "matmul_0d": lambda L: L.matmul(M(L,()), M(L,(3,))), "einsum_bad": lambda L: L.einsum("ij,jk", M(L,(2,3)), M(L,(4,5))),
 "dot_mixed": lambda L: L.dot(M(L,(4,)), M(L,(4,),"float64")),
})
for k,f in cases.items(): check(k,f)
print(len(bad))
for b in bad: print(b)
