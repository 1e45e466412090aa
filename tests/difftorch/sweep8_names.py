"""sweep8_names: dimension-name propagation and name errors against torch 1.13.

torch 2.13 dropped named tensors, so the oracle here is Debian's torch 1.13 under
/usr/bin/python3 (`apt-get install -y python3-torch python3-numpy`). Every case is a
Python expression (or statements assigning `r`) over a module `M` and a fresh set of
named inputs; it runs once in a /usr/bin/python3 subprocess with M=torch and once here
with M=tensorlib. Both sides report outcome (ok/raise), exception type and message, and
for tensor results names, shape and dtype. Printed: every difference in outcome and names
(shape too); dtype differences only with --dtype (torch 2.13, not 1.13, is the authority
on dtypes); error-message differences only where torch 1.13's message is about names.

    PYTHONPATH=. python3 tests/difftorch/sweep8_names.py [--dtype] [--all-msgs] [FILTER]

Cases where torch 1.13 raises "not supported with named tensors" are listed separately
(tensorlib may deliberately support names there, see docs/named.md).
"""
import json, subprocess, sys

RUNNER = r'''
import json, sys, warnings
warnings.simplefilter("ignore")
def setup(M):
    f = M.float32
    def T(*shape, names=None, dtype=None):
        n = 1
        for s in shape: n *= s
        t = M.arange(n, dtype=dtype or f).reshape(*shape)
        if dtype is None or dtype == f:
            t = (t * 0.37 + 1) % 5 - 2
        return t.refine_names(*names) if names else t
    e = dict(M=M, T=T)
    e["x"] = T(2, 3, 4, names=("N", "C", "H"))
    e["xp"] = T(2, 3, 4, names=("N", None, "H"))
    e["xu"] = T(2, 3, 4)
    e["b"] = e["x"] > 0
    e["bp"] = e["xp"] > 0
    e["a"] = T(3, 4, names=("N", "D"))
    e["a2"] = T(4, 5, names=("in", "out"))
    e["ap"] = T(3, 4, names=(None, "D"))
    e["v"] = T(4, names=("D",))
    e["v2"] = T(4, names=("E",))
    e["v5"] = T(5, names=("K",))
    e["v3"] = T(3, names=("N",))
    e["bt"] = T(2, 3, 4, names=("B", "N", "D"))
    e["bt2"] = T(2, 4, 5, names=("B", "in", "out"))
    e["b4"] = T(2, 2, 3, 4, names=("A", "B", "C", "D"))
    e["b3"] = T(2, 4, 5, names=("B", "E", "F"))
    e["i2"] = M.tensor([0, 2])
    e["in2"] = M.tensor([0, 2]).refine_names("C")
    e["g"] = (M.arange(24).reshape(2, 3, 4) % 3).refine_names("N", "C", "H")
    e["gu"] = M.arange(24).reshape(2, 3, 4) % 3
    e["sq"] = T(2, 1, 4, names=("N", "C", "H"))
    e["s0"] = T(names=None) if False else M.tensor(2.0)
    return e
def desc(r):
    if isinstance(r, (tuple, list)):
        return ["seq", [desc(v) for v in r]]
    if hasattr(r, "names") and hasattr(r, "shape"):
        return ["T", list(r.names), list(r.shape), str(r.dtype).split(".")[-1]]
    if isinstance(r, (int, float, bool, str)) or r is None:
        return ["v", r]
    return ["o", type(r).__name__]
def run(M, cases):
    res = []
    for c in cases:
        e = setup(M)
        try:
            try:
                code = compile(c, "<case>", "eval")
                r = eval(code, e)
            except SyntaxError:
                exec(compile(c, "<case>", "exec"), e)
                r = e.get("r")
            res.append(["ok", desc(r)])
        except Exception as ex:
            res.append(["err", type(ex).__name__, str(ex).split("\n")[0][:400]])
    return res
'''

TORCH_MAIN = RUNNER + r'''
import torch
cases = json.load(sys.stdin)
json.dump(run(torch, cases), sys.stdout)
'''

RED_DIM = ["sum", "nansum", "mean", "nanmean", "std", "var", "std_mean", "var_mean", "logsumexp",
           "amin", "amax", "count_nonzero", "norm"]
RED_1 = ["prod", "argmin", "argmax", "median", "nanmedian", "mode", "min", "max", "all", "any",
         "aminmax", "cumsum", "cumprod", "cummax", "cummin", "sort", "argsort", "logsumexp",
         "softmax", "log_softmax", "kthvalue", "topk"]
