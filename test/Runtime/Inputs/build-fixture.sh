#!/bin/sh
# Builds one of the runtime's hand-written probe objects (the same fixtures
# the unit tests use) for lit: build-fixture.sh NAME OUT.o
set -e
here=$(dirname "$0")
root="$here/../../.."
fixtures="$root/test/unit/Runtime/fixtures"
cc -c -fPIC -O2 -fno-stack-protector -I"$root/runtime/include" \
  "$fixtures/$1.c" -o "$2.raw.o"
python3 "$fixtures/finalize.py" "$2.raw.o" "$2"
