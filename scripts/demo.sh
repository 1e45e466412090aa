#!/usr/bin/env bash
# Sets up .venv, builds the extension in place and runs examples/demo.py.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
TENSORLIB_NO_TORCH=${TENSORLIB_NO_TORCH:-1} bash scripts/env.sh
PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" .venv/bin/python examples/demo.py
