import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import *
import numpy as np
bad=[]
def check(tag, f):
    try: rt=("ok",conv(f(torch)))
    except Exception as e: rt=("err",type(e).__name__,str(e))
    try: rx=("ok",conv(f(tl)))
    except Exception as e: rx=("err",type(e).__name__,str(e))
    if rt[0]!=rx[0]: bad.append(f"{tag}: torch {rt[0]} {rt[1:] if rt[0]=='err' else ''} tl {rx[0]} {rx[1:] if rx[0]=='err' else ''}"[:300])
    elif rt[0]=="ok":
        m=cmp(rx[1],rt[1],"x")
        if m: bad.append(f"{tag}: {m}")
    elif rt[1]!=rx[1]: bad.append(f"{tag}: exc torch {rt[1]} tl {rx[1]}: {rt[2][:100]} | {rx[2][:100]}")
A=np.arange(24.).reshape(2,3,4)
def T(L, dt="float32", shape=None):
    x=L.from_numpy(A.copy()).to(getattr(L,dt))
    return x if shape is None else x.reshape(shape)
cases = {
 "cat_dim-1": lambda L: L.cat([T(L), T(L)], -1), "cat_empty1d": lambda L: L.cat([T(L), L.tensor([])]), "cat_mixed_dtype": lambda L: L.cat([T(L), T(L,"int64")]),
 "cat_bad": lambda L: L.cat([T(L), T(L)[:, :2, :3]]), "cat_0d": lambda L: L.cat([L.tensor(1.)]), "cat_none": lambda L: L.cat([]),
 "stack_bad": lambda L: L.stack([T(L), T(L)[0]]), "stack_dim3": lambda L: L.stack([T(L), T(L)], 3), "stack_dim4": lambda L: L.stack([T(L), T(L)], 4),
 "split_sizes": lambda L: T(L).split([1,2], 1), "split_bad": lambda L: T(L).split([1,1], 1), "chunk5": lambda L: T(L).chunk(5, 2), "chunk0": lambda L: T(L).chunk(0),
 "tensor_split_idx": lambda L: T(L).tensor_split([1, 3], 2), "unbind": lambda L: T(L).unbind(1),
 "repeat": lambda L: T(L).repeat(2,1,1,2), "repeat_bad": lambda L: T(L).repeat(2,1), "tile_short": lambda L: T(L).tile((2,)),
 "roll_multi": lambda L: T(L).roll((1,-2),(0,2)), "roll_flat": lambda L: T(L).roll(5), "rot90_k3": lambda L: T(L).rot90(3,(1,2)), "rot90_bad": lambda L: T(L).rot90(1,(1,1)),
 "flip_multi": lambda L: T(L).flip(0,2), "flip_dup": lambda L: T(L).flip(0,0), "tril_k": lambda L: T(L).tril(-1), "triu_k": lambda L: T(L).triu(2),
 "diag_k": lambda L: L.diag(T(L)[0], 1), "diag_v": lambda L: L.diag(T(L)[0,0], -2), "diagonal_off": lambda L: T(L).diagonal(1, 2, 1),
 "diag_embed": lambda L: L.diag_embed(T(L), 1, 0, 2), "diagflat": lambda L: L.diagflat(T(L)[0], -1), "trace_bad": lambda L: T(L).trace(),
 "meshgrid_ij": lambda L: L.meshgrid(T(L)[0,0], T(L)[0,:,0], indexing="ij"), "bcast_to": lambda L: T(L).broadcast_to((5,2,3,4)),
 "bcast_bad": lambda L: T(L).broadcast_to((2,3,5)), "unfold_step": lambda L: T(L).unfold(2, 2, 2), "unfold_bad": lambda L: T(L).unfold(2, 5, 1),
 "repeat_interleave_t": lambda L: T(L).repeat_interleave(L.tensor([1,0,2]), dim=1), "repeat_interleave_bad": lambda L: T(L).repeat_interleave(L.tensor([1,2]), dim=1),
 "cross_dim": lambda L: L.cross(T(L,"float64",(2,4,3)), T(L,"float64",(2,4,3)).flip(0), dim=2), "renorm": lambda L: L.renorm(T(L), 2, 0, 5.0),
 "movedim_multi": lambda L: T(L).movedim((0,1),(2,0)), "flatten_bad": lambda L: T(L).flatten(2,0), "unflatten": lambda L: T(L).unflatten(2,(2,-1)),
 "take": lambda L: L.take(T(L), L.tensor([[0, 23],[5,-1]])), "take_bad": lambda L: L.take(T(L), L.tensor([24])),
 "index_select_bad": lambda L: T(L).index_select(1, L.tensor([3])), "index_select_f": lambda L: T(L).index_select(1, L.tensor([1.])),
 "gather_bad": lambda L: T(L).gather(1, L.zeros(2,4,4,dtype=L.long)), "scatter_reduce": lambda L: T(L).scatter_reduce(2, L.tensor([[[0,0,1,1]]*3]*2), T(L), "amax", include_self=False),
 "scatter_reduce_mean": lambda L: T(L).scatter_reduce(2, L.tensor([[[0,0,1,1]]*3]*2), T(L), "mean"),
 "scatter_val": lambda L: T(L).scatter(1, L.tensor([[[0,1,2,0]]]), 7.5, reduce="add"), "index_put_acc": lambda L: T(L).index_put_((L.tensor([0,0]),), L.tensor(1.), accumulate=True),
 "nonzero_tuple": lambda L: T(L).nonzero(as_tuple=True), "argwhere": lambda L: L.argwhere(T(L) > 10), "put_acc": lambda L: T(L).put_(L.tensor([0, 0]), L.tensor([1., 2.]), accumulate=True),
 "masked_scatter": lambda L: T(L).masked_scatter(T(L) > 5, T(L) * 10), "index_fill_t": lambda L: T(L).index_fill(2, L.tensor([0, 3]), L.tensor(-1.)),
 "index_copy": lambda L: T(L).index_copy(1, L.tensor([2, 0]), T(L)[:, :2]), "searchsorted_right": lambda L: L.searchsorted(L.tensor([1.,2.,3.]), L.tensor([2., 2.5]), right=True),
 "searchsorted_side": lambda L: L.searchsorted(L.tensor([1.,2.,3.]), L.tensor([2.]), side="right"), "searchsorted_sorter": lambda L: L.searchsorted(L.tensor([3.,1.,2.]), L.tensor([2.]), sorter=L.tensor([1,2,0])),
 "bucketize_int32": lambda L: L.bucketize(L.tensor([1, 5]), L.tensor([0, 2, 4]), out_int32=True),
 "histc_range": lambda L: L.histc(T(L), 4, 0, 10), "sort_stable_desc": lambda L: L.sort(L.tensor([1, 3, 1, 3, 2]), descending=True, stable=True),
 "unique_consec": lambda L: L.unique_consecutive(L.tensor([1,1,2,2,3,1]), return_inverse=True, return_counts=True),
 "argsort_dim0": lambda L: T(L).argsort(0, descending=True), "topk_smallest": lambda L: T(L).topk(2, 1, largest=False),
 "topk_bad": lambda L: T(L).topk(5, 1), "kthvalue_bad": lambda L: T(L).kthvalue(0, 1), "mode_int": lambda L: L.tensor([[1,2,2],[3,3,1]]).mode(1),
 "cumsum_dtype": lambda L: T(L,"int32").cumsum(1, dtype=L.float64), "cumprod_int": lambda L: T(L,"int8").cumprod(2), "cumsum_bool": lambda L: (T(L)>3).cumsum(0),
 "resize_": lambda L: T(L).resize_(3, 3), "resize_as_": lambda L: T(L).resize_as_(L.zeros(2, 2)),
 "clone_cl": lambda L: T(L,"float32",(1,2,3,4)).contiguous(memory_format=L.channels_last).clone().stride(),
 "add_cl": lambda L: (T(L,"float32",(1,2,3,4)).contiguous(memory_format=L.channels_last) + 1).stride(),
 "cat_cl": lambda L: L.cat([T(L,"float32",(1,2,3,4)).contiguous(memory_format=L.channels_last)]*2, 1).stride(),
}
for k,f in cases.items(): check(k,f)
print(len(bad))
for b in bad: print(b)
