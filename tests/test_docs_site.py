"""The documentation site (mkdocs.yml, scripts/docs.sh) builds in strict mode from docs/ and
the live docstrings, so a broken link or a guide missing from the site fails the suite.
Skipped when MkDocs/mkdocstrings are not installed, except in CI (CI=true), where
scripts/env.sh installs them and a missing tool is a failure."""
import html
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tensorlib as tl

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ("mkdocs", "mkdocstrings", "mkdocstrings_handlers.python")


def _have_tools():
    try:
        return all(importlib.util.find_spec(m) is not None for m in TOOLS)
    except ModuleNotFoundError:
        return False


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    if not _have_tools():
        if os.environ.get("CI") == "true":
            pytest.fail("MkDocs/mkdocstrings-python missing in CI: scripts/env.sh installs them")
        pytest.skip("MkDocs/mkdocstrings-python not installed (scripts/env.sh installs them)")
    out = tmp_path_factory.mktemp("site")
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    return out


def test_every_guide_is_a_page(site):
    guides = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))
    assert guides and "interop" in guides
    missing = [g for g in guides if not (site / f"{g}.html").is_file()]
    assert not missing, missing
    # the repository files the guides link to outside docs/ are pages, the links point at them
    index = (site / "index.html").read_text()
    assert 'href="changelog.html"' in index and 'href="benchmarks.html"' in index
    assert "## Unreleased" not in (site / "changelog.html").read_text()  # rendered, not raw


@pytest.mark.parametrize("page, obj, members", [
    ("tensorlib", tl, ["add", "sum", "tensor", "manual_seed"]),
    ("tensor", tl.Tensor, ["add", "view", "numpy", "to"]),
    ("linalg", tl.linalg, ["solve", "svd"]),
    ("fft", tl.fft, ["fft", "rfft"]),
    ("sparse", tl.sparse, []),
    ("nn_functional", tl.nn.functional, []),
    ("cuda", tl.cuda, ["is_available"]),
    ("array_api", None, ["asarray", "concat"]),
])
def test_api_pages_render_live_docstrings(site, page, obj, members):
    text = html.unescape((site / "api" / f"{page}.html").read_text())
    prefix = {"tensor": "tensorlib.Tensor", "tensorlib": "tensorlib", "nn_functional": "tensorlib.nn.functional",
              "array_api": "tensorlib.array_api"}.get(page, f"tensorlib.{page}")
    for name in members:
        assert f'id="{prefix}.{name}"' in text, name
        doc = getattr(obj, name).__doc__ if obj is not None else None
        if doc:  # whatever __doc__ says at import time, shown as written
            first = doc.strip().splitlines()[0]
            assert f">{first}" in text, (name, first)  # opens its block
