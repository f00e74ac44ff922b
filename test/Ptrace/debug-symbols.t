// Stripped programs keep their static functions' names in a separate debug
// file: found by build-id under a debug directory, or by .gnu_debuglink
// next to the program (or in its .debug/), and used only when it describes
// that very build (the same build-id or CRC, the same load segments).
// REQUIRES: compiler
// RUN: %tscc %s -o %t.o
// RUN: rm -rf %t.dir %t.dbg %t.wrong %t.lay && mkdir -p %t.dir/.debug %t.dbg
// RUN: %cc64 %S/Inputs/static-fn.c -o %t.full
// RUN: objcopy --only-keep-debug %t.full %t.dir/.debug/prog.debug
// RUN: objcopy --strip-all --add-gnu-debuglink=%t.dir/.debug/prog.debug %t.full %t.dir/prog

// Without the debug file, the static function is unknown.
// RUN: objcopy --strip-all %t.full %t.nodebug
// RUN: %not %tsrun -l 'uft:*:a.out:hidden_step' %t.nodebug 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: tsrun: error: no probe matches 'uft:*:a.out:hidden_step'

// Through .gnu_debuglink (in .debug/ next to the program): listed, probed
// with the program's own count, and named in __func and in stacks.
// RUN: %tsrun -l 'uft:*:a.out:hidden_step' %t.dir/prog | FileCheck %s --check-prefix=LIST
// LIST: @@uft:*:prog:hidden_step:entry {{.*}}prog 0x{{[0-9a-f]+}}
// RUN: %tsrun %t.o -- %t.dir/prog 5 > %t.out
// RUN: FileCheck %s < %t.out
// CHECK: hidden_step called 5 times, sum 15
// CHECK: hits 5 func hidden_step
// RUN: FileCheck %s --check-prefix=STACK < %t.out
// STACK: hidden_step+0x0 (prog)
// STACK-NEXT: visible+0x{{[0-9a-f]+}} (prog)
// STACK-NEXT: main+0x{{[0-9a-f]+}} (prog)

// Through the build-id, under $TSCC_DEBUG_FILE_DIRECTORY.
// RUN: objcopy --strip-all %t.full %t.byid
// RUN: %python -c "import subprocess,sys,os; o=subprocess.run(['readelf','-n',sys.argv[1]],capture_output=True,text=True).stdout; i=o.split('Build ID: ')[1].split()[0]; d=os.path.join(sys.argv[2],'.build-id',i[:2]); os.makedirs(d,exist_ok=True); os.link(sys.argv[3], os.path.join(d,i[2:]+'.debug'))" %t.byid %t.dbg %t.dir/.debug/prog.debug
// RUN: env TSCC_DEBUG_FILE_DIRECTORY=%t.dbg %tsrun -l 'uft:*:a.out:hidden_step' %t.byid | FileCheck %s --check-prefix=BYID
// BYID: @@uft:*:{{.*}}:hidden_step:entry
// RUN: env TSCC_DEBUG_FILE_DIRECTORY= %not %tsrun -l 'uft:*:a.out:hidden_step' %t.byid

