import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import *
ops = {
 "sum": lambda L,x: L.sum(x), "sum0": lambda L,x: x.sum(0) if x.dim() else x.sum(), "prod": lambda L,x: x.prod(),
 "mean": lambda L,x: x.mean(), "nansum": lambda L,x: x.nansum(), "std": lambda L,x: x.std(), "var-1": lambda L,x: x.var(-1) if x.dim() else x.var(),
 "max": lambda L,x: x.max(), "maxd": lambda L,x: x.max(-1) if x.dim() else x.max(0), "amin": lambda L,x: x.amin(),
 "argmax": lambda L,x: x.argmax(), "argmin0": lambda L,x: x.argmin(0) if x.dim() else x.argmin(),
 "median": lambda L,x: x.median(), "mediand": lambda L,x: x.median(-1) if x.dim() else x.median(0),
 "mode": lambda L,x: x.mode(-1) if x.dim() else x.mode(), "kth": lambda L,x: x.kthvalue(1, 0) if x.dim() else x.kthvalue(1),
 "logsumexp": lambda L,x: L.logsumexp(x, -1) if x.dim() else L.logsumexp(x,0), "all": lambda L,x: x.all(), "any0": lambda L,x: x.any(0) if x.dim() else x.any(),
 "count_nonzero": lambda L,x: L.count_nonzero(x), "cumsum": lambda L,x: x.cumsum(0) if x.dim() else x.cumsum(0), "cumprod": lambda L,x: x.cumprod(-1) if x.dim() else x.cumprod(0),
 "cummax": lambda L,x: x.cummax(0) if x.dim() else x.cummax(0), "norm": lambda L,x: x.norm(), "norm1": lambda L,x: x.norm(1),
 "sort": lambda L,x: x.sort(), "argsort": lambda L,x: x.argsort(descending=True, stable=True) if x.dim() else x.argsort(), "topk": lambda L,x: x.topk(min(2, x.shape[-1] if x.dim() else 1)) ,
 "unique": lambda L,x: L.unique(x, return_inverse=True, return_counts=True), "flip": lambda L,x: x.flip(0) if x.dim() else x.flip(()),
 "roll": lambda L,x: x.roll(1, 0) if x.dim() else x.roll(1), "tril": lambda L,x: x.tril(), "diag": lambda L,x: L.diag(x) if x.dim()<=2 else L.diag(x[0]),
 "trace": lambda L,x: x.trace(), "nonzero": lambda L,x: x.nonzero(), "histc": lambda L,x: L.histc(x, 5),
 "aminmax": lambda L,x: L.aminmax(x), "nanmean": lambda L,x: x.nanmean(), "var_mean": lambda L,x: L.var_mean(x, 0) if x.dim() else L.var_mean(x),
 "std_mean": lambda L,x: L.std_mean(x, correction=0), "nanmedian": lambda L,x: x.nanmedian(), "msort": lambda L,x: L.msort(x) if hasattr(L,'msort') else None,
 "repeat_interleave": lambda L,x: x.repeat_interleave(2), "tile": lambda L,x: x.tile((2,)), "rot90": lambda L,x: x.rot90() if x.dim()>=2 else x.flip(0) if x.dim() else x,
 "unfold": lambda L,x: x.unfold(0,2,1) if x.dim() and x.shape[0]>=2 else x, "diag_embed": lambda L,x: L.diag_embed(x), "clone": lambda L,x: x.clone(),
 "searchsorted": lambda L,x: L.searchsorted(x.flatten().sort().values, x) if x.dtype != L.bool and not x.is_complex() else x,
 "bucketize": lambda L,x: L.bucketize(x, L.tensor([-1.,0.,1.]).to(x.dtype)) if x.dtype != L.bool and not x.is_complex() else x,
}
bad=[]
for n,f in ops.items():
    bad+=run(n,f)
print(len(bad))
for b in bad: print(b)
