// Warnings do not stop compilation; -Werror makes them errors and -w
// silences them.
// RUN: %tscc --dump-ast %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN
// RUN: not %tscc --dump-ast -Werror %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WERROR
// RUN: %tscc --dump-ast -w %s 2>&1 >/dev/null | count 0

@@BEGIN {
  x = 'ab';
// WARN: [[#@LINE-1]]:7: warning: multi-character character constant
// WERROR: [[#@LINE-2]]:7: error: multi-character character constant
  printf("\q");
// WARN: [[#@LINE-1]]:11: warning: unknown escape sequence '\q'
// WERROR: [[#@LINE-2]]:11: error: unknown escape sequence '\q'
}
// WARN: 2 warnings generated.
// WERROR: 2 errors generated.
