// tsrun is SIGKILLed in the middle of a window: while it has attached
// again to a process it had let go of (--detach), for a dlopen() or
// dlclose() (a library window) or an exec (an exec window, then the new
// image's setup), and while it makes one of its threads run a system call
// for it (its registers set, at the call's entry, at its exit). The
// program is not killed with tsrun, no thread is left with the injected
// call's registers or at a trap only tsrun could take, and its output is
// exactly its untraced output, with every site put back (the bytes of its
// probed functions and of the loader's hook as the files have them).
// tsrun kills itself at the chosen moment (TSCC_TEST_SIGKILL_AT, see
// runtime/lib/Ptrace/KillPoint.h); one round per moment here,
// `Inputs/window-sigkill.py ... FIRST LAST --rounds N` for long runs.
// REQUIRES: inprocess
// RUN: %cc64 -shared -fPIC %S/Inputs/dlopen-lib.c -o %t.lib64.so
// RUN: %cc64 %S/Inputs/window-sigkill.c -o %t.64 -ldl -lpthread
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/window-sigkill.py %tsrun %t.o %t.64 %t.lib64.so link-window 2 2 | FileCheck %s --check-prefix=LINK
// RUN: %python %S/Inputs/window-sigkill.py %tsrun %t.o %t.64 %t.lib64.so exec-window 4 4 | FileCheck %s --check-prefix=EXEC
// RUN: %python %S/Inputs/window-sigkill.py %tsrun %t.o %t.64 %t.lib64.so exec-stop 1 1 | FileCheck %s --check-prefix=STOP
// RUN: %python %S/Inputs/window-sigkill.py %tsrun %t.o %t.64 %t.lib64.so link-inject-set 1 1 | FileCheck %s --check-prefix=LSET
// RUN: %python %S/Inputs/window-sigkill.py %tsrun %t.o %t.64 %t.lib64.so link-inject-entry 2 2 | FileCheck %s --check-prefix=LENTRY
// RUN: %python %S/Inputs/window-sigkill.py %tsrun %t.o %t.64 %t.lib64.so link-inject-exit 3 3 | FileCheck %s --check-prefix=LEXIT
// RUN: %python %S/Inputs/window-sigkill.py %tsrun %t.o %t.64 %t.lib64.so exec-inject-set 2 2 | FileCheck %s --check-prefix=ESET
// RUN: %python %S/Inputs/window-sigkill.py %tsrun %t.o %t.64 %t.lib64.so exec-inject-entry 3 3 | FileCheck %s --check-prefix=EENTRY
// RUN: %python %S/Inputs/window-sigkill.py %tsrun %t.o %t.64 %t.lib64.so exec-inject-exit 5 5 | FileCheck %s --check-prefix=EEXIT
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ %cc32 -shared -fPIC %S/Inputs/dlopen-lib.c -o %t.lib32.so %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/window-sigkill.c -o %t.32 -ldl -lpthread %}
// RUN: %if native-i386 %{ %python %S/Inputs/window-sigkill.py %tsrun %t.o %t.32 %t.lib32.so link-window 3 3 | FileCheck %s --check-prefix=LINK %}
// RUN: %if native-i386 %{ %python %S/Inputs/window-sigkill.py %tsrun %t.o %t.32 %t.lib32.so exec-stop 1 1 | FileCheck %s --check-prefix=STOP %}
// RUN: %if native-i386 %{ %python %S/Inputs/window-sigkill.py %tsrun %t.o %t.32 %t.lib32.so link-inject-set 2 2 | FileCheck %s --check-prefix=LSET %}
// RUN: %if native-i386 %{ %python %S/Inputs/window-sigkill.py %tsrun %t.o %t.32 %t.lib32.so link-inject-entry 1 1 | FileCheck %s --check-prefix=LENTRY %}
// RUN: %if native-i386 %{ %python %S/Inputs/window-sigkill.py %tsrun %t.o %t.32 %t.lib32.so link-inject-exit 4 4 | FileCheck %s --check-prefix=LEXIT %}
// RUN: %if native-i386 %{ %python %S/Inputs/window-sigkill.py %tsrun %t.o %t.32 %t.lib32.so exec-inject-exit 3 3 | FileCheck %s --check-prefix=EEXIT %}
// LINK: link-window: 1 rounds, 1 killed at the point, every output exact
// EXEC: exec-window: 1 rounds, 1 killed at the point, every output exact
// STOP: exec-stop: 1 rounds, 1 killed at the point, every output exact
// LSET: link-inject-set: 1 rounds, 1 killed at the point, every output exact
// LENTRY: link-inject-entry: 1 rounds, 1 killed at the point, every output exact
// LEXIT: link-inject-exit: 1 rounds, 1 killed at the point, every output exact
// ESET: exec-inject-set: 1 rounds, 1 killed at the point, every output exact
// EENTRY: exec-inject-entry: 1 rounds, 1 killed at the point, every output exact
// EEXIT: exec-inject-exit: 1 rounds, 1 killed at the point, every output exact

__global long nwork, nlib, nmain;

@@uft:*:a.out:work:entry { nwork++; }
@@uft:*:a.out:main_func:entry { nmain++; }
@@uft:*:*:lib_func:entry { nlib++; }
@@END { printf("work %ld lib_func %ld\n", nwork, nlib); }
