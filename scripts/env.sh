#!/usr/bin/env bash
# Creates .venv (once) with the build and test requirements, then builds tensorlib._C in place.
# Used by scripts/test.sh, scripts/demo.sh, scripts/bench.sh and .ci/run; safe to run repeatedly.
#   TENSORLIB_NO_TORCH=1  do not install torch (tests that compare against it are skipped)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PY=.venv/bin/python
[ -x "$PY" ] || python3 -m venv .venv
pip_install() { "$PY" -m pip install -q --disable-pip-version-check "$@"; }

if [ ! -e .venv/.deps-v6 ]; then
    # scipy: the goodness-of-fit statistics of tests/test_random.py (skipped without it)
    # mypy: tests/test_stubs.py type-checks the stubs
    # array-api-compat: tests/test_array_api.py; ndindex, pytest-json-report: the Array API
    # conformance suite (data-apis/array-api-tests, run when fetched into a cache folder)
    # dask[array], distributed: tests/test_dask.py (skipped without them)
    # mkdocs, mkdocstrings-python: the documentation site (scripts/docs.sh, tests/test_docs_site.py)
    pip_install "setuptools>=68" wheel "numpy>=2" scipy-openblas32 pytest hypothesis ml_dtypes threadpoolctl scipy \
        array-api-compat ndindex pytest-json-report mypy "dask[array]" distributed \
        "mkdocs>=1.6,<2" "mkdocstrings-python>=2,<3"
    touch .venv/.deps-v6
fi
if [ "${TENSORLIB_NO_TORCH:-0}" != 1 ] && [ ! -e .venv/.torch-v1 ]; then
    # Exactly 2.13.0: that CPU build lies on this machine's disk; a looser spec pulls a CUDA build.
    pip_install torch==2.13.0
    touch .venv/.torch-v1
fi

# In-place build; setuptools skips it when no csrc/ file is newer than the extension.
log=$(mktemp)
if ! "$PY" setup.py build_ext --inplace -j 2 >"$log" 2>&1; then
    cat "$log"; rm -f "$log"
    echo "scripts/env.sh: build failed" >&2
    exit 1
fi
grep -E "warning:|error:" "$log" || true
rm -f "$log"
