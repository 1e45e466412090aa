#!/usr/bin/env bash
# Sets up .venv, builds the extension in place and runs the benchmarks (tensorlib vs NumPy vs torch).
# Arguments go to benchmarks/run.py: --filter REGEX, --quick, --threads N, --bandwidth.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/env.sh
exec .venv/bin/python benchmarks/run.py "$@"
