"""The PyTorch doc pages of the specification (the seeds, ../shared/seeds/) run with
``import tensorlib as torch`` and print what torch 2.13 prints, up to the module name.

Every ``>>>`` statement of every seed runs in order, one namespace per page (as a reader
typing along), once with tensorlib as ``torch`` and once with torch 2.13; the shown output
(an expression's repr, prints, or ``ExceptionType: message``) must be the same after
'tensorlib' -> 'torch' and with whitespace runs collapsed (torch's printer wraps lines at
80 columns, so the longer module name can move a line break). Both generators are seeded
with 0 at the start of every block, so random values must match too. Where torch 2.13
itself cannot run a statement the page shows working (named tensors, which torch 2.13
removed), the page's own output is the oracle. Blocks that need CUDA are skipped (SKIP);
the statements that still differ are listed with the reason (KNOWN) and must stay exactly
these. Skipped when ../shared/seeds is absent."""
import codeop
import contextlib
import doctest
import io
import re
import warnings
from pathlib import Path

import pytest

import tensorlib

# ../shared/seeds beside the repository (a worktree under /work/wt/<name> looks one more level up)
SEEDS = next((p / "shared" / "seeds" for p in Path(__file__).resolve().parents[2:4] if (p / "shared" / "seeds").is_dir()),
             Path(__file__).resolve().parent.parent.parent / "shared" / "seeds")

# (seed, line of the block's first >>>): why the block is not run
SKIP = {
    ("000", 169): "CUDA: a cuda device as a context manager",
    ("000", 188): "CUDA: tensors on cuda:1",
    ("000", 207): "CUDA: tensors on cuda:1",
    ("000", 215): "CUDA: scalars moved between CPU and GPU",
    ("002", 250): "CUDA: a cuda device as a context manager",
    ("002", 270): "CUDA: tensors on cuda:1",
    ("002", 281): "CUDA: tensors on cuda:1",
    ("002", 289): "CUDA: scalars moved between CPU and GPU",
    ("004", 209): "CUDA: 2:4 semi-structured sparsity on a GPU (half tensors, .cuda())",
    ("004", 248): "CUDA: semi-structured matmul on a GPU",
    ("004", 259): "CUDA: semi-structured masked input on a GPU",
}

# (seed, line of the statement): why tensorlib's output still differs from torch's
KNOWN = {
}


def _blocks(text):
    """(line, text) of each run of doctest paragraphs (paragraphs whose first line starts
    with >>>) separated only by blank lines: a literal block or a doctest block of the page."""
    lines = text.splitlines()
    blocks, i = [], 0
    while i < len(lines):
        if not lines[i].lstrip().startswith(">>>"):
            i += 1
            continue
        j = i
        while j < len(lines) and lines[j].strip():
            j += 1
        indent = len(lines[i]) - len(lines[i].lstrip())
        para = "\n".join(line[indent:] for line in lines[i:j])
        if blocks and all(not line.strip() for line in lines[blocks[-1][2]:i]):
            blocks[-1][1].append((i + 1, para))
            blocks[-1][2] = j
        else:
            blocks.append([i + 1, [(i + 1, para)], j])
        i = j
    return [(line, paras) for line, paras, _ in blocks]


def _statements(first_line, para):
    """(line, source, shown output) of a paragraph's examples; continuation lines the page
    wrote without '... ' are joined back to their statement."""
    out = []
    for ex in doctest.DocTestParser().get_examples(para):
        src, want = ex.source, ex.want.splitlines(True)
        while want:
            try:
                if codeop.compile_command(src, "<doc>", "single") is not None:
                    break
            except SyntaxError:
                break
            src += want.pop(0)
        out.append((first_line + ex.lineno, src, "".join(want)))
    return out


def _run(source, ns):
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(source, "<doc>", "single"), ns)
    except Exception as e:  # noqa: BLE001 - the error is the statement's output
        buf.write(f"{type(e).__name__}: {e}\n")
    return buf.getvalue()


def _norm(s):
    # the Arabic pages' outputs were translated with Arabic commas
    return " ".join(s.replace("tensorlib", "torch").replace("\u060c", ",").split())


def _is_error(shown):
    return bool(re.match(r"(Traceback|\w+(Error|Exception)\b)", shown.strip()))


def _page(seed, torch):
    """Runs every statement of a page; returns (ran, skipped, same-as-torch, same-as-page,
    differing) with differing {(seed, line): (source, tensorlib's, torch's)}."""
    text = next(SEEDS.glob(f"{seed}_*.txt")).read_text(encoding="utf-8")
    ns_tl, ns_torch = {"torch": tensorlib}, {"torch": torch}
    counts, diff = {"ran": 0, "skipped": 0, "torch": 0, "page": 0}, {}
    for line, paras in _blocks(text):
        stmts = [s for first, para in paras for s in _statements(first, para)]
        if (seed, line) in SKIP:
            counts["skipped"] += len(stmts)
            continue
        tensorlib.manual_seed(0)
        torch.manual_seed(0)
        for at, source, want in stmts:
            counts["ran"] += 1
            mine, theirs = _norm(_run(source, ns_tl)), _norm(_run(source, ns_torch))
            if mine == theirs:
                counts["torch"] += 1
            elif _is_error(theirs) and mine == _norm(want):
                counts["page"] += 1  # torch 2.13 cannot run it; tensorlib shows what the page shows
            else:
                diff[(seed, at)] = (source.strip(), mine, theirs)
    return counts, diff


@pytest.mark.parametrize("seed", ["000", "001", "002", "003", "004"])
def test_doc_page_prints_what_torch_prints(seed, torch):
    if not SEEDS.is_dir():
        pytest.skip("../shared/seeds is absent")
    counts, diff = _page(seed, torch)
    assert counts["ran"] > 0
    known = {k for k in KNOWN if k[0] == seed}
    new = {k: v for k, v in diff.items() if k not in known}
    assert not new, "tensorlib prints differently:\n" + "\n".join(
        f"  {k}: {src!r}\n    tensorlib: {a[:300]!r}\n    torch:     {b[:300]!r}" for k, (src, a, b) in new.items())
    assert known <= set(diff), f"now as torch: {sorted(known - set(diff))} (remove from KNOWN)"


def test_skip_list_names_real_blocks():
    if not SEEDS.is_dir():
        pytest.skip("../shared/seeds is absent")
    starts = {(p.name[:3], line) for p in SEEDS.glob("*.txt") for line, _ in _blocks(p.read_text(encoding="utf-8"))}
    assert set(SKIP) <= starts, sorted(set(SKIP) - starts)
    assert all("CUDA" in why or "autograd" in why or "nn" in why for why in SKIP.values())
