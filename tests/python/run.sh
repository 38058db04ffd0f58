#!/usr/bin/env bash
# CTest `python_package`: the README's Python install, done as a user would, then pytest.
#   run.sh SOURCE_DIR BUILD_DIR OPTICOLL
# Makes a venv over Debian's python3 (--system-site-packages: cffi, setuptools and pytest come from
# python3-cffi, python3-setuptools and python3-pytest; these machines reach no Python registry),
# pip-installs the package from the source tree without build isolation, and runs
# tests/python/test_*.py against the built command OPTICOLL. Then, when another python3 is on the
# PATH (pyenv's, python.org's: not Debian's), the same install with it, where setuptools may be
# older than 70.1 without the `wheel` package (setup.py's PlainWheel builds the wheel then), and a
# smoke run of the installed package.
set -eu
src=$1 build=$2 cli=$3
py=/usr/bin/python3
[ -x "$py" ] || py=python3
venv=$build/python-venv
rm -rf "$venv"
"$py" -m venv --system-site-packages "$venv"
# the package's own copy of the library, position independent, in the build tree
export OPTICOLL_BUILD_DIR=$build/python-lib
(cd "$src" && "$venv/bin/pip" install -q --no-build-isolation --no-index .)
cd "$build"  # not the source tree: the installed package is the one under test
OPTICOLL_CLI=$cli "$venv/bin/python" -m pytest -q -p no:cacheprovider "$src/tests/python"
other=$(type -a -P python3 | grep -v -x -e /usr/bin/python3 -e /bin/python3 | head -1 || true)
if [ -n "$other" ] && "$other" -c 'import cffi, setuptools' 2>/dev/null; then
  venv2=$build/python-venv-other
  rm -rf "$venv2"
  "$other" -m venv --system-site-packages "$venv2"
  (cd "$src" && "$venv2/bin/pip" install -q --no-build-isolation --no-index .)
  "$venv2/bin/python" - <<'PY'
import opticoll
r = opticoll.run("allreduce", "ring", 7, "1MiB", network="switch")
assert r["verified"] is True and r["steps"] == 12, r
print("another python3: installed opticoll", opticoll.__version__, "and ran it")
PY
else
  echo "run.sh: no other python3 with cffi and setuptools on the PATH: only Debian's install was tested"
fi
