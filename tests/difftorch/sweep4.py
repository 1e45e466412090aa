import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import *
import numpy as np
bad=[]
DTS=["float32","float64","int64","int32","uint8","bool","float16","bfloat16","complex64"]
red = ["sum","prod","mean","nansum","nanmean","std","var","amax","amin","all","any","logsumexp","norm","count_nonzero"]
dims=[None,0,-1,(0,2),(),(-1,0),[1],(0,1,2)]
for op in red:
  for dt in DTS:
    for d in dims:
      for kd in (False,True):
        for layout in ("c","t"):
            a=(np.random.default_rng(1).standard_normal((3,4,5))*3)
            def f(L, a=a, dt=dt):
                x=L.from_numpy(a.copy())
                if dt=="bool": x=x>0
                else: x=x.to(getattr(L,dt))
                if layout=="t": x=x.permute(2,0,1)
                fn=getattr(L,op)
                if op=="count_nonzero":
                    return fn(x, dim=d) if d is not None else fn(x)
                if op=="logsumexp":
                    return fn(x, d if d is not None else (), keepdim=kd)
                if op=="norm":
                    return fn(x, dim=d, keepdim=kd)
                if d is None:
                    return fn(x)
                return fn(x, d, keepdim=kd)
            try: rt=("ok",conv(f(torch)))
            except Exception as e: rt=("err",type(e).__name__,str(e))
            try: rx=("ok",conv(f(tl)))
            except Exception as e: rx=("err",type(e).__name__,str(e))
            tag=f"{op} {dt} dim={d} kd={kd} {layout}"
            if rt[0]!=rx[0]: bad.append(f"{tag}: torch {rt[0]} {rt[1:] if rt[0]=='err' else ''} tl {rx[0]} {rx[1:] if rx[0]=='err' else ''}"[:300])
            elif rt[0]=="ok":
                m=cmp(rx[1],rt[1],"x")
                if m: bad.append(f"{tag}: {m}")
            elif rt[1]!=rx[1]: bad.append(f"{tag}: exc torch {rt[1]} tl {rx[1]}: {rt[2][:100]} | {rx[2][:100]}")
print(len(bad))
seen=set()
for b in bad:
    key=b.split(' dim=')[0]+b.split(':',1)[1][:60]
    if key in seen: continue
    seen.add(key); print(b)
