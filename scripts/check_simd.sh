#!/usr/bin/env bash
# Proves the test suite does not depend on which SIMD path torch (the oracle) picks: runs it
# with torch forced to its scalar path (default), to AVX2, to AVX-512 (only where the CPU has
# it: torch does not fall back, it dies of an illegal instruction), and once with scripts/simd/corrupt_torch.py, which makes the in-process
# torch answer garbage wherever an input is inf/NaN (what its AVX-512 kernels do for gelu(inf)).
# Special values must be checked against the mathematical answer or torch's scalar path
# (tests/_torch_scalar.py), never the in-process torch. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/env.sh
run() { echo "== $1"; shift; "$@" .venv/bin/python -m pytest -q -p no:cacheprovider "${ARGS[@]}" | tail -1; }
ARGS=("${@:-tests}")
caps="default avx2"
grep -qw avx512f /proc/cpuinfo && caps="$caps avx512" || echo "(no AVX-512 on this CPU: that run is skipped)"
for cap in $caps; do
    run "ATEN_CPU_CAPABILITY=$cap" env ATEN_CPU_CAPABILITY=$cap
done
ARGS=(-p corrupt_torch "${ARGS[@]}")
run "in-process torch wrong on non-finite inputs" env PYTHONPATH=scripts/simd
