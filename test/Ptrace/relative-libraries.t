// Libraries the loader finds through relative paths are probed like any
// other: LD_LIBRARY_PATH=. (the link map names the library ./libaliases.so)
// and dlopen("./libprobe.so"). The file is the one mapped at the library's
// load address, not a guess from tsrun's own working directory.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %cc64 -shared -fPIC %S/Inputs/aliases-lib.c -o %t.dir/libaliases.so
// RUN: %cc64 %S/Inputs/aliases.c -o %t.dir/uselib -L%t.dir -laliases
// RUN: %cc64 -shared -fPIC %S/Inputs/dlopen-lib.c -o %t.dir/libprobe.so
// RUN: %cc64 %S/Inputs/dlopen.c -o %t.dir/dlopener -ldl
// RUN: %tscc %s -o %t.o
// RUN: cd %t.dir && env LD_LIBRARY_PATH=. %tsrun %t.o -- ./uselib 6 | FileCheck %s --check-prefix=LIBPATH
// LIBPATH: calls=6
// LIBPATH: work=6 lib_func=0 module=libaliases.so
// RUN: cd %t.dir && %tsrun %t.o -- ./dlopener ./libprobe.so 4 | FileCheck %s --check-prefix=DLOPEN
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ rm -rf %t.i386/%basename_t.tmp.dir && mkdir -p %t.i386/%basename_t.tmp.dir %}
// RUN: %if native-i386 %{ %cc32 -shared -fPIC %S/Inputs/aliases-lib.c -o %t.i386/%basename_t.tmp.dir/libaliases.so %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/aliases.c -o %t.i386/%basename_t.tmp.dir/uselib -L%t.i386/%basename_t.tmp.dir -laliases %}
// RUN: %if native-i386 %{ %cc32 -shared -fPIC %S/Inputs/dlopen-lib.c -o %t.i386/%basename_t.tmp.dir/libprobe.so %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/dlopen.c -o %t.i386/%basename_t.tmp.dir/dlopener -ldl %}
// RUN: %if native-i386 %{ cd %t.i386/%basename_t.tmp.dir && env LD_LIBRARY_PATH=. %tsrun %t.o -- ./uselib 6 | FileCheck %s --check-prefix=LIBPATH %}
// RUN: %if native-i386 %{ cd %t.i386/%basename_t.tmp.dir && %tsrun %t.o -- ./dlopener ./libprobe.so 4 | FileCheck %s --check-prefix=DLOPEN %}
// DLOPEN: expected=[[N:[0-9]+]]
// DLOPEN: work=0 lib_func=[[N]] module=libprobe.so

__global long work, lib_func;
__global String mod;

@@uft:*:libaliases.so:work:entry { work++; mod = __module; }
@@uft:*:libprobe.so:lib_func:entry { lib_func++; mod = __module; }
@@END { printf("work=%ld lib_func=%ld module=%s\n", work, lib_func, mod); }
