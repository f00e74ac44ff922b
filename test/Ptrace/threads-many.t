// 2100 threads alive at once, all calling one probed function (all of
// them once before any goes on). With room
// for them all (--max-threads), every call is seen. Without it, the
// threads beyond the limit are not traced, and the user is told which
// limit and which option, and every call not seen is a counted drop.
// (Before, 88133 of 210000 calls were seen with only drop counts to show
// for it, and the threads without room queued on the session lock.)
// RUN: %cc64 %S/Inputs/many.c -o %t.exe -lpthread
// RUN: %tscc %s -o %t.o
// RUN: %tsrun --max-threads 4096 %t.o -- %t.exe 2100 10 > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t.err
// CHECK: threads 2100 calls 21000
// CHECK: calls=21000 threads=2100
// QUIET-NOT: {{warning|drops|faults|error}}
// RUN: %tsrun %t.o -- %t.exe 1100 10 > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=LIMIT < %t.out
// RUN: FileCheck %s --check-prefix=LIMIT-ERR < %t.err
// LIMIT: threads 1100 calls 11000
// LIMIT-ERR: tsrun: warning: more than 1024 threads of one traced process had state at once (--max-threads raises the limit); clauses of the others were counted as drops
// LIMIT-ERR: clause 0 (line {{[0-9]+}}): fired 11000, 0 faults, {{[1-9][0-9]*}} drops
// RUN: %not %tsrun --max-threads 0 %t.o -- %t.exe 1 1 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: %not %tsrun --max-threads=-5 %t.o -- %t.exe 1 1 2>&1 | FileCheck %s --check-prefix=BAD2
// RUN: %not %tsrun --max-threads 2000000 %t.o -- %t.exe 1 1 2>&1 | FileCheck %s --check-prefix=BAD3
// RUN: %tsrun --thread-buffer 64M --max-threads 8192 %t.o -- %t.exe 1 1 2>&1 | FileCheck %s --check-prefix=CAPPED
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/many.c -o %t.i386/t.exe -lpthread %}
// RUN: %if native-i386 %{ %tsrun --max-threads 4096 %t.o -- %t.i386/t.exe 2100 10 > %t.i386/t.out 2> %t.i386/t.err %}
// RUN: %if native-i386 %{ FileCheck %s < %t.i386/t.out %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=QUIET --allow-empty < %t.i386/t.err %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/t.exe 1100 10 > %t.i386/t.out 2> %t.i386/t.err %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=LIMIT < %t.i386/t.out %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=LIMIT-ERR < %t.i386/t.err %}
// RUN: %if native-i386 %{ %not %tsrun --max-threads 0 %t.o -- %t.i386/t.exe 1 1 2>&1 | FileCheck %s --check-prefix=BAD %}
// RUN: %if native-i386 %{ %not %tsrun --max-threads=-5 %t.o -- %t.i386/t.exe 1 1 2>&1 | FileCheck %s --check-prefix=BAD2 %}
// RUN: %if native-i386 %{ %not %tsrun --max-threads 2000000 %t.o -- %t.i386/t.exe 1 1 2>&1 | FileCheck %s --check-prefix=BAD3 %}
// RUN: %if native-i386 %{ %tsrun --thread-buffer 64M --max-threads 8192 %t.o -- %t.i386/t.exe 1 1 2>&1 | FileCheck %s --check-prefix=CAPPED %}
// CAPPED: tsrun: warning: --max-threads 8192: only 4096 thread buffers of 64M fit in 256 GiB; a smaller --thread-buffer leaves room for more threads
// CAPPED: calls=1 threads=1
// BAD: invalid --max-threads '0' (expected a count from 1 to 1048576)
// BAD2: invalid --max-threads '-5' (expected a count from 1 to 1048576)
// BAD3: invalid --max-threads '2000000' (expected a count from 1 to 1048576)

long work(long);
__global long calls, threads;
__thread long seen;

@@uft:*:a.out:work:entry
{
  calls++;
  if (seen == 0) threads++;
  seen = 1;
}
@@END { printf("calls=%ld threads=%ld\n", calls, threads); }
