# The two set-up commands: `make test` and `make bench`. Each installs the
# missing Debian packages first (scripts/install-deps.sh), then builds.
BUILD ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= $(shell nproc)

.PHONY: all deps build test test-large bench asan fuzz clean install

all: build

deps:
	@scripts/install-deps.sh

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)
	cmake --build $(BUILD) -j $(JOBS)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -LE large

# Tests that move GiB through pipes (ctest label `large`): minutes each.
test-large: build
	ctest --test-dir $(BUILD) --output-on-failure -L large

# The whole suite once more under AddressSanitizer + UBSan.
asan: deps
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCODEC_SANITIZE=ON
	cmake --build build-asan -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build-asan --output-on-failure -j $(JOBS) -LE large

# libFuzzer targets (clang), each run briefly: FUZZ_SECONDS per target.
FUZZ_SECONDS ?= 10
fuzz: deps
	CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DCODEC_SANITIZE=ON -DCODEC_FUZZ=ON -DCODEC_BUILD_BENCH=OFF
	cmake --build build-fuzz -j $(JOBS)
	scripts/fuzz-smoke.sh build-fuzz $(FUZZ_SECONDS)

bench: deps
	cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release
	cmake --build build-release -j $(JOBS)
	build-release/bench/codec-bench --profile quick --out bench/results

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) build-asan build-fuzz build-release
