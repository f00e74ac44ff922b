#!/usr/bin/env bash
# The whole test suite on a fresh Debian machine: installs every dependency,
# builds, then runs the GoogleTest units (ctest) and the lit suite (compiler
# and end-to-end tracing tests), and prints one summary line.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${TSCC_BUILD_DIR:-$root/build}

"$root/utils/setup/install-deps.sh"
"$root/utils/setup/build.sh"
# Test binaries are not part of the default build of every target list.
ninja -C "$build" ${TSCC_NINJA_JOBS:+-j "$TSCC_NINJA_JOBS"} all

# One test at a time: the end-to-end tests trace real processes, and the
# bpftrace oracles put kernel uprobes into shared libraries (libc), which
# makes every other tracer see an int3 there while they run.
status=0
ctest --test-dir "$build" --output-on-failure --timeout 300 \
  2>&1 | tee "$build/ctest.log" || status=1
lit=(/usr/bin/python3 /usr/lib/llvm-19/build/utils/lit/lit.py -sv -j1 --timeout 300)
"${lit[@]}" -o "$build/lit-results.json" "$build/test" || status=1
# The tests that trace native processes once more, with every clause run
# in tsrun at a ptrace stop (--ptrace) instead of inside the process.
"${lit[@]}" --param tsrun_mode=ptrace -o "$build/lit-results-ptrace.json" \
  "$build/test/Ptrace" "$build/test/Runtime" "$build/test/CodeGen" \
  "$build/test/Remote" "$build/test/Export" || status=1

# Fuzzing is opt-in: its build (clang-19, ASan+UBSan, build-fuzz/) costs
# about 700 s of CPU, 6 minutes on 2 cores, before the first input runs.
# TSCC_CI_FUZZ_SECONDS=N runs each fuzzer for N seconds after the tests.
if [ -n "${TSCC_CI_FUZZ_SECONDS:-}" ]; then
  "$root/utils/fuzz/run-fuzzers.sh" -t "$TSCC_CI_FUZZ_SECONDS" || status=1
fi

/usr/bin/python3 "$root/utils/setup/summarize.py" "$build/ctest.log" \
  "$build/lit-results.json" "$build/lit-results-ptrace.json"
exit $status
