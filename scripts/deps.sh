#!/usr/bin/env bash
# Installs what opticoll needs to build and test, when it is missing (Debian 12, as root or with
# sudo): a C compiler, make, CMake, pkg-config, cJSON (schedule files), z3 (synth) and python3 (CLI tests),
# and clang with libFuzzer for the fuzz targets.
# Prints nothing when everything is there.
set -eu
need=""
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
command -v cc >/dev/null 2>&1 || need="$need gcc libc6-dev"
command -v make >/dev/null 2>&1 || need="$need make"
command -v cmake >/dev/null 2>&1 || need="$need cmake"
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
command -v python3 >/dev/null 2>&1 || need="$need python3"
have_pkg libcjson-dev || need="$need libcjson-dev"
# `opticoll synth` (src/synth): the z3 solver through its C API
have_pkg libz3-dev || need="$need libz3-dev"
# The MPI executor and its tests (Open MPI), and its SimGrid run (smpicc, smpirun).
have_pkg openmpi-bin || need="$need openmpi-bin"
have_pkg libopenmpi-dev || need="$need libopenmpi-dev"
have_pkg libsimgrid-dev || need="$need libsimgrid-dev"
# MSCCL XML export and re-import (src/formats/msccl.c)
have_pkg libxml2-dev || need="$need libxml2-dev"
# The Python package (pyproject.toml; tests/python): cffi's API mode compiles against Python's
# headers; the venv comes from python3-venv, the test runner from python3-pytest; pandas (and the
# numpy it brings: about 65 MB) lets the tests check Table.to_pandas and numpy's integers.
for p in python3-cffi python3-setuptools python3-venv python3-dev python3-pytest python3-pandas; do
  have_pkg $p || need="$need $p"
done
# Chakra execution traces (export --format chakra): protoc-c compiles the schema at build time,
# libprotobuf-c packs the messages (optional: without them the build leaves that export out)
have_pkg protobuf-c-compiler || need="$need protobuf-c-compiler"
have_pkg libprotobuf-c-dev || need="$need libprotobuf-c-dev"
# gnuplot draws sweep --plot and reproduce --out (optional for the build; the tests skip plots without it)
command -v gnuplot >/dev/null 2>&1 || need="$need gnuplot-nox"
if [ -n "$need" ]; then
  echo "deps: installing$need" >&2
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $need >/dev/null
fi
# The fuzz targets (fuzz/, make fuzz and make check-fuzz): clang and its libFuzzer runtime, which
# Debian ships in libclang-rt-dev (only recommended by clang). Apart, so that a machine where they
# cannot be installed still builds and tests; check-fuzz then says it skipped.
fuzz_need=""
command -v clang >/dev/null 2>&1 || fuzz_need="$fuzz_need clang"
have_pkg libclang-rt-dev || ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1 ||
    fuzz_need="$fuzz_need libclang-rt-dev"
if [ -n "$fuzz_need" ]; then
  echo "deps: installing$fuzz_need (fuzz targets)" >&2
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
  { $SUDO apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $fuzz_need >/dev/null; } ||
    echo "deps: could not install$fuzz_need; make check-fuzz will skip the fuzz targets" >&2
fi