// A debug file of another build is not used, and says why: by build-id...
// RUN: %cc64 -DOTHER %S/Inputs/static-fn.c -o %t.other
// RUN: mkdir -p %t.wrong/.debug
// RUN: objcopy --only-keep-debug %t.other %t.wrong/.debug/prog.debug
// RUN: cp %t.dir/prog %t.wrong/prog
// RUN: %not %tsrun -l 'uft:*:a.out:hidden_step' %t.wrong/prog 2> %t.wrong.err
// RUN: FileCheck %s --check-prefix=WRONG < %t.wrong.err
// WRONG: tsrun: warning: {{.*}}.wrong/.debug/prog.debug: not the debug file of {{.*}}.wrong/prog (another build-id)
// Tracing says so too, once.
// RUN: %tsrun %t.o -- %t.wrong/prog 2 2> %t.wrong.trace.err > /dev/null
// RUN: FileCheck %s --check-prefix=WRONG < %t.wrong.trace.err
// ...and, without build-ids, by its load segments even when the CRC of
// the debug link is its own.
// RUN: %cc64 -Wl,--build-id=none %S/Inputs/static-fn.c -o %t.nb
// RUN: %cc64 -Wl,--build-id=none -DOTHER -O2 %S/Inputs/static-fn.c -o %t.nb.other
// RUN: mkdir -p %t.lay
// RUN: objcopy --only-keep-debug %t.nb.other %t.lay/prog.debug
// RUN: objcopy --strip-all --add-gnu-debuglink=%t.lay/prog.debug %t.nb %t.lay/prog
// RUN: %not %tsrun -l 'uft:*:a.out:hidden_step' %t.lay/prog 2> %t.lay.err
// RUN: FileCheck %s --check-prefix=LAYOUT < %t.lay.err
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ rm -rf %t.i386/t.dir %t.i386/t.dbg %t.i386/t.wrong %t.i386/t.lay && mkdir -p %t.i386/t.dir/.debug %t.i386/t.dbg %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/static-fn.c -o %t.i386/t.full %}
// RUN: %if native-i386 %{ objcopy --only-keep-debug %t.i386/t.full %t.i386/t.dir/.debug/prog.debug %}
// RUN: %if native-i386 %{ objcopy --strip-all --add-gnu-debuglink=%t.i386/t.dir/.debug/prog.debug %t.i386/t.full %t.i386/t.dir/prog %}
// RUN: %if native-i386 %{ objcopy --strip-all %t.i386/t.full %t.i386/t.nodebug %}
// RUN: %if native-i386 %{ %not %tsrun -l 'uft:*:a.out:hidden_step' %t.i386/t.nodebug 2>&1 | FileCheck %s --check-prefix=NONE %}
// RUN: %if native-i386 %{ %tsrun -l 'uft:*:a.out:hidden_step' %t.i386/t.dir/prog | FileCheck %s --check-prefix=LIST %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/t.dir/prog 5 > %t.i386/t.out %}
// RUN: %if native-i386 %{ FileCheck %s < %t.i386/t.out %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=STACK < %t.i386/t.out %}
// RUN: %if native-i386 %{ objcopy --strip-all %t.i386/t.full %t.i386/t.byid %}
// RUN: %if native-i386 %{ %python -c "import subprocess,sys,os; o=subprocess.run(['readelf','-n',sys.argv[1]],capture_output=True,text=True).stdout; i=o.split('Build ID: ')[1].split()[0]; d=os.path.join(sys.argv[2],'.build-id',i[:2]); os.makedirs(d,exist_ok=True); os.link(sys.argv[3], os.path.join(d,i[2:]+'.debug'))" %t.i386/t.byid %t.i386/t.dbg %t.i386/t.dir/.debug/prog.debug %}
// RUN: %if native-i386 %{ env TSCC_DEBUG_FILE_DIRECTORY=%t.i386/t.dbg %tsrun -l 'uft:*:a.out:hidden_step' %t.i386/t.byid | FileCheck %s --check-prefix=BYID %}
// RUN: %if native-i386 %{ env TSCC_DEBUG_FILE_DIRECTORY= %not %tsrun -l 'uft:*:a.out:hidden_step' %t.i386/t.byid %}
// RUN: %if native-i386 %{ %cc32 -DOTHER %S/Inputs/static-fn.c -o %t.i386/t.other %}
// RUN: %if native-i386 %{ mkdir -p %t.i386/t.wrong/.debug %}
// RUN: %if native-i386 %{ objcopy --only-keep-debug %t.i386/t.other %t.i386/t.wrong/.debug/prog.debug %}
// RUN: %if native-i386 %{ cp %t.i386/t.dir/prog %t.i386/t.wrong/prog %}
// RUN: %if native-i386 %{ %not %tsrun -l 'uft:*:a.out:hidden_step' %t.i386/t.wrong/prog 2> %t.i386/t.wrong.err %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=WRONG < %t.i386/t.wrong.err %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/t.wrong/prog 2 2> %t.i386/t.wrong.trace.err > /dev/null %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=WRONG < %t.i386/t.wrong.trace.err %}
// RUN: %if native-i386 %{ %cc32 -Wl,--build-id=none %S/Inputs/static-fn.c -o %t.i386/t.nb %}
// RUN: %if native-i386 %{ %cc32 -Wl,--build-id=none -DOTHER -O2 %S/Inputs/static-fn.c -o %t.i386/t.nb.other %}
// RUN: %if native-i386 %{ mkdir -p %t.i386/t.lay %}
// RUN: %if native-i386 %{ objcopy --only-keep-debug %t.i386/t.nb.other %t.i386/t.lay/prog.debug %}
// RUN: %if native-i386 %{ objcopy --strip-all --add-gnu-debuglink=%t.i386/t.lay/prog.debug %t.i386/t.nb %t.i386/t.lay/prog %}
// RUN: %if native-i386 %{ %not %tsrun -l 'uft:*:a.out:hidden_step' %t.i386/t.lay/prog 2> %t.i386/t.lay.err %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=LAYOUT < %t.i386/t.lay.err %}
// LAYOUT: tsrun: warning: {{.*}}.lay/prog.debug: its load segments differ from {{.*}}.lay/prog's; its symbols are not used

__global long hits;
__global String f;
@@uft:*:a.out:hidden_step:entry {
  hits++;
  f = __func;
  if (hits == 1)
    stktrace(3);
}
@@END { printf("hits %ld func %s\n", hits, f); }
