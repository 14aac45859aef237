# The two set-up commands: `make test` and `make bench`. Each installs the
# missing Debian packages first (scripts/install-deps.sh), then builds.
BUILD ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= $(shell nproc)

.PHONY: all deps build test test-large bench asan tsan fuzz clean install coverage abi-baseline test-minimal \
        test-portable test-aarch64 test-s390x

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

# Every test that runs threads, under ThreadSanitizer: envelope strategies
# and the key cache (test_envelope), fork() under encoding threads
# (test_fork_safety), pooled compression contexts and codec handles shared
# by threads (test_compress), the Redis adapter's timeout thread
# (test_redis), the near cache's 8 readers and writers on one server and on
# the cluster (test_redis_near_cache, test_redis_cluster_near), Fory's
# shared TypeDef cache (test_fory), the bench harness's thread mode (bench/test_bench_harness,
# and bench/outputs, which runs codec-bench --threads 2), and the `codec`
# command's read-ahead thread (interop/cli_stream, interop/cli_pipeline). Fails on any report.
# The tests that fork run without TSan's lock-order checker: codec's fork
# handler holds every crypto lock at once (64 key-cache stripes per codec),
# and the checker aborts past 64 locks held by one thread. Races are still
# detected there; lock order is checked by every other test.
TSAN_FORK_TESTS = ^(unit/test_envelope|unit/test_fork_safety)$$
TSAN_OTHER_TESTS = ^(unit/test_dynlib|unit/test_lazy_load|unit/test_compress|unit/test_redis|unit/test_redis_near_cache|unit/test_redis_cluster_near|unit/test_fory|bench/test_bench_harness|bench/outputs|interop/cli_stream|interop/cli_pipeline)$$
TSAN_TARGETS = unit_test_envelope unit_test_fork_safety unit_test_dynlib unit_test_lazy_load \
	unit_test_compress unit_test_redis \
	unit_test_redis_near_cache unit_test_redis_cluster_near unit_test_fory \
	test_bench_harness codec-bench codec_cli
TSAN_RUN = halt_on_error=1 exitcode=66 second_deadlock_stack=1
tsan: deps
	cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCODEC_TSAN=ON
	cmake --build build-tsan -j $(JOBS) --target $(TSAN_TARGETS)
	TSAN_OPTIONS="$(TSAN_RUN) detect_deadlocks=0" \
		ctest --test-dir build-tsan -R '$(TSAN_FORK_TESTS)' --output-on-failure
	TSAN_OPTIONS="$(TSAN_RUN)" \
		ctest --test-dir build-tsan -R '$(TSAN_OTHER_TESTS)' --output-on-failure

# libFuzzer targets (clang), each run briefly: FUZZ_SECONDS per target.
FUZZ_SECONDS ?= 10
fuzz: deps
	CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DCODEC_SANITIZE=ON -DCODEC_FUZZ=ON -DCODEC_BUILD_BENCH=OFF
	cmake --build build-fuzz -j $(JOBS)
	scripts/fuzz-smoke.sh build-fuzz $(FUZZ_SECONDS)

# The test suite and the fuzz corpora under clang's source-based coverage:
# per-file line and branch report in build-coverage/coverage/ (summary.txt,
# html/) and the tables of docs/coverage.md.
coverage: deps
	scripts/coverage.sh build-coverage $(JOBS)

bench: deps
	cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release
	cmake --build build-release -j $(JOBS)
	build-release/bench/codec-bench --profile quick --out bench/results

install: build
	cmake --install $(BUILD)

# The ABI baseline (abi/libcodec.abi) from this tree's libcodec.so: run it
# after a deliberate ABI change and commit the file with the change.
abi-baseline: build
	tests/abi/check-abi.sh $(BUILD)/libcodec.so abi/libcodec.abi include/codec \
	    $(BUILD)/include/codec --update

# Every optional library off (CODEC_WITH_*=OFF): the tests that apply run;
# absent stages must answer "built without X".
MINIMAL_OFF = -DCODEC_WITH_HIREDIS=OFF -DCODEC_WITH_RDKAFKA=OFF -DCODEC_WITH_BROTLI=OFF -DCODEC_WITH_SNAPPY=OFF \
              -DCODEC_WITH_LIBDEFLATE=OFF -DCODEC_WITH_OPENSSL=OFF
test-minimal: deps
	cmake -S . -B build-minimal -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DCODEC_BUILD_BENCH=OFF $(MINIMAL_OFF)
	cmake --build build-minimal -j $(JOBS)
	ctest --test-dir build-minimal --output-on-failure -j $(JOBS) -LE large

# No SIMD kernel at all: the portable paths pass the whole suite.
test-portable: deps
	cmake -S . -B build-portable -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DCODEC_PORTABLE=ON
	cmake --build build-portable -j $(JOBS)
	ctest --test-dir build-portable --output-on-failure -j $(JOBS)

# Cross-builds with Debian's cross compilers; unit + conformance tests under
# qemu-user (scripts/cross-test.sh sets the machine up first).
test-aarch64:
	scripts/cross-test.sh arm64 $(JOBS)

test-s390x:
	scripts/cross-test.sh s390x $(JOBS)

clean:
	rm -rf $(BUILD) build-asan build-tsan build-fuzz build-release build-minimal build-portable \
	    build-aarch64 build-s390x build-coverage
