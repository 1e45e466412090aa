"""torch's short-time Fourier transforms, ``stft`` and ``istft``, composed of tensorlib's ops:
the signal padded at both ends (``center``), cut into overlapping frames (a strided view),
windowed, transformed by tensorlib.fft row by row; the inverse transforms the frames back,
windows them again and overlap-adds them (``index_add_``), divided by the summed squared
window. Argument checks and messages are torch 2.13's, in its order."""
import math
import numbers

from . import _C
from . import fft as _fft
from ._construct import view_as_real
from ._factories import arange
from ._join import cat, constant_pad_nd
from ._util import install_names


def _types_ok(input, n_fft, hop_length, win_length, window, length):
    """A wrong argument type raises ValueError, which tensorlib/_argcheck.py's wrapper turns into
    torch's TypeError naming the argument (its position differs for the function and the method)."""
    ints = (n_fft,) + tuple(v for v in (hop_length, win_length, length) if v is not None)
    if not isinstance(input, _C.TensorBase) or (window is not None and not isinstance(window, _C.TensorBase)) \
            or not all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in ints):
        raise ValueError("an argument of the wrong type")


def _describe(name, x, n_fft, hop_length, win_length, window, *flags):
    """torch's "stft(torch.FloatTensor[14], n_fft=4, ...)" prefix of its argument errors; flags
    are (name, value) pairs, booleans printed as 0/1."""
    win = "None" if window is None else "%s{[%s]}" % (window.type(), ", ".join(map(str, window.shape)))
    # torch names a tensor by its legacy type, which complex dtypes lack: then "CPUComplexFloatType"
    kind = x.type() if not x.is_complex() else "%s%sType" % ("CPU" if x.device.type == "cpu" else x.device.type.upper(),
                                                           x.dtype._cname)
    shown = ", ".join(f"{k}={'None' if v is None else int(v) if isinstance(v, bool) else v}" for k, v in flags)
    return (f"{name}({kind}[{', '.join(map(str, x.shape))}], n_fft={n_fft}, hop_length={hop_length}, "
            f"win_length={win_length}, window={win}, {shown})")


def _pad_ends(x, pad, mode):
    """x (1-D or 2-D) padded by ``pad`` elements at both ends of its last dim: torch's F.pad
    modes over the 3-D view torch.stft pads."""
    n = x.shape[-1]
    if mode == "constant":
        return constant_pad_nd(x, (pad, pad), 0)
    if mode == "reflect":
        if pad >= n:
            view = [1] * (3 - x.dim()) + list(x.shape)
            raise RuntimeError(f"Argument #4: Padding size should be less than the corresponding input dimension, "
                               f"but got: padding ({pad}, {pad}) at dimension 2 of input {view}")
        left, right = x[..., 1:pad + 1].flip(-1), x[..., n - pad - 1:n - 1].flip(-1)
    elif mode == "replicate":
        if n == 0:
            raise RuntimeError("padding size is expected to be less than the input's size")
        left = x[..., :1].expand(*x.shape[:-1], pad)
        right = x[..., n - 1:].expand(*x.shape[:-1], pad)
    elif mode == "circular":
        if pad > n:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        left, right = x[..., n - pad:], x[..., :pad]
    else:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    return cat([left, x, right], -1)


def _window_n_fft(window, win_length, n_fft, dtype, device):
    """The window (ones when None) centred in n_fft points."""
    w = window if window is not None else _C.ones(win_length, dtype=dtype, device=device)
    if win_length < n_fft:
        left = (n_fft - win_length) // 2
        w = constant_pad_nd(w, (left, n_fft - win_length - left), 0)
    return w


def stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode="reflect",
         normalized=False, onesided=None, return_complex=None, align_to_window=None):
    """stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode='reflect', normalized=False, onesided=None, return_complex=None) -> Tensor

    The short-time Fourier transform of a 1-D signal or a batch of them (2-D): frames of
    n_fft points every hop_length, windowed and transformed. Shape (batch?, n_freq, n_frames),
    complex (or its view_as_real with return_complex=False)."""
    _types_ok(input, n_fft, hop_length, win_length, window, length=None)
    complex_in = input.is_complex() or (window is not None and window.is_complex())
    if return_complex is None and not complex_in:
        raise RuntimeError("stft requires the return_complex parameter be given for real inputs, and will further "
                           "require that return_complex=True in a future PyTorch release.")
    if align_to_window is not None and center:
        raise RuntimeError("stft align_to_window should only be set when center = false")
    x = input
    if center and x.dim() > 0:  # (torch pads before its checks: its messages show the padded shape)
        x = _pad_ends(x, n_fft // 2, pad_mode)
    hop = n_fft >> 2 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    what = _describe("stft", x, n_fft, hop, win, window, ("normalized", bool(normalized)),
                     ("onesided", None if onesided is None else bool(onesided)),
                     ("return_complex", None if return_complex is None else bool(return_complex)),
                     ("align_to_window", None if align_to_window is None else bool(align_to_window)))
    if not (x.dtype.is_floating_point or x.is_complex()):
        raise RuntimeError(f"{what} : expected a tensor of floating point or complex values")
    if x.dim() not in (1, 2):
        raise RuntimeError(f"{what} : expected a 1D or 2D tensor")
    length = x.shape[-1]
    if n_fft <= 0 or n_fft > length:
        raise RuntimeError(f"{what} : expected 0 < n_fft < {length}, but got n_fft={n_fft}")
    if hop <= 0:
        raise RuntimeError(f"{what} : expected hop_length > 0, but got hop_length={hop}")
    if win <= 0 or win > n_fft:
        raise RuntimeError(f"{what} : expected 0 < win_length <= n_fft, but got win_length={win}")
    if window is not None and (window.dim() != 1 or window.shape[0] != win):
        raise RuntimeError(f"{what} : expected a 1D window tensor of size equal to win_length={win}, but got window "
                           f"with size {list(window.shape)}")
    if onesided is None:
        onesided = not complex_in
    elif onesided and complex_in:
        raise RuntimeError("Cannot have onesided output if window or input is complex")
    if align_to_window and win < n_fft:  # frames of win points at k * hop, centred in n_fft (outside: window 0)
        left = (n_fft - win) // 2
        x = constant_pad_nd(x, (left, n_fft - win - left), 0)
    batched = x.dim() == 2
    frames_in = x if batched else x.unsqueeze(0)
    frames = frames_in.unfold(-1, n_fft, hop)  # (batch, n_frames, n_fft), a view
    if window is not None or win < n_fft:
        w = _window_n_fft(window, win, n_fft, x.dtype if not x.is_complex() else x.real.dtype, x.device)
        frames = frames * w
    norm = "ortho" if normalized else "backward"
    out = _fft.rfft(frames, dim=-1, norm=norm) if onesided else _fft.fft(frames, dim=-1, norm=norm)
    out = out.transpose(1, 2)
    if not batched:
        out = out.squeeze(0)
    return out if return_complex else view_as_real(out)


def istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, normalized=False,
          onesided=None, length=None, return_complex=False):
    """istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, normalized=False, onesided=None, length=None, return_complex=False) -> Tensor

    The inverse of stft: each frame transformed back, windowed, overlap-added and divided by
    the summed squared window (which must not vanish anywhere: torch's NOLA check)."""
    _types_ok(input, n_fft, hop_length, win_length, window, length)
    hop = n_fft >> 2 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    what = _describe("istft", input, n_fft, hop, win, window, ("center", bool(center)), ("normalized", bool(normalized)),
                     ("onesided", None if onesided is None else bool(onesided)), ("length", length),
                     ("return_complex", bool(return_complex)))
    if not input.is_complex():
        raise RuntimeError("istft requires a complex-valued input tensor matching the output from stft with "
                           "return_complex=True.")
    if input.dim() < 2:  # (torch reads size(-3) of view_as_real(input))
        raise IndexError(f"Dimension out of range (expected to be in range of [{-input.dim() - 1}, {input.dim()}], "
                         "but got -3)")
    if input.dim() > 3:
        raise RuntimeError(f"{what} : expected a tensor with 3 or 4 dimensions, but got {input.dim() + 1}")
    n_frames, fft_size = input.shape[-1], input.shape[-2]
    expected_len = n_fft + hop * (n_frames - 1)
    if input.numel() == 0:
        raise RuntimeError(f"{what} : input tensor cannot be empty.")
    if not 0 < hop <= win:
        raise RuntimeError(f"{what} : expected 0 < hop_length <= win_length")
    if not 0 < win <= n_fft:
        raise RuntimeError(f"{what} : expected 0 < win_length <= n_fft")
    if window is not None and (window.dim() != 1 or window.shape[0] != win):
        raise RuntimeError(f"{what} : Invalid window shape. window has to be 1D and length of `win_length`")
    if onesided is None:
        onesided = fft_size != n_fft
    if onesided:
        if n_fft // 2 + 1 != fft_size:
            raise RuntimeError(f"{what} : expected the frequency dimension (3rd to the last) of the input tensor to "
                               f"match n_fft / 2 + 1 when onesided=True, but got {fft_size}")
    elif n_fft != fft_size:
        raise RuntimeError(f"{what} : expected the frequency dimension (3rd to the last) of the input tensor to match "
                           f"n_fft when onesided=False, but got {fft_size}")
    real_dtype = input.real.dtype
    if window is not None:
        real_dtype = _C.promote_types(real_dtype, window.dtype if not window.is_complex() else window.real.dtype)
    w = _window_n_fft(window, win, n_fft, real_dtype, input.device)
    if w.dim() != 1:
        raise RuntimeError(f"{what} : window must be 1D")
    x = input if input.dim() == 3 else input.unsqueeze(0)
    x = x.transpose(1, 2)  # (batch, n_frames, fft_size)
    norm = "ortho" if normalized else "backward"
    if return_complex:
        if onesided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        frames = _fft.ifft(x, dim=-1, norm=norm)
    else:
        if window is not None and window.is_complex():
            raise RuntimeError("Complex windows are incompatible with return_complex=False")
        if not onesided:
            x = x.narrow(-1, 0, n_fft // 2 + 1)
        frames = _fft.irfft(x, n=n_fft, dim=-1, norm=norm)
    frames = frames * w
    batch = frames.shape[0]
    # sample k of frame f lands at f * hop + k
    positions = (arange(n_frames, device=input.device).unsqueeze(1) * hop + arange(n_fft, device=input.device)).reshape(-1)
    y = _C.zeros((batch, expected_len), dtype=frames.dtype, device=input.device)
    y.index_add_(1, positions, frames.reshape(batch, -1))
    envelope = _C.zeros((expected_len,), dtype=w.dtype, device=input.device)
    envelope.index_add_(0, positions, (w * w).expand(n_frames, n_fft).reshape(-1))
    start = n_fft // 2 if center else 0
    end = start + length if length is not None else (expected_len - n_fft // 2 if center else expected_len)
    stop = min(end, expected_len)
    y = y[:, start:stop]
    envelope = envelope[start:stop]
    lowest = envelope.abs().min().item() if envelope.numel() else math.inf
    if lowest < 1e-11:
        # (torch prints the failed comparison, a bool tensor, where it means the minimum)
        raise RuntimeError(f"{what} window overlap add min: 1\n[ CPUBoolType{{}} ]")
    y = y / envelope
    if input.dim() == 2:
        y = y.squeeze(0)
    if end > expected_len:
        y = constant_pad_nd(y, (0, end - expected_len), 0)
    return y


def install(namespace, tensor_class):
    """Puts stft and istft into tensorlib's namespace and on Tensor."""
    install_names(namespace, tensor_class, globals(), ("stft", "istft"), ("stft", "istft"))
