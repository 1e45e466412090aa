"""torch.backends.cuda's cuBLAS switches, ``tensorlib.backends.cuda.matmul``: ``allow_tf32``
(False: float32 products of CUDA tensors compute in float32; True: cuBLAS may use TF32 tensor
cores), ``allow_fp16_reduced_precision_reduction`` and ``allow_bf16_reduced_precision_reduction``
(True: cuBLAS may reduce split sums of float16 / bfloat16 products in that type; False forbids
it), with torch's defaults, checks and messages. Each setting is handed to the core, which puts
it into every later product's call to the CUDA backend (csrc/backend/gemm.c); the CPU ignores
them, as torch's CPU does. The ``*_split_k`` halves of the reduction settings are remembered
only."""
from .. import _C  # type: ignore[attr-defined]

# (_C, the extension module, has no stub.) TL_BGEMM_* of csrc/backend/backend.h:
_TF32, _NO_F16, _NO_BF16 = 1, 2, 4


def _flags():
    return _C._gemm_flags()


def _set(bit, on):
    f = _flags()
    _C._gemm_flags(f | bit if on else f & ~bit)


class cuBLASModule:  # noqa: N801  (torch's name)
    """The ``matmul`` switches; unknown attributes raise AttributeError as torch's."""

    _split_k = {"allow_fp16_reduced_precision_reduction": True, "allow_bf16_reduced_precision_reduction": True}

    @staticmethod
    def _parse_reduction_setting(value, attr_name):
        def ensure_bool(obj, which):
            if isinstance(obj, bool):
                return obj
            raise TypeError(f"{attr_name} expects a bool for {which}, but got {type(obj)!r}")

        if isinstance(value, bool):
            return value, True
        if isinstance(value, (list, tuple)):
            if not value:
                raise TypeError(f"{attr_name} expects at least one boolean argument")
            if len(value) > 2:
                raise TypeError(f"{attr_name} expects at most two boolean arguments")
            reduced = ensure_bool(value[0], "allow_reduced_precision")
            return reduced, True if len(value) == 1 else ensure_bool(value[1], "allow_splitk")
        raise TypeError(f"{attr_name} expects a bool or a tuple/list of bools, but got {type(value)!r}")

    def __getattr__(self, name):
        if name == "allow_tf32":
            return bool(_flags() & _TF32)
        if name == "allow_fp16_reduced_precision_reduction":
            return not _flags() & _NO_F16
        if name == "allow_bf16_reduced_precision_reduction":
            return not _flags() & _NO_BF16
        if name in ("allow_fp16_reduced_precision_reduction_split_k", "allow_bf16_reduced_precision_reduction_split_k"):
            return cuBLASModule._split_k[name[:-len("_split_k")]]
        raise AttributeError("Unknown attribute " + name)

    def __setattr__(self, name, value):
        if name == "allow_tf32":
            if not isinstance(value, bool):
                raise RuntimeError(f"set_allow_tf32_cublas expects a bool, but got {type(value).__name__}")
            return _set(_TF32, value)
        if name in cuBLASModule._split_k:
            reduced, split_k = self._parse_reduction_setting(value, name)
            cuBLASModule._split_k[name] = split_k
            return _set(_NO_F16 if "fp16" in name else _NO_BF16, not reduced)
        raise AttributeError("Unknown attribute " + name)


matmul = cuBLASModule()
