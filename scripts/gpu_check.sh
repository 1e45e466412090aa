#!/usr/bin/env bash
# gpu_check.sh - everything GPU-specific in one run, for the lent GPU machine (see
# docs/cuda.md): installs tensorlib with its CUDA backend the way that machine allows
# (Python 3.12 venv, no network: `pip install --no-build-isolation .`, system OpenBLAS),
# then runs the CUDA tests (tests/test_cuda.py, tests/test_cuda_api.py, tests/test_cuda_memory.py,
# tests/test_cuda_random.py, tests/test_cuda_reduce.py, tests/test_cuda_scan.py,
# tests/test_cuda_index.py, tests/test_cuda_blas.py, tests/test_cuda_misc.py, tests/test_cuda_sparse.py, tests/test_cuda_semi.py) against the
# installed package. Logs and a JUnit XML land in $OUT (default ./gpu_out). Exit status:
# the build's when it fails, else pytest's over the CUDA tests. Then, where the CPU has
# AVX-512, the CPU suite once under torch's AVX-512 kernels (log only).
set -u
REPO=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$REPO/gpu_out}
PY=${PYTHON:-python3}
mkdir -p "$OUT"

{ date -u; nvidia-smi; command -v nvcc && nvcc --version; "$PY" --version
  "$PY" -c "import numpy, torch; print('numpy', numpy.__version__, 'torch', torch.__version__)"; } > "$OUT/env.log" 2>&1

cd "$REPO"
if ! TENSORLIB_CUDA=1 TENSORLIB_SYSTEM_OPENBLAS=1 MAX_JOBS=16 \
        "$PY" -m pip install --no-build-isolation --no-deps -v . > "$OUT/build.log" 2>&1; then
    echo "gpu_check: build failed; see $OUT/build.log"; tail -40 "$OUT/build.log"
    exit 1
fi

# Run from a copy of the tests so `import tensorlib` finds the installed package (with
# tensorlib/_C_cuda*.so), not the source tree.
RUN=$(mktemp -d)
cp -r "$REPO/tests" "$RUN/tests"
cd "$RUN"
"$PY" -c "import tensorlib as tl; print('available', tl.cuda.is_available(), 'count', tl.cuda.device_count());
print(tl.cuda.get_device_properties(0)); print(tl.ones(3, device='cuda') )" > "$OUT/smoke.log" 2>&1
"$PY" -m pytest -q -p no:cacheprovider -rs tests/test_cuda.py tests/test_cuda_api.py tests/test_cuda_memory.py tests/test_cuda_random.py \
    tests/test_cuda_reduce.py tests/test_cuda_scan.py tests/test_cuda_index.py tests/test_cuda_blas.py tests/test_cuda_misc.py tests/test_cuda_sparse.py tests/test_cuda_semi.py tests/test_special.py \
    --junitxml="$OUT/junit_cuda.xml" > "$OUT/test_cuda.log" 2>&1
rc=$?
tail -5 "$OUT/test_cuda.log"
# issue 12's device rows against torch CUDA (a log and JSON; never changes the exit status)
"$PY" "$REPO/benchmarks/cuda_bench.py" --json "$OUT/cuda_bench.json" > "$OUT/cuda_bench.log" 2>&1
tail -20 "$OUT/cuda_bench.log"
# Issue 9 asks for the CPU suite under torch's AVX-512 kernels too; this machine's CPU usually
# has them (this shared one has not). The torch here is 2.11, not the 2.13 the tests pin, so the
# log is evidence to read, not a verdict: it never changes the exit status.
if grep -q avx512f /proc/cpuinfo; then
    ATEN_CPU_CAPABILITY=avx512 "$PY" -m pytest -q -p no:cacheprovider -rf tests \
        --ignore=tests/test_cuda.py --ignore=tests/test_cuda_api.py --ignore=tests/test_cuda_memory.py --ignore=tests/test_cuda_random.py > "$OUT/test_cpu_avx512.log" 2>&1
    tail -3 "$OUT/test_cpu_avx512.log"
fi
exit $rc
