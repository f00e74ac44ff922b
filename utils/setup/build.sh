#!/usr/bin/env bash
# Configures and builds tscc into build/ (tools end up in build/bin).
# Usage: utils/setup/build.sh [extra cmake -D options...]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${TSCC_BUILD_DIR:-$root/build}
cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="${TSCC_BUILD_TYPE:-Release}" "$@"
ninja -C "$build" ${TSCC_NINJA_JOBS:+-j "$TSCC_NINJA_JOBS"}
