// Probe specifications are split into their colon-separated fields, each
// with its own range; a /regex/ field may contain ':' and a path module is
// plain text.
// RUN: %tscc --dump-ast %s | FileCheck %s

@@BEGIN, @@END {}
// CHECK:      ProbeSpec <[[#@LINE-1]]:1, [[#@LINE-1]]:1> '@@BEGIN' provider=BEGIN
// CHECK-NEXT: ProbeField <[[#@LINE-2]]:3, [[#@LINE-2]]:7> 'BEGIN'
// CHECK-NEXT: ProbeSpec <[[#@LINE-3]]:10, [[#@LINE-3]]:10> '@@END' provider=END

@@uft:*:a.out:handle:entry {}
// CHECK:      ProbeSpec {{.*}} '@@uft:*:a.out:handle:entry' provider=uft
// CHECK-NEXT: ProbeField <[[#@LINE-2]]:3, [[#@LINE-2]]:5> 'uft'
// CHECK-NEXT: ProbeField <[[#@LINE-3]]:7, [[#@LINE-3]]:7> '*'
// CHECK-NEXT: ProbeField <[[#@LINE-4]]:9, [[#@LINE-4]]:13> 'a.out'
// CHECK-NEXT: ProbeField <[[#@LINE-5]]:15, [[#@LINE-5]]:20> 'handle'
// CHECK-NEXT: ProbeField <[[#@LINE-6]]:22, [[#@LINE-6]]:26> 'entry'

@@uft:$1:/usr/lib/x86_64-linux-gnu/libc.so.6:/^str(cpy|cat):x$/:exit {}
// CHECK:      ProbeSpec {{.*}} provider=uft
// CHECK-NEXT: ProbeField {{.*}} 'uft'
// CHECK-NEXT: ProbeField {{.*}} '$1'
// CHECK-NEXT: ProbeField {{.*}} '/usr/lib/x86_64-linux-gnu/libc.so.6'{{$}}
// CHECK-NEXT: ProbeField <[[#@LINE-5]]:46, [[#@LINE-5]]:63> '/^str(cpy|cat):x$/' regex
// CHECK-NEXT: ProbeField {{.*}} 'exit'

@@uft:1234:libc.so.6:malloc+0x10 {}
// CHECK:      ProbeField {{.*}} 'malloc+0x10'

@@uft:*:*:str*:entry,@@syscall:*:read:exit
{}
// CHECK:      ProbeField {{.*}} 'str*'
// CHECK:      ProbeSpec <[[#@LINE-3]]:22, [[#@LINE-3]]:22> '@@syscall:*:read:exit' provider=syscall

@@interval:*:clock:500 {}
// CHECK:      ProbeSpec {{.*}} '@@interval:*:clock:500' provider=interval
// CHECK-NEXT: ProbeField {{.*}} 'interval'
// CHECK-NEXT: ProbeField {{.*}} '*'
// CHECK-NEXT: ProbeField {{.*}} 'clock'
// CHECK-NEXT: ProbeField {{.*}} '500'

@@perf:cycles {}
// Unknown providers are sema's to reject.
// CHECK:      ProbeSpec {{.*}} '@@perf:cycles' provider=unknown
