#!/usr/bin/env bash
# Builds tensorlib with ThreadSanitizer (TENSORLIB_SANITIZE=thread) into build/tsan/ and runs the
# thread tests (tests/test_gil.py, tests/test_threads.py, or the pytest arguments given) against
# it with libtsan preloaded. CPython is not TSan-built: scripts/tsan.supp silences reports from
# the interpreter, NumPy and OpenBLAS; the run fails when a report names a frame of tensorlib's
# extension (build/tsan/report.* keep them all). die_after_fork=0: the fork tests start threads
# in the child on purpose. The in-place build in tensorlib/ is untouched.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$PWD
PY=$repo/.venv/bin/python
log=build/tsan/build.log
mkdir -p build/tsan
if ! TENSORLIB_SANITIZE=thread "$PY" setup.py build --build-base build/tsan build_ext -j 2 >"$log" 2>&1; then
    cat "$log"; echo "scripts/tsan.sh: TSan build failed" >&2; exit 1
fi
grep -E "warning:|error:" "$log" || true
lib=$(ls -d "$repo"/build/tsan/lib.*)
rm -f "$repo"/build/tsan/report.*
export LD_PRELOAD="$(gcc -print-file-name=libtsan.so)"
export TSAN_OPTIONS="suppressions=$repo/scripts/tsan.supp:report_signal_unsafe=0:ignore_noninstrumented_modules=1:log_path=$repo/build/tsan/report:halt_on_error=0:die_after_fork=0"
export PYTHONPATH="$lib"
cd build/tsan
"$PY" -c "import tensorlib; assert tensorlib.__file__.startswith('$lib'), tensorlib.__file__"
args=()
for a in "$@"; do if [ -e "$repo/${a%%::*}" ]; then args+=("$repo/$a"); else args+=("$a"); fi; done
[ "${#args[@]}" -gt 0 ] || args=("$repo/tests/test_gil.py" "$repo/tests/test_threads.py")
rc=0
"$PY" -m pytest -q -p no:cacheprovider --capture=sys --rootdir "$repo" "${args[@]}" || rc=$?
if ls "$repo"/build/tsan/report.* >/dev/null 2>&1; then
    n=$(grep -l "WARNING: ThreadSanitizer" "$repo"/build/tsan/report.* | xargs -r grep -l "_C\.cpython\|csrc/" | wc -l)
    echo "scripts/tsan.sh: $(grep -c "WARNING: ThreadSanitizer" "$repo"/build/tsan/report.* | awk -F: '{s+=$2} END {print s}') reports, in $n files naming tensorlib's code" >&2
    if [ "$n" != 0 ]; then
        grep -l "_C\.cpython\|csrc/" "$repo"/build/tsan/report.* | xargs cat >&2
        [ "$rc" != 0 ] || rc=1
    fi
fi
exit "$rc"
