#!/usr/bin/env bash
# CTest `python_package_*`: the README's Python install, done as a user would, then pytest.
#   run.sh SOURCE_DIR BUILD_DIR OPTICOLL [install | other | test FILE... | all]
# install: makes a venv over Debian's python3 (--system-site-packages: cffi, setuptools and pytest
#   come from python3-cffi, python3-setuptools and python3-pytest; these machines reach no Python
#   registry) and pip-installs the package from the source tree without build isolation (the
#   package builds its own position-independent copy of the library in BUILD_DIR/python-lib);
# test FILE...: runs those tests/python/test_*.py files with pytest, in that venv, against the
#   built command OPTICOLL;
# other: when another python3 is on the PATH (pyenv's, python.org's: not Debian's), the same
#   install with it, where setuptools may be older than 70.1 without the `wheel` package
#   (setup.py's PlainWheel builds the wheel then), and a smoke run of the installed package;
# all (the default): the three in turn, every test file.
# CTest runs them as separate tests (tests/python.cmake: one test took 515 s of its 600 s at load
# 20, issue 27); the install is their fixture, so `ctest -R python_package_draw` installs first.
set -eu
src=$1 build=$2 cli=$3
what=${4:-all}
py=/usr/bin/python3
[ -x "$py" ] || py=python3
venv=$build/python-venv
# the package's own copy of the library, position independent, in the build tree
export OPTICOLL_BUILD_DIR=$build/python-lib

install() {
  rm -rf "$venv"
  "$py" -m venv --system-site-packages "$venv"
  (cd "$src" && "$venv/bin/pip" install -q --no-build-isolation --no-index .)
  "$venv/bin/python" -c 'import opticoll; print("installed opticoll", opticoll.__version__)'
}

run_tests() {
  if [ ! -x "$venv/bin/python" ]; then
    echo "run.sh: no venv at $venv (the install, python_package_install, runs first)" >&2
    exit 1
  fi
  cd "$build"  # not the source tree: the installed package is the one under test
  OPTICOLL_CLI=$cli "$venv/bin/python" -m pytest -q -p no:cacheprovider "$@"
}

other() {
  local other venv2
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
}

case $what in
install) install ;;
other) other ;;
test)
  shift 4
  [ $# -gt 0 ] || { echo "run.sh: test needs the test files" >&2; exit 2; }
  files=()
  for f in "$@"; do files+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")"); done
  run_tests "${files[@]}"
  ;;
all)
  install
  run_tests "$src/tests/python"
  other
  ;;
*)
  echo "run.sh: unknown part $what (install, other, test FILE..., all)" >&2
  exit 2
  ;;
esac
