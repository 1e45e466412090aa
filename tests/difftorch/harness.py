import numpy as np, torch, tensorlib as tl, warnings, itertools, traceback
warnings.simplefilter("ignore")
rng = np.random.default_rng(0)
DT = ["float32","float64","int64","int32","uint8","int8","int16","bool","float16","bfloat16","complex64"]
def mk(shape, dt):
    a = rng.standard_normal(shape)*3
    if dt=="bool": a = a>0
    elif dt.startswith("complex"): a = (a + 1j*rng.standard_normal(shape)).astype(dt)
    elif dt in("uint8",): a=np.abs(a).astype(dt)
    elif dt.startswith("int"): a=a.astype(dt)
    elif dt=="bfloat16": a=a.astype("float32")
    else: a=a.astype(dt)
    t=torch.from_numpy(np.array(a))
    x=tl.from_numpy(np.array(a))
    if dt=="bfloat16": t=t.bfloat16(); x=x.bfloat16()
    return x,t
def conv(r):
    if isinstance(r,(tuple,list)): return [conv(v) for v in r]
    if isinstance(r,torch.Tensor):
        d=str(r.dtype).split('.')[-1]
        if r.dtype==torch.bfloat16: r=r.float()
        return ("T", d, tuple(r.shape), r.numpy())
    if isinstance(r,tl.Tensor):
        d=str(r.dtype).split('.')[-1]
        if d=="bfloat16": r=r.float()
        return ("T", d, tuple(r.shape), r.numpy())
    return r
def cmp(a,b,name):
    if isinstance(a,list):
        if not isinstance(b,list) or len(a)!=len(b): return f"len {a} {b}"
        for u,v in zip(a,b):
            m=cmp(u,v,name)
            if m: return m
        return None
    if isinstance(a,tuple) and a and a[0]=="T":
        if not(isinstance(b,tuple) and b and b[0]=="T"): return f"type {type(b)}"
        if a[1]!=b[1]: return f"dtype tl={a[1]} torch={b[1]}"
        if a[2]!=b[2]: return f"shape tl={a[2]} torch={b[2]}"
        x,y=a[3],b[3]
        if x.dtype.kind in "fc":
            tol = 1e-2 if a[1] in ("float16","bfloat16") else 1e-4
            if not np.allclose(x,y,rtol=tol,atol=tol,equal_nan=True): return f"values max diff {np.nanmax(np.abs(x-y)) if x.size else 0}"
        elif not np.array_equal(x,y): return "values differ"
        return None
    if a!=b and not (isinstance(a,float) and isinstance(b,float) and np.isclose(a,b)): return f"scalar {a} {b}"
    return None
def run(name, f, shapes=((3,4),(0,3),(),(2,3,4)), dts=DT, nin=1):
    out=[]
    for shp in shapes:
        for dt in dts:
            ins=[mk(shp,dt) for _ in range(nin)]
            xs=[i[0] for i in ins]; ts=[i[1] for i in ins]
            try: rt=("ok",conv(f(torch,*ts)))
            except Exception as e: rt=("err",type(e).__name__,str(e))
            try: rx=("ok",conv(f(tl,*xs)))
            except Exception as e: rx=("err",type(e).__name__,str(e))
            if rt[0]!=rx[0]:
                out.append(f"{name} {shp} {dt}: torch {rt[0]} {rt[1:] if rt[0]=='err' else ''} tl {rx[0]} {rx[1:] if rx[0]=='err' else ''}"[:300])
            elif rt[0]=="ok":
                m=cmp(rx[1],rt[1],name)
                if m: out.append(f"{name} {shp} {dt}: {m}"[:300])
            elif rt[1]!=rx[1]:
                out.append(f"{name} {shp} {dt}: exc type torch {rt[1]} tl {rx[1]}: {rt[2][:80]} | {rx[2][:80]}")
    return out
