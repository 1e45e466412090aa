#!/usr/bin/env bash
# Sets up .venv, builds the extension in place and runs the whole test suite against it.
# Extra arguments go to pytest, e.g. `bash scripts/test.sh tests/test_dtype_convert.py -x`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/env.sh
# `python -m pytest` from the repo root puts the in-place build first on sys.path.
rc=0
.venv/bin/python -m pytest -q -p no:cacheprovider "${@:-tests}" || rc=$?
if [ "$rc" = 5 ]; then
    echo "scripts/test.sh: pytest collected no tests" >&2
fi
exit "$rc"
