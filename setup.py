"""Build script for tensorlib's C extension.

The extension ``tensorlib._C`` is compiled from every ``.c`` file under csrc/
(csrc/cuda/ excepted) against the NumPy C API; every header under csrc/ is a
dependency, so editing one rebuilds the extension.

BLAS: by default the ``scipy-openblas32`` wheel (a build requirement only)
provides the header and ``libscipy_openblas.so``; the library is copied next to
the extension and found through an ``$ORIGIN`` rpath, so the wheel is not a
run-time dependency. With ``TENSORLIB_SYSTEM_OPENBLAS=1``, or when
scipy_openblas32 is not importable (e.g. ``pip install --no-build-isolation .``
on a machine with only Debian's libopenblas-dev), the system's libopenblas and
its cblas.h are used instead.

CUDA: the second extension ``tensorlib._C_cuda`` is compiled from csrc/cuda/*.cu by nvcc
(found through $CUDA_HOME/bin, /usr/local/cuda/bin or PATH) and linked against the shared
cudart. ``TENSORLIB_CUDA=0`` leaves it out, ``=1`` requires it (error without nvcc); unset,
it is built when nvcc is found. It reaches the core only through the capsule
``tensorlib._C._backend_api`` (csrc/backend/backend.h).

Build variants (environment variables):
  TENSORLIB_SANITIZE=1  AddressSanitizer + UBSan (signed overflow included: -fno-wrapv overrides
                        CPython's -fwrapv; float-cast-overflow too), -O1 -g, and the debug
                        checks of TENSORLIB_DEBUG (see scripts/sanitize.sh)
  TENSORLIB_SANITIZE=thread  ThreadSanitizer, -O1 -g (see scripts/tsan.sh)
  TENSORLIB_DEBUG=1     -O0 -g, and TL_DEBUG_CHECKS: every Tensor slot aborts when it returns a
                        value with a Python exception set, or NULL without one
"""
import glob
import os
import shutil
import sysconfig

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

SYSTEM_BLAS_INCLUDES = ("/usr/include/x86_64-linux-gnu/openblas-pthread",
                        "/usr/include/aarch64-linux-gnu/openblas-pthread",
                        "/usr/include/openblas")


def _env(name):
    return os.environ.get(name) == "1"


def find_blas():
    """Return (include_dirs, library_dirs, libraries, macros, shared library to bundle or None)."""
    sob = None
    if not _env("TENSORLIB_SYSTEM_OPENBLAS"):
        try:
            import scipy_openblas32 as sob
        except ImportError:
            print("tensorlib: scipy_openblas32 not importable; linking the system OpenBLAS")
    if sob is not None:
        libdir, libname = sob.get_lib_dir(), sob.get_library()  # libname: "scipy_openblas"
        macros = [("TL_BLAS_PREFIX", "scipy_"), ("TL_BLAS_HEADER", '"scipy_openblas.h"')]
        return [sob.get_include_dir()], [libdir], [libname], macros, os.path.join(libdir, "lib%s.so" % libname)
    includes = [d for d in SYSTEM_BLAS_INCLUDES if os.path.isdir(d)]
    macros = [("TL_BLAS_PREFIX", ""), ("TL_BLAS_HEADER", '"cblas.h"')]
    return includes, [], ["openblas"], macros, None


def compile_flags():
    """Return (cflags, ldflags) for the selected build variant."""
    cflags = ["-std=c11", "-O3", "-Wall", "-Wextra", "-Wno-unused-parameter",
              "-Wno-missing-field-initializers", "-Wno-cast-function-type",
              "-pthread", "-fno-strict-aliasing", "-fno-math-errno", "-D_GNU_SOURCE"]
    ldflags = ["-pthread", "-Wl,-rpath,$ORIGIN"]
    if os.environ.get("TENSORLIB_SANITIZE") == "thread":
        # ThreadSanitizer (scripts/tsan.sh): the thread pool and the GIL-released regions. No
        # target_clones: their IFUNC resolvers, instrumented, run during relocation, before TSan
        # is ready for the library, and crash the import.
        san = ["-fsanitize=thread", "-fno-omit-frame-pointer"]
        cflags = [f for f in cflags if f != "-O3"] + ["-O1", "-g", "-DTL_NO_CLONES"] + san
        ldflags += san
    elif _env("TENSORLIB_SANITIZE"):
        # Reports recover (every site is printed once); scripts/sanitize.sh fails on any of them.
        san = ["-fsanitize=address,undefined,float-cast-overflow", "-fno-omit-frame-pointer"]
        cflags = [f for f in cflags if f != "-O3"] + ["-O1", "-g", "-fno-wrapv", "-DTL_DEBUG_CHECKS"] + san
        ldflags += san
    elif _env("TENSORLIB_DEBUG"):
        cflags = [f for f in cflags if f != "-O3"] + ["-O0", "-g", "-DTL_DEBUG_CHECKS"]
    return cflags, ldflags


def find_cuda():
    """Return the CUDA toolkit root to build tensorlib._C_cuda with, or None."""
    mode = os.environ.get("TENSORLIB_CUDA", "")
    if mode == "0":
        return None
    candidates = [os.path.join(os.environ[k], "bin", "nvcc") for k in ("CUDA_HOME", "CUDA_PATH") if os.environ.get(k)]
    candidates += ["/usr/local/cuda/bin/nvcc", shutil.which("nvcc") or ""]
    for nvcc in candidates:
        if nvcc and os.path.isfile(nvcc):
            root = os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
            if os.path.isfile(os.path.join(root, "include", "cuda_runtime.h")):
                return root
    if mode == "1":
        raise SystemExit("tensorlib: TENSORLIB_CUDA=1 but no nvcc with the CUDA headers was found")
    print("tensorlib: nvcc not found; building without the CUDA backend")
    return None


