"""tensorlib.nn.functional: ``linear``, the one function (for 2:4 semi-structured weights
on the CPU and strided weights alike)."""
from .. import _C
from .._util import require_tensor
from .._semi_structured import _is_semi, linear as _semi_linear

__all__ = ["linear"]


def linear(input, weight, bias=None):
    """``input @ weight.T + bias`` (torch.nn.functional.linear): weight (out_features,
    in_features) strided or 2:4 semi-structured (tensorlib.sparse.to_sparse_semi_structured);
    input (*, in_features); bias (out_features) or None."""
    require_tensor("linear", input)
    if _is_semi(weight):
        lead = tuple(input.shape[:-1])
        r = _semi_linear(input.reshape(-1, input.shape[-1]), weight, bias)
        return r.reshape(lead + (weight.shape[0],))
    require_tensor("linear", weight, "weight", 2)
    if weight.dim() == 1:
        r = _C.matmul(input, weight)
    else:
        r = _C.matmul(input, weight.t())
    return r if bias is None else r + bias
