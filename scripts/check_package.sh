#!/usr/bin/env bash
# Packaging smoke test: `pip install .` into a throw-away venv (build isolation fetches numpy,
# setuptools and scipy-openblas32 from PyPI), then checks the installed package from /tmp:
# the extension and the bundled OpenBLAS sit side by side and resolve through $ORIGIN,
# `import tensorlib` does not import NumPy or the CUDA backend, the CUDA module (built where
# nvcc is found) resolves its libraries, and scipy-openblas32 is not a run-time dependency.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$PWD
venv=$(mktemp -d)/venv
trap 'rm -rf "$(dirname "$venv")"' EXIT
python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check "$repo"
cd /tmp
REPO=$repo "$venv/bin/python" - <<'PY'
import importlib.util, os, subprocess, sys
import tensorlib
assert "numpy" not in sys.modules, "import tensorlib imported numpy"
pkg = os.path.dirname(tensorlib.__file__)
assert not pkg.startswith(os.environ["REPO"]), pkg  # the installed copy, not the source tree
files = os.listdir(pkg)
ext = [f for f in files if f.startswith("_C.") and f.endswith(".so")]
assert ext, files
ldd = subprocess.run(["ldd", os.path.join(pkg, ext[0])], capture_output=True, text=True, check=True).stdout
assert "not found" not in ldd, ldd
if "scipy_openblas" in ldd:
    line = next(l for l in ldd.splitlines() if "scipy_openblas" in l)
    assert pkg in line, line
    assert "libscipy_openblas.so" in files, files
assert importlib.util.find_spec("scipy_openblas32") is None, "scipy-openblas32 installed at run time"
assert "tensorlib.cuda" not in sys.modules and "tensorlib._C_cuda" not in sys.modules, "import loaded CUDA"
cuda_ext = [f for f in files if f.startswith("_C_cuda.") and f.endswith(".so")]
if cuda_ext:  # built where nvcc was found: its libraries resolve and the module loads
    ldd = subprocess.run(["ldd", os.path.join(pkg, cuda_ext[0])], capture_output=True, text=True, check=True).stdout
    assert "not found" not in ldd, ldd
    assert tensorlib.cuda.is_built()
# the type stubs ship (PEP 561): py.typed and every .pyi of the source tree
stubs = [os.path.relpath(os.path.join(d, f), os.path.join(os.environ["REPO"], "tensorlib"))
         for d, _, fs in os.walk(os.path.join(os.environ["REPO"], "tensorlib")) for f in fs if f.endswith(".pyi")]
missing = [f for f in stubs + ["py.typed"] if not os.path.exists(os.path.join(pkg, f))]
assert stubs and not missing, missing
t = tensorlib.arange(6).view(2, 3).t()
assert t.numpy().T.tolist() == [[0, 1, 2], [3, 4, 5]]
print("package ok:", pkg, sorted(f for f in files if f.endswith(".so")))
PY
