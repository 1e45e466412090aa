"""Random factories composed from empty() and the C in-place samplers (ops/random.c: MT19937
with torch's transformations by default, Philox4x32-10 for Generator(kind="philox")).


Every function takes ``generator=`` (a tensorlib.Generator; None = the default one).
Values depend only on (seed, counter offset, element index), so a seed reproduces the
same tensors whatever the thread count."""
from . import _C

Generator = _C.Generator
default_generator = _C.default_generator
manual_seed = _C.manual_seed
seed = _C.seed
initial_seed = _C.initial_seed
get_rng_state = _C.get_rng_state
set_rng_state = _C.set_rng_state


def _size_args(size, kw_size):
    if kw_size is not None:
        if size:
            raise TypeError("size given both positionally and as a keyword")
        return tuple(kw_size) if not isinstance(kw_size, int) else (kw_size,)
    if len(size) == 1 and not isinstance(size[0], int) and hasattr(size[0], "__len__"):
        return tuple(size[0])
    return size


def _check_factory(layout, requires_grad, pin_memory):
    if layout is not None and layout != _C.strided:
        raise RuntimeError("random factories create strided tensors")
    if requires_grad:
        raise RuntimeError("tensorlib has no autograd yet: requires_grad=True is not supported")


def _like_out(out, dtype, device):
    """out= gives the sample's dtype and device unless they are given (torch samples into out)."""
    if out is None:
        return dtype, device
    if (dtype is not None and dtype != out.dtype) or (device is not None and _C.device(device).type != out.device.type):
        _C.empty(tuple(out.shape), dtype=dtype, device=device, out=out)  # raises torch's mismatch error
    return (out.dtype if dtype is None else dtype), (out.device if device is None else device)


def _finish(r, out, fname):
    return r if out is None else _C._write_out(r, out, fname, True)


def rand(*size, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
         pin_memory=False, names=None, **kw):
    """rand(*size, *, generator=None, out=None, dtype=None, ..., names=None) -> Tensor

    Samples from the uniform distribution on [0, 1)."""
    _check_factory(layout, requires_grad, pin_memory)
    dtype, device = _like_out(out, dtype, device)
    t = _C.empty(tuple(_size_args(size, kw.pop("size", None))), dtype=dtype, device=device, names=names,
                 pin_memory=pin_memory, **kw)
    return _finish(t.uniform_(0.0, 1.0, generator=generator), out, "rand")


def randn(*size, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False, names=None, **kw):
    """randn(*size, *, generator=None, out=None, dtype=None, ..., names=None) -> Tensor

    Samples from the standard normal distribution (complex dtypes: each part has variance 1/2)."""
    _check_factory(layout, requires_grad, pin_memory)
    dtype, device = _like_out(out, dtype, device)
    t = _C.empty(tuple(_size_args(size, kw.pop("size", None))), dtype=dtype, device=device, names=names,
                 pin_memory=pin_memory, **kw)
    return _finish(t.normal_(0.0, 1.0, generator=generator), out, "randn")


def randint(*args, size=None, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
            pin_memory=False, low=None, high=None):
    """randint(low=0, high, size, *, generator=None, out=None, dtype=int64, ...) -> Tensor

    Integers drawn uniformly from [low, high)."""
    _check_factory(layout, requires_grad, pin_memory)
    args = list(args)
    if size is None and args and not isinstance(args[-1], int):
        size = args.pop()
    if high is None and args:
        high = args.pop()
    if low is None:
        low = args.pop() if args else 0
    if args or high is None or size is None:
        raise TypeError("randint() expects (low=0, high, size)")
    dtype, device = _like_out(out, dtype, device)
    t = _C.empty(tuple(size), dtype=dtype or _C.int64, device=device, pin_memory=pin_memory)
    return _finish(t.random_(int(low), int(high), generator=generator), out, "randint")


def randperm(n, *, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
             pin_memory=False):
    """randperm(n, *, generator=None, out=None, dtype=int64, ...) -> Tensor

    A random permutation of 0 .. n-1."""
    _check_factory(layout, requires_grad, pin_memory)
    dtype, device = _like_out(out, dtype, device)
    t = _C.empty(n, dtype=dtype or _C.int64, device=device, pin_memory=pin_memory)
    return _finish(_C._randperm_(t, generator), out, "randperm")


def rand_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None,
              generator=None):
    """rand_like(input, *, dtype=None, ...) -> Tensor: rand with input's shape."""
    from ._factories import empty_like
    _check_factory(layout, requires_grad, False)
    return empty_like(input, dtype=dtype, device=device, memory_format=memory_format).uniform_(generator=generator)


