#!/usr/bin/env bash
# Builds tensorlib with AddressSanitizer + UBSan (TENSORLIB_SANITIZE=1: -fno-wrapv so that signed
# overflow is seen although CPython compiles with -fwrapv, float-cast-overflow, and the
# TL_DEBUG_CHECKS slot checks) into build/asan/ and runs the test suite against that build; any
# "runtime error:" report (UBSan recovers and goes on, so one run lists every site) or ASan
# report fails the run. The in-place extension in tensorlib/ is left untouched, so
# other work in the same tree keeps running on the normal build meanwhile.
# Extra arguments go to pytest, e.g. `bash scripts/sanitize.sh tests/test_core.py -x`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$PWD
TENSORLIB_NO_TORCH=${TENSORLIB_NO_TORCH:-0} bash scripts/env.sh >/dev/null
PY=$repo/.venv/bin/python

log=build/asan/build.log
mkdir -p build/asan
if ! TENSORLIB_SANITIZE=1 "$PY" setup.py build --build-base build/asan build_ext -j 2 >"$log" 2>&1; then
    cat "$log"; echo "scripts/sanitize.sh: sanitized build failed" >&2; exit 1
fi
grep -E "warning:|error:" "$log" || true
lib=$(ls -d "$repo"/build/asan/lib.*)
if ! readelf -d "$lib"/tensorlib/_C*.so | grep -q "libasan"; then
    echo "scripts/sanitize.sh: $lib/tensorlib/_C*.so is not linked with ASan" >&2; exit 1
fi

# libstdc++ is preloaded too: ASan intercepts __cxa_throw only when it is there at start-up
# (otherwise the first C++ exception torch throws aborts).
export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libstdc++.so)"
# Python itself leaks at exit; huge allocations in tests must fail with MemoryError, not abort.
# Reports also go to build/asan/report.* (pytest's fd capture would swallow them).
rm -f "$repo"/build/asan/report.*
export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1:abort_on_error=1:log_path=$repo/build/asan/report
export UBSAN_OPTIONS=halt_on_error=0:print_stacktrace=1:log_path=$repo/build/asan/report
export PYTHONPATH="$lib"
# Run from build/asan so that the source tree's tensorlib/ is not the one imported.
cd build/asan
"$PY" -c "import tensorlib, sys; assert tensorlib.__file__.startswith('$lib'), tensorlib.__file__
assert tensorlib._C._debug_checks, 'the sanitized build lacks TL_DEBUG_CHECKS'"
# Test paths given relative to the repo root are rewritten; with none, the whole suite runs.
args=() has_path=0
for a in "$@"; do
    if [ -e "$repo/${a%%::*}" ]; then args+=("$repo/$a"); has_path=1; else args+=("$a"); fi
done
[ "$has_path" = 1 ] || args+=("$repo/tests")
set -- "${args[@]}"
rc=0
"$PY" -m pytest -q -p no:cacheprovider --capture=sys --rootdir "$repo" "$@" || rc=$?
if ls "$repo"/build/asan/report.* >/dev/null 2>&1; then
    echo "scripts/sanitize.sh: sanitizer reports:" >&2
    cat "$repo"/build/asan/report.* >&2
    echo "scripts/sanitize.sh: distinct 'runtime error:' sites:" >&2
    grep -h "runtime error:" "$repo"/build/asan/report.* | sort | uniq -c | sort -rn >&2 || true
    [ "$rc" != 0 ] || rc=1
fi
exit "$rc"