FULL = ["sum", "nansum", "prod", "mean", "nanmean", "std", "var", "std_mean", "var_mean", "min",
        "max", "amin", "amax", "aminmax", "argmin", "argmax", "median", "nanmedian", "all", "any",
        "count_nonzero", "norm", "logsumexp"]
NEEDS_DIM_ARG = {"softmax", "log_softmax", "cumsum", "cumprod", "cummax", "cummin", "logsumexp"}
EXTRA = {"kthvalue": "2, ", "topk": "2, "}
NO_KEEPDIM = {"cumsum", "cumprod", "cummax", "cummin", "sort", "argsort", "softmax", "log_softmax",
              "topk", "count_nonzero"}
BOOLIN = {"all", "any"}


def cases():
    cs = []
    # full reductions
    for op in FULL:
        inp = "b" if op in BOOLIN else "x"
        cs += [f"{inp}.{op}()", f"M.{op}({inp})"]
        if op in ("logsumexp",):
            cs.pop(); cs.pop()
    # reductions with a single dim
    for op in sorted(set(RED_1) | set(RED_DIM)):
        ex = EXTRA.get(op, "")
        for inp in (["b", "bp"] if op in BOOLIN else ["x", "xp"]):
            for d in ["1", "'C'", "-1", "'H'", "'Z'", "0"]:
                if inp == "xp" and d not in ("1", "'H'", "'Z'"):
                    continue
                if op in ("kthvalue", "topk"):
                    call = f"{op}({ex}{d})"
                else:
                    call = f"{op}({d})"
                cs += [f"{inp}.{call}", f"M.{op}({inp}, {ex}{d})"]
                if op not in NO_KEEPDIM:
                    cs.append(f"{inp}.{op}({ex}{d}, keepdim=True)")
                if op == "topk":
                    cs.append(f"{inp}.topk(2, dim={d})")
                    cs.append(f"{inp}.topk(2, dim={d}, sorted=False)")
                if op in ("sort", "argsort"):
                    cs.append(f"{inp}.{op}({d}, descending=True)")
            cs.append(f"{inp}.{op}(dim='C')" if op not in ("kthvalue", "topk") else f"{inp}.{op}(1, dim='C')")
    # multi-dim reductions
    for op in RED_DIM:
        for d in ["('N', 'C')", "('N', 'H')", "['C']", "(0, 'H')", "('N', 'Z')", "()", "('C', 'C')"]:
            if op == "norm":
                cs += [f"x.norm(2, {d})", f"x.norm(dim={d}, keepdim=True)", f"x.norm(p='fro', dim={d})"]
                continue
            cs += [f"x.{op}({d})", f"x.{op}({d}, keepdim=True)", f"M.{op}(xp, {d})"]
    cs += ["x.std('C', unbiased=False)", "x.var('C', correction=0)", "M.std_mean(x, 'C', correction=0)",
           "M.var_mean(x, ('N', 'H'), unbiased=True, keepdim=True)", "x.sum('C', dtype=M.float64)",
           "x.prod('C', dtype=M.float64)", "x.mean(dtype=M.float64)", "x.cumsum('C', dtype=M.float64)",
           "x.sum(dim=('N', 'C'))", "x.norm(p=1)", "x.norm(p=float('inf'), dim='C')", "x.norm(p='nuc', dim=('C', 'H'))",
           "x.logsumexp(('N', 'C'))", "x.logsumexp(('N', 'C'), keepdim=True)",
           "x.max(xp)", "M.max(x, xu)", "M.min(x, x.rename('N', 'C', 'W'))", "M.maximum(x, xp)",
           "x.max(dim='C').values", "x.max(dim='C').indices", "x.median('C')[1]", "x.sort('C').indices",
           "M.max(x, 'C', True)", "x.count_nonzero(('N', 'C'))", "x.count_nonzero(dim='H')"]
    # out= and in-place reductions
    cs += ["r = M.sum(x, 'C', out=M.empty(2, 4))", "r = M.sum(x, 'C', out=M.empty(2, 4, names=('N', 'H')))",
           "r = M.sum(x, 'C', out=M.empty(2, 4, names=('N', 'Z')))", "r = M.sum(x, 'C', out=M.empty(2, 4, names=('N', None)))",
           "r = M.mean(x, 'C', out=M.empty(2, 4, names=('N', 'H')))", "r = M.prod(x, 1, out=M.empty(2, 4, names=('X', 'H')))",
           "r = M.cumsum(x, 'C', out=M.empty(2, 3, 4))", "r = M.cumsum(x, 'C', out=M.empty(2, 3, 4, names=('N', 'C', 'X')))",
           "o = (M.empty(2, 4), M.empty(2, 4, dtype=M.long)); r = M.max(x, 'C', out=o)",
           "o = (M.empty(2, 4, names=('N', 'H')), M.empty(2, 4, dtype=M.long)); r = M.max(x, 'C', out=o)",
           "o = (M.empty(2, 4, names=('N', 'Q')), M.empty(2, 4, dtype=M.long)); r = M.max(x, 'C', out=o)",
           "o = (M.empty(2, 4), M.empty(2, 4, dtype=M.long)); r = M.sort(x, 'C', out=o)",
           "o = (M.empty(2, 3, 4), M.empty(2, 3, 4, dtype=M.long)); r = M.sort(x, 'C', out=o)",
           "o = (M.empty(2, 3, 4), M.empty(2, 3, 4, dtype=M.long)); r = M.cummax(x, 'C', out=o)",
           "o = (M.empty(2, 4), M.empty(2, 4, dtype=M.long)); r = M.median(x, 'C', out=o)",
           "o = (M.empty(2, 4), M.empty(2, 4, dtype=M.long)); r = M.kthvalue(x, 1, 'C', out=o)",
           "o = (M.empty(2, 4), M.empty(2, 4, dtype=M.long)); r = M.mode(x, 'C', out=o)",
           "o = (M.empty(2, 2, 4), M.empty(2, 2, 4, dtype=M.long)); r = M.topk(x, 2, 'C', out=o)",
           "r = M.argmax(x, 'C', out=M.empty(2, 4, dtype=M.long))", "r = M.amax(x, 'C', out=M.empty(2, 4, names=('N', 'H')))",
           "r = M.logsumexp(x, 'C', out=M.empty(2, 4))", "r = M.std(x, 'C', out=M.empty(2, 4))",
           "r = M.all(b, 'C', out=M.empty(2, 4, dtype=M.bool))", "r = M.any(b, out=M.empty((), dtype=M.bool))",
           "r = M.norm(x, 2, 'C', out=M.empty(2, 4))", "r = M.sum(x, out=M.empty(()))",
           "r = x.clone(); r.cumsum_('C')", "r = xu.clone(); r.cumsum_(1)", "r = x.clone(); r.cumprod_(1)",
           "r = xu.clone(); r.copy_(x)", "r = x.clone(); r.copy_(xu)", "r = x.clone(); r.copy_(x.rename('A', 'C', 'H'))",
           "r = x.clone(); r.zero_()", "r = xu.clone(); r.add_(x)", "r = xu.clone(); r += x"]
    # indexing
    cs += ["x.index_select(1, i2)", "x.index_select('C', i2)", "x.index_select('Z', i2)", "x.index_select('C', in2)",
           "M.index_select(x, 'C', i2)", "xp.index_select(1, i2)", "r = M.index_select(x, 'C', i2, out=M.empty(2, 2, 4))",
           "r = M.index_select(x, 'C', i2, out=M.empty(2, 2, 4, names=('N', 'C', 'Q')))",
           "x.index_fill(1, i2, 0.)", "x.index_fill('C', i2, 0.)", "x.index_fill('C', i2, M.tensor(0.))",
           "r = x.clone(); r.index_fill_('C', i2, 0.)", "r = xu.clone(); r.index_fill_(1, i2, 0.)",
           "x.index_add(1, i2, x[:, :2])", "x.index_add('C', i2, xu[:, :2])", "x.index_add(1, i2, x.rename(None)[:, :2], alpha=2)",
           "r = x.clone(); r.index_add_('C', i2, xu[:, :2])",
           "x.index_copy(1, i2, xu[:, :2])", "x.index_copy('C', i2, xu[:, :2])", "r = x.clone(); r.index_copy_('C', i2, xu[:, :2])",
           "x.gather(1, gu)", "x.gather('C', gu)", "x.gather(1, g)", "xu.gather(1, g)", "M.gather(x, 'H', gu)", "x.gather(2, g[:, :, :2])",
           "r = M.gather(x, 1, gu, out=M.empty(2, 3, 4))",
           "x.scatter(1, gu, 1.)", "x.scatter('C', gu, xu)", "x.scatter(1, g, x)", "xu.scatter(1, g, x)", "x.scatter(1, gu, 1., reduce='add')",
           "r = x.clone(); r.scatter_(1, gu, 1.)", "r = xu.clone(); r.scatter_(1, g, x)",
           "x.scatter_add(1, gu, xu)", "x.scatter_add('C', gu, x)", "xu.scatter_add(1, gu, x)", "r = x.clone(); r.scatter_add_('C', gu, xu)",
           "x.scatter_reduce(1, gu, xu, 'sum')",
           "x.take(M.tensor([0, 5]))", "M.take(x, M.tensor([[0, 5]]))", "x.take(M.tensor([0, 5]).refine_names('K'))",
           "xu.take(M.tensor([0, 5]).refine_names('K'))",
           "x.masked_select(b)", "M.masked_select(x, b.rename(None))", "xu.masked_select(b)", "x.masked_select(b[0, 0])",
           "x.masked_select(b.rename('N', 'Z', 'H'))", "x.masked_select(b[0].rename('C', 'H'))", "x.masked_select(b[0, 0].rename('C'))",
           "x.masked_select(bp)", "xp.masked_select(b)", "a.masked_select(M.tensor([True, False, True, True]).refine_names('D'))",
           "r = M.masked_select(x, b, out=M.empty(0))",
           "x.masked_fill(b, 0.)", "x.masked_fill(b.rename(None), 0.)", "xu.masked_fill(b, 0.)", "x.masked_fill(b.rename('N', 'Z', 'H'), 0.)",
           "x.masked_fill(b[0, 0], 0.)", "x.masked_fill(b[0, 0].rename('C'), 0.)", "x.masked_fill(b[0].rename('C', 'H'), 0.)",
           "x.masked_fill(b, M.tensor(1.))", "x.masked_fill(b, M.tensor(1.).refine_names())",
           "r = x.clone(); r.masked_fill_(b, 0.)", "r = xu.clone(); r.masked_fill_(b, 0.)", "r = x.clone(); r.masked_fill_(b.rename('N', 'Z', 'H'), 0.)",
           "x.nonzero()", "M.nonzero(x)", "x.nonzero(as_tuple=True)", "M.argwhere(x)", "b.nonzero()",
           "M.where(b, x, xu)", "M.where(b, x, 0.)", "M.where(b.rename(None), xu, x)", "M.where(b, x, x.rename('N', 'Z', 'H'))",
           "M.where(b[0, 0], x, 0.)", "M.where(b, v5[:4].rename('H'), x)", "M.where(b)", "x.where(b, 0.)",
           "M.where(b.rename('N', 'Z', 'H'), x, 0.)", "x[0]", "x[:, 1]", "x[..., 1:3]", "x[None]", "x[0, :, 1]",
           "x[i2]", "x[:, i2]", "x[b]", "x[..., None]"]
    # joining / shaping
    cs += ["M.cat([x, x])", "M.cat([x, x], 'C')", "M.cat([x, x], 1)", "M.cat([x, xu], 1)", "M.cat([xu, x], 1)", "M.cat([x, xp], 1)",
           "M.cat([x, x.rename('N', 'Z', 'H')], 1)", "M.cat([x, x.rename('N', 'C', 'Z')], 1)", "M.cat([x, x.rename('C', 'N', 'H')], 0)",
           "M.cat([x, x], 'Z')", "M.cat([x, xp], 'C')", "M.cat([xp, x], 'C')", "M.cat([x, x[0]], 1)", "M.concat([x, x], 'H')",
           "M.cat([x, M.tensor([])])", "r = M.cat([x, x], 1, out=M.empty(2, 6, 4))", "r = M.cat([x, x], 1, out=M.empty(2, 6, 4, names=('N', 'C', 'Q')))",
           "M.stack([x, x])", "M.stack([x, x], 1)", "M.stack([x, xu])", "M.stack([x, x.rename('N', 'Z', 'H')])", "M.stack([x, x], 'C')",
           "M.hstack([x, x])", "M.vstack([x, x])", "M.dstack([x, x])", "M.stack([x, x], -1)",
           "x.flip(0)", "x.flip('C')", "x.flip(('N', 'H'))", "x.flip([-1])", "M.flip(x, ('C',))", "x.fliplr()", "x.flipud()",
           "x.roll(1)", "x.roll(1, 1)", "x.roll(1, 'C')", "x.roll((1, 2), ('N', 'H'))", "M.roll(x, 1, 0)",
           "x.repeat(1, 1, 1)", "x.repeat(2, 1, 1)", "x.repeat(2, 2, 1, 1)", "x.tile((2,))", "x.repeat_interleave(2)",
           "x.repeat_interleave(2, 1)", "x.expand(2, 3, 4)", "x.expand(5, 2, 3, 4)", "x.expand_as(xu)",
           "x.tril()", "x.triu(1)", "a.tril()", "M.tril(x, -1)", "r = x.clone(); r.tril_()", "r = x.clone(); r.triu_(1)",
           "r = M.tril(x, out=M.empty(2, 3, 4))", "r = M.triu(x, out=M.empty(2, 3, 4, names=('N', 'C', 'Q')))",
           "x.clone()", "M.clone(x)", "xp.clone()", "x.contiguous()", "x.transpose(0, 1).contiguous()", "x.detach()",
           "x.unique()", "M.unique(x, return_inverse=True)", "M.unique(x, return_counts=True)", "M.unique(x, dim=1)",
           "M.unique(x, dim='C')", "M.unique(x, sorted=False)", "M.unique_consecutive(x)", "x.unique(return_inverse=True, dim=0)",
           "M.unique(xp, return_inverse=True)", "x.split(1, 'C')", "x.split(1, 1)", "x.chunk(2, 'H')", "x.unbind('C')", "x.unbind(1)",
           "x.tensor_split(2, 'H')", "x.narrow('C', 0, 2)", "x.narrow(1, 0, 2)", "M.narrow(x, 'H', 1, 2)",
           "x.select('C', 0)", "x.select(1, 0)", "M.select(x, 'H', -1)", "x.select('Z', 0)",
           "x.squeeze()", "sq.squeeze()", "sq.squeeze('C')", "sq.squeeze(1)", "sq.squeeze(0)", "sq.squeeze('N')", "sq.squeeze((1, 'H'))",
           "r = sq.clone(); r.squeeze_('C')", "r = sq.clone(); r.squeeze_()",
           "x.unsqueeze(0)", "x.unsqueeze(-1)", "x.unsqueeze(2)", "M.unsqueeze(x, 1)", "r = x.clone(); r.unsqueeze_(0)",
           "x.transpose(0, 1)", "x.transpose('N', 'H')", "x.transpose('C', -1)", "M.transpose(x, 'N', 'C')", "x.transpose('N', 'Z')",
           "r = x.clone(); r.transpose_(0, 2)", "x.swapaxes('N', 'H')", "x.swapdims(0, 1)", "x.movedim(0, 2)", "x.moveaxis('N', -1)",
           "x.permute(2, 0, 1)", "x.permute('H', 'N', 'C')", "x.permute(2, 'N', 1)", "M.permute(x, (1, 0, 2))",
           "a.t()", "M.t(a)", "v.t()", "r = a.clone(); r.t_()", "a.T", "a.mT", "x.mT", "a.H", "a.adjoint()",
           "x.align_to('H', 'N', 'C')", "x.align_to('H', ...)", "x.align_to('Z', 'N', 'C', 'H')", "x.align_to(..., 'N')",
           "x.align_to('N', 'C')", "xp.align_to('H', 'N', None)", "xp.align_to('H', ...)", "v.align_to('N', 'D')",
           "v.align_as(a)", "x.align_as(b4.rename('Z', 'N', 'C', 'H'))", "x.align_as(xu)", "xp.align_as(x)", "v3.align_as(a)",
           "x.align_to('N', 'C', 'H', 'N')", "x.align_to('N', ..., 'N')",
           "x.flatten()", "x.flatten(0, 1)", "x.flatten('N', 'C', 'NC')", "x.flatten(['N', 'C'], 'NC')", "x.flatten(['N', 'H'], 'NH')",
           "x.flatten(['C', 'H'], 'CH')", "x.flatten(['C'], 'CC')", "x.flatten(1, 2)", "M.flatten(x, ['C', 'H'], 'CH')", "x.flatten(['H', 'C'], 'HC')",
           "x.flatten('N', 'C')", "x.flatten(['N', 'C'], 'H')", "x.flatten(['N', 'C'], None)", "x.flatten(['Z', 'C'], 'ZC')",
           "x.unflatten('H', (('H1', 2), ('H2', 2)))", "x.unflatten(2, (2, 2))", "x.unflatten('H', (2, 2))", "x.unflatten(-1, (('H1', 2), ('H2', -1)))",
           "x.unflatten('H', (('N', 2), ('H2', 2)))", "x.unflatten('H', (('H1', 2), ('H2', 3)))", "x.unflatten('Z', (('H1', 2), ('H2', 2)))",
           "x.unflatten('H', [('H1', 2), ('H2', 2)])", "M.unflatten(x, 'H', (2, 2))",
           "x.rename('A', 'B', 'C')", "x.rename(None)", "x.rename(N='M')", "x.rename(N='M', H='W')", "x.rename(Z='W')", "x.rename('...', 'W')",
           "x.rename('A', ...)", "x.rename('A', ..., 'W')", "x.rename('A', 'B')", "x.rename('A', 'A', 'B')", "x.rename('A', None, 'B')",
           "x.rename(N='C')", "x.rename(N=None)", "x.rename('A', 'B', C='D')", "r = x.clone(); r.rename_('P', 'Q', 'R')",
           "r = x.clone(); r.rename_(None)", "r = x.clone(); r.rename_(N='M')", "x.rename(['A', 'B', 'C'])", "x.rename('a b', 'B', 'C')",
           "x.rename('_x', 'B', 'C')", "x.rename('1a', 'B', 'C')", "x.rename('', 'B', 'C')", "x.rename(..., 'Q', ...)",
           "xu.refine_names('A', 'B', 'C')", "xp.refine_names('N', 'C', 'H')", "xp.refine_names('N', 'Z', 'H')", "xp.refine_names('N', 'C', 'Q')",
           "xp.refine_names('...', 'H')", "xp.refine_names('N', ...)", "xu.refine_names('A', 'B')", "xu.refine_names('A', 'A', 'B')",
           "xu.refine_names(..., 'W')", "xu.refine_names('A', ..., 'W')", "xu.refine_names('A', 'B', 'C', 'D')", "xu.refine_names(None, 'B', None)",
           "xp.refine_names(..., 'N', 'Q', 'H')", "x.refine_names(...)", "xu.refine_names('A', 'B', ..., 'C', 'D')",
           "x.view(24)", "x.reshape(24)", "x.view_as(xu)", "x.reshape_as(xu)", "x.as_strided((2,), (1,))", "x.diagonal()",
           "x.real", "x.float()", "x.double()", "x.to(M.float64)", "x.type_as(xu)", "x.long()", "x.bool()", "x.half()",
           "x.names", "x.has_names()", "xu.has_names()", "xp.has_names()", "x.size('C')", "x.stride('C')", "x.size(1)", "x.dim()"]
    # linear algebra
    cs += ["a.mm(a2)", "M.mm(a, a2)", "ap.mm(a2)", "a.mm(a2.rename(None))", "a.mm(a.rename('A', 'N').t())", "a.mm(a.t())",
           "r = M.mm(a, a2, out=M.empty(3, 5))", "r = M.mm(a, a2, out=M.empty(3, 5, names=('N', 'out')))",
           "r = M.mm(a, a2, out=M.empty(3, 5, names=('N', 'Q')))",
           "bt.bmm(bt2)", "M.bmm(bt, bt2.rename('C', 'in', 'out'))", "M.bmm(bt, bt2.rename(None, 'in', 'out'))", "M.bmm(bt, bt2.rename(None))",
           "M.bmm(bt, bt2.rename('out', 'in', 'B'))", "r = M.bmm(bt, bt2, out=M.empty(2, 3, 5))",
           "a.mv(v)", "a.mv(v2)", "M.mv(a, v.rename(None))", "ap.mv(v)", "r = M.mv(a, v, out=M.empty(3))",
           "v.dot(v2)", "v.dot(v)", "M.dot(v, v.rename(None))", "M.vdot(v, v2)", "M.inner(v, v2)", "M.inner(a, v2)",
           "M.outer(v, v2)", "M.outer(v, v)", "M.outer(v, v.rename(None))", "M.ger(v, v2)", "M.outer(v, v5)",
           "M.addmm(M.zeros(3, 5), a, a2)", "M.addmm(M.zeros(3, 5, names=('N', 'out')), a, a2)", "M.addmm(M.zeros(3, 5, names=('P', 'Q')), a, a2)",
           "M.addmm(M.zeros(5, names=('out',)), a, a2)", "M.addmm(M.zeros(5, names=('Q',)), a, a2)", "M.addmm(M.zeros(3, 5, names=(None, 'out')), ap, a2)",
           "M.addmm(M.zeros(3, 5, names=('out', None)), a, a2)", "M.addmm(M.zeros(1, 1, names=('Z', 'W')), a, a2)", "M.addmm(M.zeros(()), a, a2)",
           "r = M.zeros(3, 5); r.addmm_(a, a2)", "r = M.zeros(3, 5, names=('N', 'out')); r.addmm_(a, a2)", "r = M.zeros(3, 5, names=('N', 'Q')); r.addmm_(a, a2)",
           "r = M.addmm(M.zeros(3, 5), a, a2, out=M.empty(3, 5))", "r = M.zeros(3, 5, names=('P', None)); r.addmm_(a, a2)",
           "M.addmv(M.zeros(3), a, v)", "M.addmv(M.zeros(3, names=('N',)), a, v)", "M.addmv(M.zeros(3, names=('Q',)), a, v)",
           "M.addmv(M.zeros(1, names=('Q',)), a, v)", "r = M.zeros(3, names=('N',)); r.addmv_(a, v)", "r = M.zeros(3, names=('Q',)); r.addmv_(a, v)",
           "r = M.zeros(3); r.addmv_(a, v)", "M.addr(M.zeros(4, 4), v, v2)", "M.addbmm(M.zeros(3, 5), bt, bt2)", "M.baddbmm(M.zeros(2, 3, 5), bt, bt2)",
           "M.einsum('ij,jk->ik', a, a2)", "M.einsum('ij->j', a)", "M.einsum('i,i->', v, v2)", "M.einsum('bij,bjk->bik', bt, bt2)",
           "M.einsum('ij,jk->ik', a, a2.rename(None))", "M.einsum('ij->ji', a)", "M.einsum('...j->...', a)", "M.einsum('ii->i', M.zeros(3, 3, names=('A', 'B')))",
           "M.kron(a, a)", "M.tensordot(a, a2, 1)", "M.chain_matmul(a, a2)", "M.linalg.multi_dot([a, a2])", "M.cross(M.zeros(3, names=('A',)), M.zeros(3))",
           "M.trace(a)", "M.diag(a)", "M.linalg.norm(a)", "M.det(M.eye(3).refine_names('A', 'B'))", "M.inverse(M.eye(3).refine_names('A', 'B'))",
           "r = M.zeros(3); r.mul_(v3)"]
    # matmul rank grid
    mats = {1: ["v", "M.zeros(4, names=(None,))"], 2: ["a", "ap", "a2"], 3: ["bt", "bt2", "M.zeros(2, 4, 5, names=('C', 'in', 'out'))", "M.zeros(2, 4, 5, names=(None, 'in', 'out'))"],
            4: ["b4", "M.zeros(2, 2, 4, 5, names=('A', 'B', 'in', 'out'))", "M.zeros(1, 2, 4, 5, names=('B', None, 'in', 'out'))"]}
    right = {1: ["v", "v2", "M.zeros(4)", "M.zeros(4, names=('N',))"], 2: ["a2", "M.zeros(4, 5, names=('D', 'N'))", "M.zeros(4, 5)", "M.zeros(4, 5, names=('B', 'out'))"],
             3: ["bt2", "b3", "M.zeros(2, 4, 5, names=('N', 'in', 'out'))", "M.zeros(1, 4, 5, names=('Z', 'E', 'F'))"],
             4: ["M.zeros(2, 2, 4, 5, names=('A', 'B', 'E', 'F'))", "M.zeros(2, 1, 4, 5, names=(None, 'A', 'E', 'F'))"]}
    lefts = {1: ["v", "M.zeros(4, names=('Q',))"], 2: ["a", "ap", "M.zeros(3, 4, names=('B', 'D'))"],
             3: ["bt", "M.zeros(2, 3, 4, names=('A', 'N', 'D'))", "M.zeros(2, 3, 4, names=(None, 'N', 'D'))", "M.zeros(2, 3, 4, names=('B', None, None))"],
             4: ["M.zeros(2, 2, 3, 4, names=('A', 'B', 'C', 'D'))", "M.zeros(2, 2, 3, 4, names=('B', 'A', 'C', 'D'))"]}
    del mats
    for rl in lefts:
        for rr in right:
            for l in lefts[rl]:
                for r in right[rr]:
                    # fix the contracted size: left's last dim is 4 everywhere, right's contracted dim is 4
                    cs.append(f"M.matmul({l}, {r})")
            cs.append(f"r = {lefts[rl][0]} @ {right[rr][0]}")
    cs += ["r = M.matmul(a, a2, out=M.empty(3, 5))", "r = M.matmul(a, a2, out=M.empty(3, 5, names=('N', 'out')))",
           "r = M.matmul(a, a2, out=M.empty(3, 5, names=('Q', 'out')))", "r = M.matmul(bt, bt2, out=M.empty(2, 3, 5))",
           "r = M.zeros(3, 4); r @= M.zeros(4, 4, names=('A', 'B'))"]
    # factories
    for fn in ["zeros", "ones", "empty", "rand", "randn"]:
        cs += [f"M.{fn}(2, 3, names=('N', 'C'))", f"M.{fn}((2, 3), names=('N', None))", f"M.{fn}(2, 3, names=None)",
               f"M.{fn}(2, 3, names=('N',))", f"M.{fn}(2, 3, names=('N', 'N'))", f"M.{fn}(2, 3, names=['A', 'B'])",
               f"M.{fn}(2, 3, names=('N', 'C'), dtype=M.float64)", f"M.{fn}((), names=())", f"M.{fn}(2, names=('...',))",
               f"M.{fn}_like(x)", f"M.{fn}_like(xp)", f"M.{fn}(2, 3, names=('a b', 'C'))"]
    cs += ["M.full((2, 3), 1.5, names=('N', 'C'))", "M.full((2, 3), 1, names=('N', None))", "M.full((2, 3), 1., names=('N',))",
           "M.full_like(x, 2.)", "M.full_like(xp, 2, dtype=M.long)", "M.randint(0, 5, (2, 3), names=('N', 'C'))", "M.randint_like(x, 5)",
           "M.rand_like(x, dtype=M.float64)", "M.zeros_like(x, dtype=M.long)", "M.empty_like(x, memory_format=M.contiguous_format)",
           "M.tensor([[1., 2.], [3., 4.]], names=('A', 'B'))", "M.arange(3, names=('A',))", "M.eye(3, names=('A', 'B'))",
           "M.empty(2, 3, names=('N', 'C')).fill_(1.)", "M.zeros(2, 3, names=('N', 'C')).normal_()", "M.zeros(2, 3, names=('N', 'C')).uniform_()",
           "M.zeros(2, 3, names=('N', 'C')).bernoulli_()", "M.bernoulli(M.full((2, 3), 0.5, names=('N', 'C')))", "M.normal(M.zeros(2, 3, names=('N', 'C')), 1.)",
           "M.zeros(2, 3, names=('N', 'C')).random_(5)", "M.zeros(2, 3, names=('N', 'C')).exponential_()", "M.multinomial(M.ones(2, 3, names=('N', 'C')), 1)",
           "M.poisson(M.ones(2, 3, names=('N', 'C')))", "M.zeros(2, 3, names=('N', 'C')).new_zeros(2, 3)", "M.zeros(2, 3, names=('N', 'C')).new_empty(2)",
           "M.randperm(3, names=('A',))", "M.zeros(2, 3, names=('N', 'C')).new_full((2,), 1.)", "M.zeros(2, 3, names=('N', 'C')).new_tensor([1.])"]
    return cs


