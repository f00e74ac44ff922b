#!/usr/bin/env bash
# Runs the whole suite against one build directory: the GoogleTest units
# (ctest), the lit suite (compiler and end-to-end tracing tests), then the
# suites that trace native processes once more in ptrace mode. Leaves
# BUILD/ctest.log, BUILD/lit-results.json and BUILD/lit-results-ptrace.json
# for utils/setup/summarize.py; exit status 1 if anything failed.
#
# usage: utils/setup/run-suite.sh BUILD_DIR
set -uo pipefail
build=${1:?usage: run-suite.sh BUILD_DIR}

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
exit $status
