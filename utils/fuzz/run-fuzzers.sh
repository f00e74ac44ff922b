#!/usr/bin/env bash
# Builds the libFuzzer targets (clang-19, ASan+UBSan, TSCC_FUZZ=ON) in their
# own build directory and runs each for a bounded time, starting from the
# seed corpora in test/Fuzz/Inputs/corpus/. Every regression input in
# test/Fuzz/Inputs/regressions/<target>/ is run first.
#
# usage: utils/fuzz/run-fuzzers.sh [-t SECONDS] [-j JOBS] [TARGET...]
#   -t SECONDS  per target (default 60)
#   -j JOBS     ninja jobs for the build (default: ninja's)
#   TARGET      object-loader trace-reader format-file printf rsp store
#               frontend (default: all)
# Environment: TSCC_FUZZ_BUILD_DIR (default build-fuzz).
#
# Prints one line per target: executions, coverage (libFuzzer's cov and ft
# at the end) and crashes; crashing inputs are kept in
# $TSCC_FUZZ_BUILD_DIR/fuzz-artifacts/<target>/. Exit status 1 if anything
# crashed, leaked or timed out.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${TSCC_FUZZ_BUILD_DIR:-$root/build-fuzz}
seconds=60
jobs=()
while getopts "t:j:" opt; do
  case $opt in
    t) seconds=$OPTARG ;;
    j) jobs=(-j "$OPTARG") ;;
    *) sed -n '2,17p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
targets=("$@")
((${#targets[@]})) || targets=(object-loader trace-reader format-file printf rsp store frontend)

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
    -DTSCC_AGENT_CC="$(command -v gcc)" -DTSCC_FUZZ=ON -DTSCC_BUILD_TESTS=OFF >/dev/null
fi
ninja -C "$build" "${jobs[@]}" fuzzers >/dev/null

corpus=$root/test/Fuzz/Inputs/corpus
regressions=$root/test/Fuzz/Inputs/regressions
status=0
printf '%-14s %12s %8s %8s %8s\n' target executions cov ft crashes
for t in "${targets[@]}"; do
  exe=$build/bin/fuzz-$t
  [ -x "$exe" ] || { echo "no fuzzer $exe" >&2; exit 2; }
  work=$build/fuzz-corpus/$t
  artifacts=$build/fuzz-artifacts/$t
  mkdir -p "$work" "$artifacts"
  log=$build/fuzz-$t.log
  # Known crashers first: each must now run clean.
  if compgen -G "$regressions/$t/*" >/dev/null; then
    if ! "$exe" "$regressions/$t"/* >"$build/fuzz-$t.regressions.log" 2>&1; then
      echo "$t: a regression input fails again (see $build/fuzz-$t.regressions.log)" >&2
      status=1
    fi
  fi
  crashes=0
  # -timeout: one input taking this long is a hang; -rss_limit_mb: growth.
  if ! "$exe" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2560 \
       -max_len=65536 -print_final_stats=1 \
       -artifact_prefix="$artifacts/" "$work" "$corpus/$t" >"$log" 2>&1; then
    crashes=1
    status=1
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  printf '%-14s %12s %8s %8s %8s\n' "$t" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$crashes"
  if ((crashes)); then
    grep -E 'ERROR|SUMMARY|runtime error|Test unit written' "$log" | head -5 >&2 || true
  fi
done
exit $status
