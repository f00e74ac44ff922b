#!/usr/bin/env bash
# The ASan+UBSan job: builds the project with -DTSCC_SANITIZE=ON into its
# own build directory and runs the whole suite there (utils/setup/
# run-suite.sh) with every tool instrumented, tscc included. Any sanitizer
# report fails the job, even from a process whose failure a test expected:
# reports go to files in BUILD/sanitizer-reports/, which must stay empty.
#
# usage: utils/setup/run-sanitized.sh
# Environment: TSCC_SANITIZE_BUILD_DIR (default build-asan),
# TSCC_NINJA_JOBS. Needs the dependencies (utils/setup/install-deps.sh).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${TSCC_SANITIZE_BUILD_DIR:-$root/build-asan}

TSCC_BUILD_DIR=$build "$root/utils/setup/build.sh" -DTSCC_SANITIZE=ON || exit 1
ninja -C "$build" ${TSCC_NINJA_JOBS:+-j "$TSCC_NINJA_JOBS"} all || exit 1

reports=$build/sanitizer-reports
rm -rf "$reports" && mkdir -p "$reports"
# halt_on_error: the first report ends the process (UBSan is also built
# with -fno-sanitize-recover). LeakSanitizer stays off: it stops the
# process's threads with ptrace, which tsrun, a ptrace tracer itself,
# cannot allow. lit passes both variables through to the tests.
export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:log_path=$reports/asan"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$reports/ubsan"

status=0
"$root/utils/setup/run-suite.sh" "$build" || status=1
if compgen -G "$reports/*" >/dev/null; then
  echo "run-sanitized: $(ls "$reports" | wc -l) sanitizer report(s) in $reports:" >&2
  for f in "$reports"/*; do
    echo "--- $f" >&2
    head -40 "$f" >&2
  done
  status=1
fi
exit $status
