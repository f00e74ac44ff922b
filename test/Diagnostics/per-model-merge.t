// tscc checks a script once per data model. What both passes report comes
// once and untagged; what only one reports is tagged with its model, on
// the diagnostic's own line; notes stay with their diagnostic; everything
// comes out in source order, and the count is of what was printed.
// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=note: --implicit-check-not=warning:
// RUN: not %tscc -fsyntax-only -DCDECL_ERRORS %s 2>&1 | FileCheck %s --check-prefix=CLANG
#ifdef __x86_64__
struct s { long wide; int a; };
#else
struct s { int narrow; int a; };
#endif
#ifdef CDECL_ERRORS
_Static_assert(sizeof(long) == 4, "narrow long");
_Static_assert(sizeof(struct s) == 0, "never");
#endif
int f(struct s *p);
@@uft:*:a.out:f:entry
{
  // Reported by the LP64 pass, after the ILP32 pass's error below, yet
  // printed first: it is further up.
  printf("%d\n", __arg1->narrow);
// CHECK: per-model-merge.t:[[#@LINE-1]]:26: error: no member named 'narrow' in 'struct s' [LP64 only]{{$}}
  printf("%ld\n", __arg1->wide);
// CHECK: per-model-merge.t:[[#@LINE-1]]:27: error: no member named 'wide' in 'struct s' [ILP32 only]{{$}}
  int n;
  int n;
// CHECK: per-model-merge.t:[[#@LINE-1]]:7: error: redefinition of 'n'{{$}}
// CHECK: per-model-merge.t:[[#@LINE-3]]:7: note: previous definition is here{{$}}
  undeclared = 1;
// CHECK: per-model-merge.t:[[#@LINE-1]]:3: error: use of undeclared identifier 'undeclared'{{$}}
}
// CHECK: 4 errors generated.

// Clang's diagnostics for the C declarations go through the same merger
// (with -fsyntax-only, sema's follow).
// CLANG: per-model-merge.t:13:16: error: static assertion failed due to requirement 'sizeof(long) == 4': narrow long [LP64 only]{{$}}
// CLANG: note: expression evaluates to '8 == 4'
// CLANG: per-model-merge.t:14:16: error: static assertion failed due to requirement 'sizeof(struct s) == 0': never [ILP32 only]{{$}}
// CLANG: note: expression evaluates to '8 == 0'
// CLANG: per-model-merge.t:14:16: error: static assertion failed due to requirement 'sizeof(struct s) == 0': never [LP64 only]{{$}}
// CLANG: note: expression evaluates to '16 == 0'
// CLANG: error: no member named 'narrow' in 'struct s' [LP64 only]
// CLANG: 7 errors generated.
