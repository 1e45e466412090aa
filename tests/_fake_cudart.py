"""Builds tests/fake_cudart/fake_cudart.c, a host stand-in for the CUDA runtime, into a
library named like the one tensorlib._C_cuda links (libcudart.so.N, symbols in that version
node), so the CUDA module's host code runs on machines without a GPU (see the C file).

`fake_env(tmpdir)` returns the environment for a Python process that loads the module against
the fake (its directory first in LD_LIBRARY_PATH, which the dynamic loader searches before
the module's RUNPATH), or None with the reason when that cannot be set up here."""

import glob
import os
import re
import shutil
import subprocess

import tensorlib

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "fake_cudart", "fake_cudart.c")
CUBLAS_SOURCE = os.path.join(HERE, "fake_cudart", "fake_cublas.c")
CUSPARSE_SOURCE = os.path.join(HERE, "fake_cudart", "fake_cusparse.c")
CUSPARSELT_SOURCE = os.path.join(HERE, "fake_cudart", "fake_cusparselt.c")


def cuda_module():
    """Path of the built tensorlib._C_cuda shared object, or None."""
    found = glob.glob(os.path.join(os.path.dirname(tensorlib.__file__), "_C_cuda*.so"))
    return found[0] if found else None


def _dynamic_section(path):
    out = subprocess.run(["readelf", "-d", path], capture_output=True, text=True, check=True).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(libcudart\.so[^\]]*)\]", out)
    paths = re.findall(r"\((?:RUNPATH|RPATH)\)\s+Library r(?:un)?path: \[([^\]]*)\]", out)
    return (needed[0] if needed else None), [p for s in paths for p in s.split(":")]


def build(tmpdir, cublas=True, cusparse=True, cusparselt=True):
    """(library directory, None) or (None, why not). With cublas, the directory also holds
    fake_cublas.c as libcublas.so.13, with cusparse fake_cusparse.c as libcusparse.so.12, with
    cusparselt fake_cusparselt.c as libcusparseLt.so.0 (each linked against the fake runtime),
    which the module's dlopen finds there."""
    module = cuda_module()
    if module is None:
        return None, "tensorlib._C_cuda is not built (no nvcc)"
    if shutil.which("readelf") is None or shutil.which("cc") is None:
        return None, "readelf and cc are needed to build the fake CUDA runtime"
    soname, runpaths = _dynamic_section(module)
    if soname is None:
        return None, "tensorlib._C_cuda does not link libcudart dynamically"
    include = next((os.path.join(os.path.dirname(p), "include") for p in runpaths
                    if os.path.isfile(os.path.join(os.path.dirname(p), "include", "cuda_runtime_api.h"))), None)
    if include is None:
        return None, "no cuda_runtime_api.h beside the module's RUNPATH"
    libdir = os.path.join(str(tmpdir), "fake_cudart")
    os.makedirs(libdir, exist_ok=True)
    script = os.path.join(libdir, "version.map")
    with open(script, "w") as f:
        f.write("%s { global: *; };\n" % soname)
    cmd = ["cc", "-std=gnu11", "-O1", "-g", "-Wall", "-Wextra", "-Werror", "-fPIC", "-shared", "-fvisibility=hidden",
           "-I", include, SOURCE, "-o", os.path.join(libdir, soname), "-Wl,-soname," + soname,
           "-Wl,--version-script=" + script, "-pthread"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("building the fake CUDA runtime failed:\n" + r.stdout + r.stderr)
    for wanted, source, name, what in ((cublas, CUBLAS_SOURCE, "libcublas.so.13", "cuBLAS"),
                                       (cusparse, CUSPARSE_SOURCE, "libcusparse.so.12", "cuSPARSE"),
                                       (cusparselt, CUSPARSELT_SOURCE, "libcusparseLt.so.0", "cuSPARSELt")):
        if not wanted:
            continue
        cmd = ["cc", "-std=gnu11", "-O1", "-g", "-Wall", "-Wextra", "-Werror", "-fPIC", "-shared",
               "-fvisibility=hidden", "-I", include, source, "-o", os.path.join(libdir, name),
               "-Wl,-soname," + name, "-L", libdir, "-l:" + soname, "-pthread"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("building the fake %s failed:\n" % what + r.stdout + r.stderr)
    return libdir, None


def fake_env(libdir, devices=1, memory=None):
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = libdir + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    env["TL_FAKE_CUDART"] = "1"
    root = os.path.dirname(os.path.dirname(os.path.abspath(tensorlib.__file__)))
    env["PYTHONPATH"] = root + (":" + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["TL_FAKE_CUDA_DEVICES"] = str(devices)
    if memory is not None:
        env["TL_FAKE_CUDA_MEMORY"] = str(memory)
    return env
