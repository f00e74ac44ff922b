#!/usr/bin/env bash
# The whole test suite on a fresh Debian machine: installs every dependency,
# checks the sources' formatting (clang-format-19, utils/format), builds,
# then runs the GoogleTest units (ctest) and the lit suite (compiler
# and end-to-end tracing tests); then, when time allows, the same suite
# once more under ASan+UBSan; and prints one summary line.
#
# Environment:
#   TSCC_CI_SANITIZE  1: always run the ASan+UBSan job
#                     (utils/setup/run-sanitized.sh); 0: never; auto (the
#                     default): when its estimated cost fits in what is
#                     left of TSCC_CI_BUDGET_SECONDS.
#   TSCC_CI_BUDGET_SECONDS  the whole run's budget (default 1800, CI's 30
#                     minutes).
#   TSCC_CI_FUZZ_SECONDS  run each fuzzer that long after the tests.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${TSCC_BUILD_DIR:-$root/build}
sanitize=${TSCC_CI_SANITIZE:-auto}
budget=${TSCC_CI_BUDGET_SECONDS:-1800}
case $sanitize in
  0|1|auto) ;;
  *) echo "run-tests: TSCC_CI_SANITIZE must be 0, 1 or auto" >&2; exit 2 ;;
esac

"$root/utils/setup/install-deps.sh"

status=0
# Formatting first: it takes seconds, and a file out of format fails the
# run without hiding what the tests say.
format=ok
"$root/utils/format/check-format.sh" || { status=1; format="files differ, see above"; }

build_start=$SECONDS
"$root/utils/setup/build.sh"
# Test binaries are not part of the default build of every target list.
ninja -C "$build" ${TSCC_NINJA_JOBS:+-j "$TSCC_NINJA_JOBS"} all
# Real Debian i386 programs for test/Ptrace/debian-i386.test; without the
# network that test is unsupported, not failed.
[ -x "$build/debian-i386/usr/bin/hello" ] ||
  "$root/utils/setup/fetch-debian-i386.sh" "$build/debian-i386" ||
  echo "run-tests: no Debian i386 programs (offline?)"
build_seconds=$((SECONDS - build_start))

test_start=$SECONDS
"$root/utils/setup/run-suite.sh" "$build" || status=1
test_seconds=$((SECONDS - test_start))

# The ASan+UBSan job costs, measured on 2 cores (docs/internals.md,
# "Fuzzing and sanitizers"), 2.8 times the main build's CPU time (the same
# translation units with instrumentation; ccache helps both alike) and 1.3
# to 2.1 times the main suite's time, depending on the load. `auto` runs it
# only if 3 x build + 2 x suite fits in what is left of the budget; whether
# it ran, and why not, is in the summary line.
sanitized=()
if [ "$sanitize" = auto ]; then
  estimate=$((build_seconds * 3 + test_seconds * 2))
  left=$((budget - SECONDS))
  if ((estimate <= left)); then
    sanitize=1
  else
    sanitized=(--sanitized-skipped "estimated ${estimate} s, ${left} s left of ${budget} s; TSCC_CI_SANITIZE=1 runs it")
  fi
elif [ "$sanitize" = 0 ]; then
  sanitized=(--sanitized-skipped "TSCC_CI_SANITIZE=0")
fi
if [ "$sanitize" = 1 ]; then
  san_build=${TSCC_SANITIZE_BUILD_DIR:-$root/build-asan}
  TSCC_SANITIZE_BUILD_DIR=$san_build "$root/utils/setup/run-sanitized.sh" || status=1
  sanitized=(--sanitized "$san_build")
fi

# Fuzzing is opt-in: its build (clang-19, ASan+UBSan, build-fuzz/) costs
# about 700 s of CPU, 6 minutes on 2 cores, before the first input runs.
# TSCC_CI_FUZZ_SECONDS=N runs each fuzzer for N seconds after the tests.
if [ -n "${TSCC_CI_FUZZ_SECONDS:-}" ]; then
  "$root/utils/fuzz/run-fuzzers.sh" -t "$TSCC_CI_FUZZ_SECONDS" || status=1
fi

/usr/bin/python3 "$root/utils/setup/summarize.py" "$build" "${sanitized[@]}" \
  --format "$format"
exit $status
