"""MkDocs hooks of the documentation site (mkdocs.yml; built by scripts/docs.sh).

- Lists in the navigation any guide of docs/ that mkdocs.yml's nav does not name yet.
- Generates the API reference pages (api/*.md), one per public module plus one for Tensor,
  each a mkdocstrings directive over the live object: the docstrings rendered are whatever
  ``__doc__`` says at import time (tensorlib attaches most of them then).
- Publishes the two repository files the guides link to outside docs/ (CHANGELOG.md and
  benchmarks/README.md) as site pages, and points the guides' links at those pages, so the
  guides stay plain Markdown that also reads right on a repository browser.
"""
import importlib.util
import posixpath
import re
import sys
from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parent.parent

# (page, title, object, mkdocstrings options as YAML lines)
API = [
    ("tensorlib", "tensorlib", "tensorlib", ['filters: ["!^_", "!^Tensor$"]']),
    ("tensor", "Tensor", "tensorlib.Tensor", ["inherited_members: true"]),  # TensorBase: the C methods
    ("linalg", "tensorlib.linalg", "tensorlib.linalg", []),
    ("fft", "tensorlib.fft", "tensorlib.fft", []),
    ("sparse", "tensorlib.sparse", "tensorlib.sparse", []),
    ("special", "tensorlib.special", "tensorlib.special", []),
    ("nn_functional", "tensorlib.nn.functional", "tensorlib.nn.functional", []),
    ("cuda", "tensorlib.cuda", "tensorlib.cuda", []),
    ("testing", "tensorlib.testing", "tensorlib.testing", []),
    ("array_api", "tensorlib.array_api", "tensorlib.array_api", []),
]

# repository files outside docs/ that guides link to -> their page on the site
OUTSIDE = {"CHANGELOG.md": "changelog.md", "benchmarks/README.md": "benchmarks.md"}


def _api_pages():
    """The API entries whose module exists in this checkout (tensorlib.special may not yet)."""
    return [a for a in API if importlib.util.find_spec(a[2].rsplit(".Tensor", 1)[0]) is not None]


def on_config(config):
    if str(ROOT) not in sys.path:  # the in-place build, as the tests use it (mkdocs restores
        sys.path.insert(0, str(ROOT))  # sys.path after loading this file, so not at import)
    nav = config["nav"]
    _add_unlisted_guides(nav)
    api = {"API reference": [{title: f"api/{page}.md"} for page, title, _, _ in _api_pages()]}
    at = next((i for i, e in enumerate(nav) if isinstance(e, dict) and "Changelog" in e), len(nav))
    nav.insert(at, api)
    return config


def _add_unlisted_guides(nav):
    """A guide added to docs/ but not to mkdocs.yml's nav joins the Guides section under its
    first heading (so a new guide never breaks the strict build)."""
    listed = set()

    def walk(entries):
        for e in entries:
            for v in (e.values() if isinstance(e, dict) else [e]):
                walk(v) if isinstance(v, list) else listed.add(v)
    walk(nav)
    guides = next(e["Guides"] for e in nav if isinstance(e, dict) and "Guides" in e)
    for path in sorted((ROOT / "docs").glob("*.md")):
        if path.name not in listed:
            title = next((line.lstrip("# ").strip() for line in path.read_text(encoding="utf-8").splitlines()
                          if line.startswith("# ")), path.stem)
            guides.append({title: path.name})


def on_files(files, config):
    for page, title, ident, options in _api_pages():
        opts = "".join(f"\n      {o}" for o in options)
        text = f"# {title}\n\n::: {ident}\n    options:\n      show_root_heading: false{opts}\n"
        files.append(File.generated(config, f"api/{page}.md", content=text))
    for src, uri in OUTSIDE.items():
        files.append(File.generated(config, uri, abs_src_path=str(ROOT / src)))
    return files


def on_page_markdown(markdown, page, config, files):
    here = posixpath.dirname(page.file.src_uri)
    for src, uri in OUTSIDE.items():
        # the link as the guide writes it (relative to its place in docs/), and the site's
        link = posixpath.relpath("../" + src, here or ".")
        target = posixpath.relpath(uri, here or ".")
        markdown = re.sub(r"\]\(" + re.escape(link) + r"(#[^)]*)?\)", lambda m: f"]({target}{m.group(1) or ''})", markdown)
    return markdown
