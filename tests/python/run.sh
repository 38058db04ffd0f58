#!/usr/bin/env bash
# CTest `python_package`: the README's Python install, done as a user would, then pytest.
#   run.sh SOURCE_DIR BUILD_DIR OPTICOLL
# Makes a venv over Debian's python3 (--system-site-packages: cffi, setuptools and pytest come from
# python3-cffi, python3-setuptools and python3-pytest; these machines reach no Python registry),
# pip-installs the package from the source tree without build isolation, and runs
# tests/python/test_opticoll.py against the built command OPTICOLL.
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
