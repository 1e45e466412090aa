#!/usr/bin/env bash
# Builds the documentation site (mkdocs.yml: the guides in docs/ and an API reference from the
# live docstrings) into build/site/, in strict mode: a broken link, a missing page or an
# unresolved reference fails the build. Extra arguments go to `mkdocs build` (e.g. -d DIR).
# scripts/env.sh installs MkDocs and mkdocstrings into .venv and builds tensorlib in place.
# tests/test_docs_site.py runs the same build in the test suite (so CI builds it).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/env.sh
.venv/bin/python -m mkdocs build --strict "$@"
echo "site: $(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build/site/index.html"
