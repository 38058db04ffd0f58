"""setup.py — builds opticoll's C library (CMake, position independent, into build-python/) before
cffi compiles the module `opticoll._opticoll` against it (python/opticoll/_build.py). The metadata
is in pyproject.toml. Set OPTICOLL_BUILD_DIR to build somewhere else."""
import os
import subprocess

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
os.makedirs(os.path.join(ROOT, "build-python"), exist_ok=True)  # egg_base must exist


class BuildWithLibrary(build_ext):
    def run(self):
        build = os.environ.get("OPTICOLL_BUILD_DIR") or os.path.join(ROOT, "build-python")
        subprocess.run(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                        "-DCMAKE_POSITION_INDEPENDENT_CODE=ON"], check=True,
                       stdout=subprocess.DEVNULL)
        subprocess.run(["cmake", "--build", build, "--target", "opticoll_lib",
                        "-j", os.environ.get("JOBS", "2")], check=True, stdout=subprocess.DEVNULL)
        # the module is relinked every time: setuptools would keep an old one whose own sources
        # did not change, though the library it links did
        self.force = True
        super().run()


# setuptools' own build tree goes under build-python/ too: build/ is CMake's.
setup(cffi_modules=["python/opticoll/_build.py:ffibuilder"],
      cmdclass={"build_ext": BuildWithLibrary},
      options={"build": {"build_base": "build-python/setuptools"},
               "egg_info": {"egg_base": "build-python"}})
