"""setup.py — builds opticoll's C library (CMake, position independent, into build-python/) before
cffi compiles the module `opticoll._opticoll` against it (python/opticoll/_build.py). The metadata
is in pyproject.toml; the version is CMakeLists.txt's (the one place it is written). Set
OPTICOLL_BUILD_DIR to build somewhere else.

Any Python from 3.9 with a C compiler, cffi and setuptools installs it: where setuptools is older
than 70.1 and the `wheel` package is missing (a pyenv or python.org Python, offline), the wheel is
built by PlainWheel below instead of failing with "invalid command 'bdist_wheel'"."""
import os
import re
import subprocess
import sys

from setuptools import Command, setup
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


def _has_bdist_wheel():
    try:
        import wheel.bdist_wheel  # noqa: F401  (setuptools < 70.1 takes bdist_wheel from it)
        return True
    except ImportError:
        try:
            import setuptools.command.bdist_wheel  # noqa: F401  (setuptools >= 70.1 has its own)
            return True
        except ImportError:
            return False


class PlainWheel(Command):
    """bdist_wheel for a Python whose setuptools is older than 70.1 and has no `wheel` package
    beside it (pyenv's and python.org's builds often: `pip install .` then fails with "invalid
    command 'bdist_wheel'"). A wheel is a zip of the built package and a .dist-info folder
    (PEP 427): the metadata comes from egg_info, the files from build, RECORD is written last."""

    description = "build a wheel (PEP 427) without the wheel package"
    user_options = [("dist-dir=", "d", "where to put the wheel"),
                    ("python-tag=", None, "unused"), ("plat-name=", "p", "unused")]

    def initialize_options(self):
        self.dist_dir = self.python_tag = self.plat_name = None

    def finalize_options(self):
        self.dist_dir = self.dist_dir or "dist"

    def egg2dist(self, egginfo_path, distinfo_path):
        """egg-info -> dist-info, as wheel's bdist_wheel does for setuptools' dist_info."""
        import shutil
        os.makedirs(distinfo_path, exist_ok=True)
        with open(os.path.join(egginfo_path, "PKG-INFO")) as f:
            meta = f.read().rstrip("\n") + "\n"
        requires = os.path.join(egginfo_path, "requires.txt")
        if os.path.exists(requires):
            with open(requires) as f:
                extra = "".join(f"Requires-Dist: {r.strip()}\n" for r in f
                                if r.strip() and not r.startswith("["))
            head, _, body = meta.partition("\n\n")
            meta = head + "\n" + extra + ("\n" + body if body else "")
        with open(os.path.join(distinfo_path, "METADATA"), "w") as f:
            f.write(meta)
        shutil.rmtree(egginfo_path, ignore_errors=True)

    def run(self):
        import base64
        import hashlib
        import sysconfig
        import tempfile
        import zipfile
        self.run_command("build")
        build_lib = self.get_finalized_command("build").build_lib
        egg = self.get_finalized_command("egg_info")
        self.run_command("egg_info")
        name, version = self.distribution.get_name(), self.distribution.get_version()
        tag = f"cp{sys.version_info[0]}{sys.version_info[1]}"
        abi = tag + getattr(sys, "abiflags", "")
        plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
        os.makedirs(self.dist_dir, exist_ok=True)
        path = os.path.join(self.dist_dir, f"{name}-{version}-{tag}-{abi}-{plat}.whl")
        distinfo = f"{name}-{version}.dist-info"
        with tempfile.TemporaryDirectory() as tmp:
            self.egg2dist(egg.egg_info, os.path.join(tmp, distinfo))
            files = {f"{distinfo}/METADATA": open(os.path.join(tmp, distinfo, "METADATA"), "rb").read(),
                     f"{distinfo}/WHEEL": (f"Wheel-Version: 1.0\nGenerator: opticoll setup.py\n"
                                           f"Root-Is-Purelib: false\nTag: {tag}-{abi}-{plat}\n").encode(),
                     f"{distinfo}/top_level.txt": b"opticoll\n"}
        for root, _, names in os.walk(build_lib):
            for n in names:
                full = os.path.join(root, n)
                with open(full, "rb") as f:
                    files[os.path.relpath(full, build_lib).replace(os.sep, "/")] = f.read()
        record = []
        for arc, data in files.items():
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{arc},sha256={digest},{len(data)}")
        record.append(f"{distinfo}/RECORD,,")
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for arc, data in files.items():
                z.writestr(arc, data)
            z.writestr(f"{distinfo}/RECORD", "\n".join(record) + "\n")


commands = {"build_ext": BuildWithLibrary}
if not _has_bdist_wheel():
    commands["bdist_wheel"] = PlainWheel

# setuptools' own build tree goes under build-python/ too: build/ is CMake's.
with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
    VERSION = re.search(r"project\(opticoll VERSION ([0-9.]+)", f.read()).group(1)

setup(version=VERSION,
      cffi_modules=["python/opticoll/_build.py:ffibuilder"],
      cmdclass=commands,
      options={"build": {"build_base": "build-python/setuptools"},
               "egg_info": {"egg_base": "build-python"}})
