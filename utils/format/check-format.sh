#!/usr/bin/env bash
# Checks that the project's C and C++ sources are formatted as .clang-format
# says (LLVM style), with the clang-format of the LLVM the project builds
# against: every file that differs is listed, then a diff, and the exit
# status is 1. With --fix the files are formatted in place instead.
#
# Test inputs (test/**/Inputs/, the unit tests' C fixtures) are left as they
# are: they are programs whose line numbers and layout tests may depend on.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
clang_format=${CLANG_FORMAT:-clang-format-19}
fix=0
[ "${1:-}" = "--fix" ] && fix=1

if ! command -v "$clang_format" >/dev/null; then
  echo "check-format: $clang_format not found (utils/setup/install-deps.sh installs it)" >&2
  exit 1
fi

cd "$root"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.c' '*.cpp' '*.h')
else
  mapfile -t files < <(find . -path ./build\* -prune -o \
    \( -name '*.c' -o -name '*.cpp' -o -name '*.h' \) -print | sed 's|^\./||')
fi
sources=()
for f in "${files[@]}"; do
  case "$f" in
    */Inputs/*|test/unit/*/fixtures/*|build*) continue ;;
  esac
  sources+=("$f")
done

if [ "$fix" = 1 ]; then
  "$clang_format" -i "${sources[@]}"
  exit 0
fi

bad=()
for f in "${sources[@]}"; do
  if ! "$clang_format" --dry-run --Werror "$f" >/dev/null 2>&1; then
    bad+=("$f")
  fi
done
if [ ${#bad[@]} -eq 0 ]; then
  echo "check-format: ${#sources[@]} files formatted as .clang-format says"
  exit 0
fi
echo "check-format: ${#bad[@]} of ${#sources[@]} files are not formatted" \
     "as .clang-format says (utils/format/check-format.sh --fix):" >&2
for f in "${bad[@]}"; do
  echo "  $f" >&2
done
for f in "${bad[@]:0:5}"; do
  "$clang_format" "$f" | diff -u "$f" - | head -40 >&2 || true
done
exit 1
