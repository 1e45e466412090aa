"""Build script for tensorlib's C extension.

The extension ``tensorlib._C`` is compiled from every ``.c`` file under csrc/
against the NumPy C API. Dense linear algebra links OpenBLAS: by default the
``scipy-openblas32`` wheel (a build requirement only) provides headers and the
shared library, which is copied into the package and found through an
``$ORIGIN`` rpath, so the wheel is not needed at run time. Set
``TENSORLIB_SYSTEM_OPENBLAS=1`` (or have no scipy-openblas32 importable) to
link the system's libopenblas instead.

``TENSORLIB_SANITIZE=1`` builds with AddressSanitizer and UBSan.
"""
import glob
import os
import shutil
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))


def _openblas():
    """Return (include_dirs, library_dirs, libraries, macros, shared_lib_to_copy)."""
    if os.environ.get("TENSORLIB_SYSTEM_OPENBLAS") != "1":
        try:
            import scipy_openblas32 as sob
        except ImportError:
            sob = None
        if sob is not None:
            libdir = sob.get_lib_dir()
            libname = sob.get_library()  # "scipy_openblas"
            so = os.path.join(libdir, "lib%s.so" % libname)
            return ([sob.get_include_dir()], [libdir], [libname],
                    [("TL_BLAS_PREFIX", "scipy_"), ("TL_BLAS_HEADER", '"scipy_openblas.h"')], so)
    inc = [d for d in ("/usr/include/x86_64-linux-gnu/openblas-pthread",
                       "/usr/include/aarch64-linux-gnu/openblas-pthread",
                       "/usr/include/openblas") if os.path.isdir(d)]
    return (inc, [], ["openblas"], [("TL_BLAS_PREFIX", ""), ("TL_BLAS_HEADER", '"cblas.h"')], None)


class BuildExt(build_ext):
    """Copies the bundled OpenBLAS next to the extension after linking."""

    def run(self):
        import numpy
        for ext in self.extensions:
            ext.include_dirs.append(numpy.get_include())
        super().run()
        so = getattr(self.distribution, "_tl_blas_so", None)
        if so:
            for dest_dir in {os.path.dirname(self.get_ext_fullpath(e.name)) for e in self.extensions}:
                os.makedirs(dest_dir, exist_ok=True)
                shutil.copy2(so, os.path.join(dest_dir, os.path.basename(so)))


def _extension():
    sources = sorted(glob.glob(os.path.join("csrc", "**", "*.c"), recursive=True))
    sources = [s for s in sources if not s.startswith(os.path.join("csrc", "cuda"))]
    inc, libdirs, libs, macros, so = _openblas()
    cflags = ["-std=c11", "-O3", "-Wall", "-Wextra", "-Wno-unused-parameter",
              "-Wno-missing-field-initializers", "-Wno-cast-function-type",
              "-fopenmp", "-fno-strict-aliasing", "-D_GNU_SOURCE"]
    ldflags = ["-fopenmp", "-Wl,-rpath,$ORIGIN"]
    if os.environ.get("TENSORLIB_SANITIZE") == "1":
        san = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=undefined"]
        cflags = [f for f in cflags if f != "-O3"] + ["-O1", "-g"] + san
        ldflags += san
    if os.environ.get("TENSORLIB_DEBUG") == "1":
        cflags = [f for f in cflags if f != "-O3"] + ["-O0", "-g"]
    ext = Extension(
        "tensorlib._C",
        sources=sources,
        include_dirs=["csrc"] + inc,
        library_dirs=libdirs,
        libraries=libs + ["m"],
        define_macros=macros + [("NPY_NO_DEPRECATED_API", "NPY_2_0_API_VERSION")],
        extra_compile_args=cflags,
        extra_link_args=ldflags,
    )
    return ext, so


ext, blas_so = _extension()


class TLDistribution(Distribution):
    """Carries the path of the OpenBLAS library that BuildExt copies."""
    _tl_blas_so = blas_so


setup(ext_modules=[ext], cmdclass={"build_ext": BuildExt}, distclass=TLDistribution,
      packages=["tensorlib"], package_data={"tensorlib": ["*.so*", "*.pyi", "py.typed"]})
