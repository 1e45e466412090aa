"""The differential sweeps of tests/difftorch/ (the same calls through tensorlib and torch
over grids of dtypes, shapes and arguments) run in the suite: every difference they print
must be one listed here, with the reason it is deliberate or torch's own quirk, so a new
difference fails the suite instead of waiting for someone to run a script.

sweep8_names compares names against torch 1.13 (the last torch with named tensors), which
only Debian's python3-torch provides: it runs where /usr/bin/python3 has it and is skipped
elsewhere; its expected differences (tensorlib gives names to more ops than torch 1.13,
SPEC section 6, and words some messages its own way) are in difftorch/names_expected.txt.
"""
import os
import subprocess
import sys

import pytest

pytest.importorskip("torch")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# Each allowed difference (the start of the line the sweep prints) and why it stays. A
# listed difference may also vanish (torch's values depend on the kernels its CPU picks).
ALLOWED = {
    # torch computes an empty uint8 histc's automatic range [0 - 1, 0 + 1] in uint8 and
    # overflows; every non-empty integer input gets the dispatch refusal tensorlib gives
    1: {"histc (0, 3) uint8: exc type torch RuntimeError tl NotImplementedError: value cannot be converted to type "
        "uint8_t without overflow | \"histogram_cpu\" not implemented for 'Byte'"},
    # torch routes a full contraction of empty bool operands to dot (no bool kernel);
    # tensorlib's product of empty operands runs no kernel and returns False
    2: {"tensordot (0, 3) bool: torch err ('NotImplementedError', '\"dot\" not implemented for \\'Bool\\'') tl ok "},
    3: set(),
    # bfloat16 prod accumulates in float32 and rounds once (torch rounds every step)
    4: {"prod bfloat16 dim=None kd=False c: values max diff"},
    5: set(),
    # torch's einsum multiplies without contraction (bool works), tensorlib's goes through bmm
    6: {"einsum_outer bool: torch ok  tl err ('NotImplementedError', '\"bmm\" not implemented for \\'Bool\\'')"},
    7: set(),
}


def _run(script, *args, python=sys.executable):
    env = dict(os.environ, PYTHONPATH=ROOT)
    p = subprocess.run([python, os.path.join(HERE, "difftorch", script), *args], capture_output=True, text=True,
                       env=env, timeout=900, cwd=ROOT)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-4000:]
    return p.stdout.splitlines()


@pytest.mark.parametrize("n", sorted(ALLOWED))
def test_sweep_differences_are_the_known_ones(n):
    lines = _run(f"sweep{n}.py")
    int(lines[0])  # the count line
    new = [line for line in lines[1:] if line.strip() and not any(line.startswith(a) for a in ALLOWED[n])]
    assert not new, new


def _has_named_torch():
    try:
        p = subprocess.run(["/usr/bin/python3", "-c", "import torch; torch.zeros(1, names=('a',))"],
                           capture_output=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return p.returncode == 0


@pytest.mark.skipif(not _has_named_torch(), reason="Debian's torch 1.13 (named tensors) is not installed")
def test_names_against_torch_1_13():
    got = {line for line in _run("sweep8_names.py") if line.startswith("[")}
    with open(os.path.join(HERE, "difftorch", "names_expected.txt")) as f:
        want = {line.rstrip("\n") for line in f if line.strip()}
    assert got == want, {"new": sorted(got - want)[:30], "gone": sorted(want - got)[:30]}
