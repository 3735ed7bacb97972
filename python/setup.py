"""setup.py: only what pyproject.toml cannot say. A regular (non-editable) install carries the
checkout's build/lib/libawesim.so inside the package (awesim/libawesim.so, found first by
awesim/_lib.py), so the installed package needs no checkout; `make lib` builds it. An editable
install (pip install -e) leaves it out: the package then runs from the checkout and finds
build/lib/ beside it. AWESIM_BUNDLE_LIB=0 builds without it (the library then comes from
$AWESIM_LIB, PREFIX/lib of `make install`, or the system's)."""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = os.path.join(HERE, os.pardir, "build", "lib", "libawesim.so")
BUNDLE = os.environ.get("AWESIM_BUNDLE_LIB", "1") != "0"


class BuildPyWithLib(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False) or not BUNDLE:
            return
        if not os.path.exists(LIB):
            raise SystemExit("awesim: %s is not built: run `make lib` in the awesim checkout "
                             "first (or AWESIM_BUNDLE_LIB=0 to install without it)"
                             % os.path.normpath(LIB))
        dest = os.path.join(self.build_lib, "awesim", "libawesim.so")
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(os.path.realpath(LIB), dest)


class BinaryDistribution(Distribution):
    """a wheel that carries a shared library is platform-specific"""

    def has_ext_modules(self):
        return BUNDLE


setup(cmdclass={"build_py": BuildPyWithLib}, distclass=BinaryDistribution)
