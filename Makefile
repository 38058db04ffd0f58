# opticoll — the two commands a user needs are `make demo` and `make check`.
# Everything builds with CMake into build/ (and build-asan/ for the sanitizer run).

CMAKE_FLAGS ?=
JOBS ?= 2
# where `make install` puts everything (DESTDIR, when set, is prepended: staged installs)
PREFIX ?= /usr/local
# seconds each fuzz target runs under `make fuzz`
FUZZ_SECONDS ?= 60

.PHONY: all deps build install readme-figures demo check check-fast check-asan check-fuzz fuzz bench simgrid clean format

all: build

deps:
	@scripts/deps.sh

build: deps
	@cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DOC_WERROR=ON \
	  -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS) >/dev/null
	@# the compiler's output is shown only when the build fails
	@cmake --build build -j$(JOBS) >build/build.log 2>&1 || { cat build/build.log; exit 1; }
	@echo "built build/opticoll"

# The tools, libraries, headers, pkg-config files (opticoll, opticoll-mpi), man pages and the
# models file under PREFIX (cmake/install.cmake); DESTDIR=/tmp/stage stages them there.
install: build
	@DESTDIR="$(DESTDIR)" cmake --install build >build/install.log || { cat build/install.log; exit 1; }
	@echo "installed into $(DESTDIR)$(PREFIX): bin/opticoll, lib/libopticoll.a, include/opticoll.h, lib/pkgconfig, share/man/man1"

# Runs the figure commands of the README and docs/*.md and rewrites their marked numbers and output
# blocks in place
# (tests/readme/readme.py; the test readme_commands fails, with the diff, when they disagree).
readme-figures: build
	@python3 tests/readme/readme.py --build build --update README.md docs/*.md

demo: build
	@scripts/demo.sh

check-fast: build
	@cd build && ctest --output-on-failure -j$(JOBS)

check-asan: deps
	@cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DOC_SANITIZE=ON -DOC_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	@cmake --build build-asan -j$(JOBS) >build-asan/build.log 2>&1 || { cat build-asan/build.log; exit 1; }
	@echo "built build-asan (AddressSanitizer + UndefinedBehaviorSanitizer)"
	@cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  ctest --output-on-failure -j$(JOBS) -LE slow

# The fuzz targets (fuzz/) with clang's libFuzzer in build-fuzz/: a few seconds each from the seed
# corpora (skipped, with a line saying so, only where clang with libFuzzer cannot be had).
check-fuzz: deps
	@JOBS=$(JOBS) fuzz/run.sh check

check: check-fast check-asan check-fuzz
	@echo "make check: release suite, AddressSanitizer+UndefinedBehaviorSanitizer suite and fuzz smoke runs passed"

# Each fuzz target for FUZZ_SECONDS (or only FUZZ_TARGETS="schedule_json msccl ..."); what is found
# goes to build-fuzz/fuzz-artifacts/.
fuzz: deps
	@FUZZ_SECONDS=$(FUZZ_SECONDS) JOBS=$(JOBS) fuzz/run.sh fuzz $(FUZZ_TARGETS)

bench: build
	@./build/oc_bench
	@# the MPI executor against Open MPI's own collectives (when MPI was found)
	@if [ -x build/opticoll-mpi ]; then scripts/bench_mpi.sh; fi

# The MPI executor under SimGrid on the WRHT seed's fat-tree, beside opticoll's fattree model.
simgrid: build
	@scripts/simgrid.sh

format:
	@clang-format -i include/*.h src/*/*.c src/*/*.h tools/*.c tests/*.c bench/*.c fuzz/*.c fuzz/*.h

clean:
	rm -rf build build-asan build-fuzz
