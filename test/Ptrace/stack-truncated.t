// A stack that stopped early says so, with a last pseudo-frame naming why:
// a frame with neither .eh_frame rules nor a frame pointer, stack memory
// that cannot be read, or --max-stack-depth. It does in text, JSON (also a
// "truncated" field), binary traces replayed by tsreport, and stack keys
// of aggregations, where a cut stack is a key of its own. A depth the
// clause asks for (stktrace(2)) is not marked, and neither is a whole stack.
// RUN: %tscc %s -o %t.o
// RUN: %cc64 -O2 %S/Inputs/truncated.c -o %t.exe
// RUN: %tsrun %t.o -- %t.exe noinfo | FileCheck %s --check-prefix=NOINFO
// RUN: %tsrun %t.o -- %t.exe unreadable | FileCheck %s --check-prefix=UNREAD
// RUN: %tsrun %t.o -- %t.exe whole | FileCheck %s --check-prefix=WHOLE
// RUN: %tsrun %t.o --max-stack-depth 2 -- %t.exe whole | FileCheck %s --check-prefix=DEPTH
// RUN: %tsrun %t.o --max-stack-depth=2 -f json -- %t.exe whole | FileCheck %s --check-prefix=JSON
// RUN: %tsrun %t.o --max-stack-depth 2 -f binary -o %t.bin -- %t.exe whole
// RUN: %tsreport %t.bin | FileCheck %s --check-prefix=DEPTH
// RUN: %not %tsrun %t.o --max-stack-depth 0 -- %t.exe 2>&1 | FileCheck %s --check-prefix=BAD
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -O2 %S/Inputs/truncated.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe noinfo | FileCheck %s --check-prefix=NOINFO %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe unreadable | FileCheck %s --check-prefix=UNREAD %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe whole | FileCheck %s --check-prefix=WHOLE %}
// RUN: %if native-i386 %{ %tsrun %t.o --max-stack-depth 2 -- %t.i386/%basename_t.tmp.exe whole | FileCheck %s --check-prefix=DEPTH %}
//
// NOINFO: full
// NOINFO-NEXT: {{^        }}target+0x0 (stack-truncated.t.tmp.exe)
// NOINFO-NEXT: {{^        }}through_noinfo+0x{{[0-9a-f]+}} (stack-truncated.t.tmp.exe)
// NOINFO-NEXT: {{^        }}[truncated: no unwind info]
// NOINFO: @paths[
// NOINFO-NEXT: {{^        }}target+0x0 (stack-truncated.t.tmp.exe)
// NOINFO-NEXT: {{^        }}through_noinfo+0x{{[0-9a-f]+}} (stack-truncated.t.tmp.exe)
// NOINFO-NEXT: {{^        }}[truncated: no unwind info]
// NOINFO-NEXT: {{^}}]: 1
//
// UNREAD: full
// UNREAD-NEXT: {{^        }}target+0x0 (stack-truncated.t.tmp.exe)
// UNREAD-NEXT: {{^        }}through_unreadable+0x{{[0-9a-f]+}} (stack-truncated.t.tmp.exe)
// UNREAD-NEXT: {{^        }}[truncated: unreadable stack]
//
// WHOLE: full
// WHOLE-NEXT: {{^        }}target+0x0 (stack-truncated.t.tmp.exe)
// WHOLE-NEXT: {{^        }}main+0x{{[0-9a-f]+}} (stack-truncated.t.tmp.exe)
// WHOLE: {{^        }}_start+0x{{[0-9a-f]+}} (stack-truncated.t.tmp.exe)
// WHOLE-NEXT: two
// WHOLE-NOT: [truncated
//
// DEPTH: full
// DEPTH-NEXT: {{^        }}target+0x0 (stack-truncated.t.tmp.exe)
// DEPTH-NEXT: {{^        }}main+0x{{[0-9a-f]+}} (stack-truncated.t.tmp.exe)
// DEPTH-NEXT: {{^        }}[truncated: depth limit]
// DEPTH-NEXT: two
// DEPTH-NEXT: {{^        }}target+0x0 (stack-truncated.t.tmp.exe)
// DEPTH-NEXT: {{^        }}main+0x{{[0-9a-f]+}} (stack-truncated.t.tmp.exe)
// DEPTH-NOT: {{^        }}
// DEPTH: @paths[
// DEPTH-NEXT: {{^        }}target+0x0 (stack-truncated.t.tmp.exe)
// DEPTH-NEXT: {{^        }}main+0x{{[0-9a-f]+}} (stack-truncated.t.tmp.exe)
// DEPTH-NEXT: {{^        }}[truncated: depth limit]
// DEPTH-NEXT: {{^}}]: 1
//
// JSON: "frames":["target+0x0 (stack-truncated.t.tmp.exe)","main+0x{{[0-9a-f]+}} (stack-truncated.t.tmp.exe)","[truncated: depth limit]"]
// JSON-SAME: "truncated":"depth limit"
// JSON: "frames":["target+0x0 (stack-truncated.t.tmp.exe)","main+0x{{[0-9a-f]+}} (stack-truncated.t.tmp.exe)"]
// JSON-NOT: "truncated"
// JSON: "keys":{{\[\[}}"target+0x0 (stack-truncated.t.tmp.exe)","main+0x{{[0-9a-f]+}} (stack-truncated.t.tmp.exe)","[truncated: depth limit]"]]
//
// BAD: invalid --max-stack-depth '0' (expected 1 to 1024)

void target(int);

@@uft:*:a.out:target:entry {
  printf("full\n");
  stktrace();
  @paths[stktrace()] = count();
}
@@uft:*:a.out:target:entry when (__arg1 == 0) {
  printf("two\n");
  stktrace(2);
}