def randn_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None,
               generator=None):
    """randn_like(input, *, dtype=None, ...) -> Tensor: randn with input's shape."""
    from ._factories import empty_like
    _check_factory(layout, requires_grad, False)
    return empty_like(input, dtype=dtype, device=device, memory_format=memory_format).normal_(generator=generator)


def randint_like(input, low=0, high=None, *, dtype=None, layout=None, device=None, requires_grad=False,
                 memory_format=None, generator=None):
    """randint_like(input, low=0, high, *, dtype=None, ...) -> Tensor: randint with input's shape."""
    from ._factories import empty_like
    _check_factory(layout, requires_grad, False)
    if high is None:
        low, high = 0, low
    t = empty_like(input, dtype=dtype, device=device, memory_format=memory_format)
    return t.random_(int(low), int(high), generator=generator)


def normal(mean=0.0, std=1.0, size=None, *, generator=None, out=None, dtype=None, layout=None, device=None,
           requires_grad=False, pin_memory=False, names=None):
    """normal(mean, std, size=None, *, generator=None, out=None, ...) -> Tensor

    Normal samples; mean and std may each be a tensor (broadcast together) or a number
    (then ``size`` gives the shape)."""
    tm, ts = isinstance(mean, _C.TensorBase), isinstance(std, _C.TensorBase)
    if not tm and not ts:
        if size is None:
            raise TypeError("normal() missing required argument 'size' when mean and std are numbers")
        _check_factory(layout, requires_grad, pin_memory)
        dtype, device = _like_out(out, dtype, device)
        t = _C.empty(tuple(_size_args((size,), None)), dtype=dtype, device=device, names=names,
                     pin_memory=pin_memory)
        return _finish(t.normal_(mean, std, generator=generator), out, "normal")
    r = _C._normal(mean, std, generator)
    src = mean if tm else std
    if src.has_names() and tuple(src.shape) == tuple(r.shape):
        r = r.rename(*src.names)
    return _finish(r, out, "normal")


def bernoulli(input, p=None, *, generator=None, out=None):
    """bernoulli(input, p=None, *, generator=None, out=None) -> Tensor

    0/1 draws with probabilities input (or the number p, shaped like input)."""
    from ._factories import empty_like
    t = empty_like(input)
    r = t.bernoulli_(input if p is None else p, generator=generator)
    return _finish(r, out, "bernoulli")


def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):
    """multinomial(input, num_samples, replacement=False, *, generator=None, out=None) -> Tensor

    Category indices sampled from the rows of input (non-negative weights)."""
    return _finish(_C._multinomial(input, num_samples, replacement, generator), out, "multinomial")


def poisson(input, generator=None):
    """poisson(input, generator=None) -> Tensor

    A sample of the Poisson distribution of rate ``input[i]`` per element (float16,
    bfloat16, float32 or float64 rates, non-negative), in the rates' dtype. With the default
    generator after ``manual_seed`` the numbers are torch's CPU ones (same algorithm, same
    draws, in row-major order)."""
    return _C._poisson(input, generator)


def binomial(count, prob, generator=None):
    """binomial(count, prob, generator=None) -> Tensor

    A sample of the binomial distribution of ``count`` trials with success probability
    ``prob`` per element (float32 or float64, the same for both; broadcast together). With the
    default generator after ``manual_seed`` the numbers are torch's CPU ones."""
    if isinstance(count, _C.TensorBase) and isinstance(prob, _C.TensorBase):
        for t, nm in ((count, "count"), (prob, "prob")):
            if not (t.dtype.is_floating_point or t.dtype.is_complex):
                raise ValueError(f"binomial only supports floating-point dtypes for {nm}, got: {t.dtype._cname}")
    return _C._binomial(count, prob, generator)


def _install_methods(cls):
    def t_bernoulli(self, p=None, *, generator=None):
        """bernoulli(p=None, *, generator=None) -> Tensor. See tensorlib.bernoulli."""
        return bernoulli(self, p, generator=generator)

    def t_multinomial(self, num_samples, replacement=False, *, generator=None):
        """multinomial(num_samples, replacement=False, *, generator=None) -> Tensor. See tensorlib.multinomial."""
        return multinomial(self, num_samples, replacement, generator=generator)
    cls.bernoulli = t_bernoulli
    cls.multinomial = t_multinomial
