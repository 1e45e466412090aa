"""pytest plugin (scripts/check_simd.sh): the in-process torch answers garbage (12345) wherever an
input is inf/NaN, standing in for a torch whose vectorized kernels differ on special values."""
import functools
import torch
import torch.nn.functional as F

def wrap(mod, name):
    f = getattr(mod, name, None)
    if f is None:
        return
    @functools.wraps(f)
    def g(*args, **kw):
        r = f(*args, **kw)
        if isinstance(r, torch.Tensor) and (r.is_floating_point() or r.is_complex()):
            bad = None
            for a in args:
                if isinstance(a, torch.Tensor) and (a.is_floating_point() or a.is_complex()) and a.shape == r.shape:
                    m = ~torch.isfinite(a)
                    bad = m if bad is None else bad | m
            if bad is not None and bad.any():
                r = r.clone(); r[bad] = 12345.0
        return r
    setattr(mod, name, g)

UN = ("abs neg sign sgn ceil floor round trunc fix frac sqrt rsqrt square exp exp2 expm1 log log2 log10 log1p sin cos tan "
      "asin arcsin acos atan sinh cosh tanh asinh acosh atanh sigmoid logit relu erf erfc erfinv digamma lgamma "
      "reciprocal deg2rad rad2deg angle conj_physical nan_to_num positive heaviside nextafter logsumexp").split()
for n in UN:
    wrap(torch, n)
for n in ("gelu", "silu", "mish"):
    wrap(F, n)

def wrap_method(name):
    f = getattr(torch.Tensor, name, None)
    if f is None:
        return
    def g(self, *args, **kw):
        r = f(self, *args, **kw)
        if isinstance(r, torch.Tensor) and (r.is_floating_point() or r.is_complex()) and r.shape == self.shape \
                and (self.is_floating_point() or self.is_complex()):
            bad = ~torch.isfinite(self)
            if bad.any():
                r = r.clone(); r[bad] = 12345.0
        return r
    setattr(torch.Tensor, name, g)

for n in UN + ["pow", "atan2", "hypot", "xlogy", "logaddexp", "fmod", "remainder", "div", "float_power"]:
    wrap_method(n)
for n in ["pow", "atan2", "hypot", "xlogy", "logaddexp", "fmod", "remainder", "div", "float_power", "lerp", "clamp",
          "copysign", "ldexp", "logaddexp2", "xlogy", "sinc", "i0", "expit", "special_expit"]:
    wrap(torch, n)
