// The errors a stack key can meet: another key kind for the same
// aggregation, a bad depth, stktrace() as a value, and a clause without a
// process.
// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@uft:*:a.out:leaf:entry {
  @paths[stktrace()] = count();
  @paths[__tid] = count();
// CHECK: [[#@LINE-1]]:3: error: aggregation '@paths' is keyed by (signed integer) here but by (stack) where it is first assigned
// CHECK: [[#@LINE-3]]:3: note: '@paths' is first assigned here
  @deep[stktrace("x")] = count();
// CHECK: [[#@LINE-1]]:18: error: argument 1 of 'stktrace' must be an integer (have 'String')
  long x = stktrace();
// CHECK: [[#@LINE-1]]:12: error: 'stktrace' does not produce a value
}
@@BEGIN { @begin[stktrace()] = count(); }
// CHECK: [[#@LINE-1]]:18: error: 'stktrace()' is not available in a @@BEGIN clause: it runs without a traced process
// CHECK: 4 errors generated.