def fmt(r):
    if r[0] == "err":
        return f"raise {r[1]}: {r[2][:220]}"
    return "ok " + json.dumps(r[1])


def names_of(d):
    if d[0] == "T":
        return d[1], d[2]
    if d[0] == "seq":
        return [names_of(v) for v in d[1]]
    return d


def dtypes_of(d):
    if d[0] == "T":
        return d[3]
    if d[0] == "seq":
        return [dtypes_of(v) for v in d[1]]
    return None


def main():
    args = sys.argv[1:]
    want_dtype = "--dtype" in args
    all_msgs = "--all-msgs" in args
    filt = [a for a in args if not a.startswith("--")]
    cs = [c for c in cases() if not filt or any(f in c for f in filt)]
    p = subprocess.run(["/usr/bin/python3", "-c", TORCH_MAIN], input=json.dumps(cs), capture_output=True, text=True)
    if p.returncode:
        sys.exit("torch 1.13 subprocess failed:\n" + p.stderr[-3000:])
    rt = json.loads(p.stdout)
    import tensorlib
    env = {}
    exec(RUNNER, env)
    rx = env["run"](tensorlib, cs)
    diffs, unsupported = [], []
    for c, t, x in zip(cs, rt, rx):
        if t[0] == "err" and "supported with named tensors" in t[2]:
            if x[0] == "ok" or "supported with named tensors" not in x[2]:
                unsupported.append(f"{c}\n    torch1.13: {fmt(t)}\n    tensorlib: {fmt(x)}")
            continue
        if t[0] != x[0]:
            diffs.append(f"[outcome] {c}\n    torch1.13: {fmt(t)}\n    tensorlib: {fmt(x)}")
        elif t[0] == "ok":
            if names_of(t[1]) != names_of(x[1]):
                diffs.append(f"[names] {c}\n    torch1.13: {fmt(t)}\n    tensorlib: {fmt(x)}")
            elif want_dtype and dtypes_of(t[1]) != dtypes_of(x[1]):
                diffs.append(f"[dtype] {c}\n    torch1.13: {fmt(t)}\n    tensorlib: {fmt(x)}")
        elif t[2] != x[2] and (all_msgs or "name" in t[2].lower() or "name" in x[2].lower()):
            diffs.append(f"[message] {c}\n    torch1.13: {fmt(t)}\n    tensorlib: {fmt(x)}")
    print(f"{len(cs)} cases, {len(diffs)} differences, {len(unsupported)} torch-1.13-unsupported where tensorlib differs")
    for d in diffs:
        print(d)
    if unsupported:
        print("\n=== torch 1.13 'not supported with named tensors' (check docs/named.md before changing) ===")
        for u in unsupported:
            print(u)


if __name__ == "__main__":
    main()
