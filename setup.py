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

Build variants (environment variables):
  TENSORLIB_SANITIZE=1  AddressSanitizer + UBSan (signed overflow included: -fno-wrapv overrides
                        CPython's -fwrapv; float-cast-overflow too), -O1 -g, and the debug
                        checks of TENSORLIB_DEBUG (see scripts/sanitize.sh)
  TENSORLIB_DEBUG=1     -O0 -g, and TL_DEBUG_CHECKS: every Tensor slot aborts when it returns a
                        value with a Python exception set, or NULL without one
"""
import glob
import os
import shutil

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
              "-pthread", "-fno-strict-aliasing", "-D_GNU_SOURCE"]
    ldflags = ["-pthread", "-Wl,-rpath,$ORIGIN"]
    if _env("TENSORLIB_SANITIZE"):
        # Reports recover (every site is printed once); scripts/sanitize.sh fails on any of them.
        san = ["-fsanitize=address,undefined,float-cast-overflow", "-fno-omit-frame-pointer"]
        cflags = [f for f in cflags if f != "-O3"] + ["-O1", "-g", "-fno-wrapv", "-DTL_DEBUG_CHECKS"] + san
        ldflags += san
    elif _env("TENSORLIB_DEBUG"):
        cflags = [f for f in cflags if f != "-O3"] + ["-O0", "-g", "-DTL_DEBUG_CHECKS"]
    return cflags, ldflags


BLAS_INCLUDES, BLAS_LIBDIRS, BLAS_LIBS, BLAS_MACROS, BLAS_SO = find_blas()


class BuildExt(build_ext):
    """Adds NumPy's headers (importable only once build requirements are installed) and
    copies the bundled OpenBLAS next to the built extension."""

    def run(self):
        import numpy
        for ext in self.extensions:
            ext.include_dirs.append(numpy.get_include())
        super().run()
        if BLAS_SO:
            for ext in self.extensions:
                dest = os.path.dirname(self.get_ext_fullpath(ext.name))
                os.makedirs(dest, exist_ok=True)
                shutil.copy2(BLAS_SO, os.path.join(dest, os.path.basename(BLAS_SO)))


def _files(pattern):
    return sorted(f for f in glob.glob(os.path.join("csrc", "**", pattern), recursive=True)
                  if not f.startswith(os.path.join("csrc", "cuda", "")))


cflags, ldflags = compile_flags()
extension = Extension(
    "tensorlib._C",
    sources=_files("*.c"),
    depends=_files("*.h"),
    include_dirs=["csrc"] + BLAS_INCLUDES,
    library_dirs=BLAS_LIBDIRS,
    libraries=BLAS_LIBS + ["m"],
    define_macros=BLAS_MACROS + [("NPY_NO_DEPRECATED_API", "NPY_2_0_API_VERSION")],
    extra_compile_args=cflags,
    extra_link_args=ldflags,
)

# Shared libraries reach build/ and the wheel only through build_ext. Left to build_py, an
# in-place build's tensorlib/_C*.so (listed in a stale egg-info SOURCES.txt) would be copied
# into build/lib, where build_ext would take it as up to date and ship or reuse it.
setup(ext_modules=[extension], cmdclass={"build_ext": BuildExt},
      packages=find_packages(include=["tensorlib", "tensorlib.*"]),
      include_package_data=False,
      package_data={"tensorlib": ["*.pyi", "py.typed"]},
      exclude_package_data={"": ["*.so", "*.so.*"]})
