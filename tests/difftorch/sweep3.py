import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import *
import numpy as np
keys = [
 lambda L: (L.tensor([0,2,-1]),), lambda L: (slice(None), L.tensor([[0,1],[1,0]])), lambda L: (L.tensor([0,1]), slice(None), L.tensor([1,0])),
 lambda L: (L.tensor([True,False,True]),), lambda L: ([0,1], [1,2]), lambda L: (Ellipsis, [0,0,1]), lambda L: (None, [1], None, 0),
 lambda L: (L.tensor([[0],[1]]), L.tensor([0,1,2])), lambda L: (1, [0,2], slice(1,3)), lambda L: (L.tensor(1),), lambda L: (L.tensor([0,1]), 1, L.tensor([1,0])),
 lambda L: (slice(None,None,-1) if L is tl else slice(None),), lambda L: (L.zeros(3,4,dtype=L.bool),), lambda L: ([],), lambda L: (L.tensor([], dtype=L.long),),
 lambda L: ([[0,1],[2,2]], slice(None), 0), lambda L: (L.tensor([3]),), lambda L: (0, L.tensor([4])), lambda L: (L.tensor([0.]),),
 lambda L: (L.tensor([True, True]),), lambda L: (L.tensor([0,1], dtype=L.int32),), lambda L: (L.tensor([0,1], dtype=L.uint8),),
 lambda L: (L.tensor([[True, False, True, False]]*3),), lambda L: (slice(None), L.tensor([True,False,True,False])),
]
bad=[]
for i,k in enumerate(keys):
    if i==11: continue
    for dt in ["float32","int64","bool","complex64"]:
        a=np.arange(3*4*5).reshape(3,4,5).astype(dt if dt!="bool" else "int64")
        if dt=="bool": a=a%3==0
        def g(L, a=a, k=k):
            x = (tl if L is tl else torch).from_numpy(a.copy())
            return x[k(L)]
        def s(L, a=a, k=k):
            x = (tl if L is tl else torch).from_numpy(a.copy())
            x[k(L)] = x[k(L)].sum() if x.dtype!=L.bool else True
            return x
        def s2(L, a=a, k=k):
            x = (tl if L is tl else torch).from_numpy(a.copy())
            v = x[k(L)]
            x[k(L)] = v.flip(0) if v.dim() else v
            return x
        for nm,f in (("get",g),("set",s),("setflip",s2)):
            try: rt=("ok",conv(f(torch)))
            except Exception as e: rt=("err",type(e).__name__,str(e))
            try: rx=("ok",conv(f(tl)))
            except Exception as e: rx=("err",type(e).__name__,str(e))
            if rt[0]!=rx[0]: bad.append(f"key{i} {nm} {dt}: torch {rt[0]} {rt[1:] if rt[0]=='err' else ''} tl {rx[0]} {rx[1:] if rx[0]=='err' else ''}"[:300])
            elif rt[0]=="ok":
                m=cmp(rx[1],rt[1],"x")
                if m: bad.append(f"key{i} {nm} {dt}: {m}")
            elif rt[1]!=rx[1] or rt[2]!=rx[2]: bad.append(f"key{i} {nm} {dt}: exc torch {rt[1]} tl {rx[1]}: {rt[2][:100]} | {rx[2][:100]}")
print(len(bad))
for b in bad: print(b)