BLAS_INCLUDES, BLAS_LIBDIRS, BLAS_LIBS, BLAS_MACROS, BLAS_SO = find_blas()


class BuildExt(build_ext):
    """Adds NumPy's headers (importable only once build requirements are installed),
    copies the bundled OpenBLAS next to the built extension, and compiles the .cu sources
    of the CUDA extension with nvcc."""

    def build_extension(self, ext):
        if ext.name != "tensorlib._C_cuda":
            return super().build_extension(ext)
        from setuptools.modified import newer_group
        out = self.get_ext_fullpath(ext.name)
        if not (self.force or newer_group(ext.sources + ext.depends, out, "newer")):
            return
        nvcc = os.path.join(CUDA_ROOT, "bin", "nvcc")
        py_include = sysconfig.get_paths()["include"]
        objects = []
        for src in ext.sources:  # one nvcc call per .cu file; the host compiler links
            obj = os.path.join(self.build_temp, os.path.splitext(src)[0] + ".o")
            os.makedirs(os.path.dirname(obj), exist_ok=True)
            self.spawn([nvcc, "-c", src, "-o", obj, "-std=c++17", "-O3", "-Xcompiler", "-fPIC,-Wall,-Wextra",
                        "-Icsrc", "-I" + py_include] + NVCC_ARCH + NVCC_FILE_FLAGS.get(os.path.basename(src), []))
            objects.append(obj)
        self.compiler.link_shared_object(
            objects, out, library_dirs=ext.library_dirs, libraries=ext.libraries,
            runtime_library_dirs=ext.runtime_library_dirs, target_lang="c++")

    def run(self):
        import numpy
        for ext in self.extensions:
            ext.include_dirs.append(numpy.get_include())
        super().run()
        if not any(ext.name == "tensorlib._C_cuda" for ext in self.extensions):
            # a CPU-only build never ships (or, in place, imports) a _C_cuda left by an
            # earlier build with the toolkit
            stale = self.get_ext_fullpath("tensorlib._C_cuda")
            if os.path.exists(stale):
                os.remove(stale)
                print(f"tensorlib: removed {stale} (built earlier; this build has no CUDA backend)")
        if BLAS_SO:
            for ext in self.extensions:
                dest = os.path.dirname(self.get_ext_fullpath(ext.name))
                os.makedirs(dest, exist_ok=True)
                shutil.copy2(BLAS_SO, os.path.join(dest, os.path.basename(BLAS_SO)))


def _files(pattern):
    return sorted(f for f in glob.glob(os.path.join("csrc", "**", pattern), recursive=True)
                  if not f.startswith(os.path.join("csrc", "cuda", "")))


cflags, ldflags = compile_flags()
extensions = [Extension(
    "tensorlib._C",
    sources=_files("*.c"),
    depends=_files("*.h"),
    include_dirs=["csrc"] + BLAS_INCLUDES,
    library_dirs=BLAS_LIBDIRS,
    libraries=BLAS_LIBS + ["m"],
    define_macros=BLAS_MACROS + [("NPY_NO_DEPRECATED_API", "NPY_2_0_API_VERSION")],
    extra_compile_args=cflags,
    extra_link_args=ldflags,
)]

CUDA_ROOT = find_cuda()
# Real code for the machines we check on (H100/H200: sm_90) plus PTX for newer GPUs.
NVCC_ARCH = ["-gencode=arch=compute_90,code=sm_90", "-gencode=arch=compute_90,code=compute_90"]
# random.cu, scan.cu: no multiply-add contraction, so the float32 samplers and the complex
# cumprod round as the CPU's (-std=c11 keeps GCC from contracting there): the same bits on both
# devices.
# no contraction of a * b + c into FMAs: the device rounds as the CPU kernels (C11: -ffp-contract=off)
NVCC_FILE_FLAGS = {"random.cu": ["-fmad=false"], "scan.cu": ["-fmad=false"], "elementwise.cu": ["-fmad=false"]}
if CUDA_ROOT:
    cuda_lib = next((d for d in (os.path.join(CUDA_ROOT, "lib64"), os.path.join(CUDA_ROOT, "lib"))
                     if os.path.isdir(d)), os.path.join(CUDA_ROOT, "lib64"))
    extensions.append(Extension(
        "tensorlib._C_cuda",
        sources=sorted(glob.glob(os.path.join("csrc", "cuda", "*.cu"))),
        depends=sorted(glob.glob(os.path.join("csrc", "cuda", "*.h")) + glob.glob(os.path.join("csrc", "backend", "*.h"))
                       + sorted(glob.glob(os.path.join("csrc", "kernels", "hd_*.h")))  # hd_ewp.h, hd_sort.h too
                       + [os.path.join("csrc", "core", "error.h"),
                          os.path.join("csrc", "core", "device.h")]),
        library_dirs=[cuda_lib], runtime_library_dirs=[cuda_lib], libraries=["cudart", "stdc++"]))

# Shared libraries reach build/ and the wheel only through build_ext. Left to build_py, an
# in-place build's tensorlib/_C*.so (listed in a stale egg-info SOURCES.txt) would be copied
# into build/lib, where build_ext would take it as up to date and ship or reuse it.
setup(ext_modules=extensions, cmdclass={"build_ext": BuildExt},
      packages=find_packages(include=["tensorlib", "tensorlib.*"]),
      include_package_data=False,
      package_data={"tensorlib": ["*.pyi", "py.typed"], "tensorlib.nn": ["*.pyi"], "tensorlib.array_api": ["*.pyi"],
                    "tensorlib.signal": ["*.pyi"]},
      exclude_package_data={"": ["*.so", "*.so.*"]})
