// exec across data models, both ways: a 64-bit program that execs a 32-bit
// one and a 32-bit one that execs a 64-bit one. Each image is traced with
// the code of its own data model (sizes, arguments and return values as
// the program itself prints them), and the execve() system call is seen
// on both sides: its entry by the old image's number, its exit (0) in the
// new image, by the new image's number.
// REQUIRES: native-i386
// RUN: %tscc -w %s -o %t.o
// RUN: %cc64 %S/Inputs/forkexec.c -o %t.fe64
// RUN: %cc32 %S/Inputs/forkexec.c -o %t.fe32
// RUN: %cc64 %S/Inputs/models.c -o %t.m64
// RUN: %cc32 %S/Inputs/models.c -o %t.m32
// RUN: %tsrun %t.o -- %t.fe64 exec %t.m32 2 > %t.out64to32; test $? = 3
// RUN: %python %S/Inputs/check-pairs.py PROG "PROG [0-9]+ done" < %t.out64to32 | FileCheck %s --check-prefix=PAIRS
// RUN: FileCheck %s --check-prefix=TO32 < %t.out64to32
// RUN: %tsrun --ptrace %t.o -- %t.fe32 exec %t.m64 2 > %t.out32to64; test $? = 3
// RUN: %python %S/Inputs/check-pairs.py PROG "PROG [0-9]+ done" < %t.out32to64 | FileCheck %s --check-prefix=PAIRS
// RUN: FileCheck %s --check-prefix=TO64 < %t.out32to64
//
// PAIRS: pairs: 13
// TO32: work sizeof long 8 ptr 8
// TO32-NEXT: work sizeof long 8 ptr 8
// TO32-NEXT: work sizeof long 8 ptr 8
// TO32-NEXT: execve {{.*}}.m32 from LP64
// TO32-NEXT: execve rv 0 in ILP32
// TO32: PROG {{[0-9]+}} model sizeof long 4 ptr 4 rec 28
// TO64: work sizeof long 4 ptr 4
// TO64-NEXT: work sizeof long 4 ptr 4
// TO64-NEXT: work sizeof long 4 ptr 4
// TO64-NEXT: execve {{.*}}.m64 from ILP32
// TO64-NEXT: execve rv 0 in LP64
// TO64: PROG {{[0-9]+}} model sizeof long 8 ptr 8 rec 48

struct rec {
  char tag;
  long l;
  long long ll;
  void *p;
  short s;
  const char *name;
};
long work(long);
long add3(int a, long b, long long c);
long long wide(long long x);
int show_rec(struct rec *r, const char *label);
int inner(int x);
int outer(int x);
int at_offset(int x);

__thread long long wide_arg;

@@uft:*:a.out:work:entry
{
  printf("work sizeof long %zu ptr %zu\n", sizeof(long), sizeof(void *));
}

@@syscall:*:execve:entry
{
  printf("execve %s from %s\n", get_userstring(__arg1),
         __datamodel == 64 ? "LP64" : "ILP32");
}

@@syscall:*:execve:exit
{
  printf("execve rv %ld in %s\n", __rv, __datamodel == 64 ? "LP64" : "ILP32");
}

// models.c's main (forkexec.c has one too).
@@uft:*:a.out:main:entry when (strcontains(__pname, "tmp.m"))
{
  printf("PROG %d model sizeof long %zu ptr %zu rec %zu off ll %zu p %zu "
         "s %zu name %zu\n",
         __pid,
         sizeof(long), sizeof(void *), sizeof(struct rec),
         offsetof(struct rec, ll), offsetof(struct rec, p),
         offsetof(struct rec, s), offsetof(struct rec, name));
}

@@uft:*:a.out:add3:entry
{
  printf("PROG %d add3 %d %ld %lld\n", __pid, __arg1, __arg2, __arg3);
}

@@uft:*:a.out:add3:exit { printf("PROG %d add3 rv %ld\n", __pid, __rv); }

@@uft:*:a.out:at_offset+6 { printf("PROG %d offset ip %p\n", __pid, __ip); }

@@uft:*:a.out:wide:entry { wide_arg = __arg1; }

@@uft:*:a.out:wide:exit { printf("PROG %d wide %lld rv %lld\n", __pid, wide_arg, __rv); }

@@uft:*:a.out:show_rec:entry
{
  printf("PROG %d rec %c %ld %lld %p %d %s label %s\n",
         __pid, __arg1->tag, __arg1->l,
         __arg1->ll, __arg1->p, __arg1->s, get_userstring(__arg1->name),
         get_userstring(__arg2));
}

@@uft:*:a.out:inner:exit when (within("outer"))
{
  printf("PROG %d within outer %d\n", __pid, __rv * 2);
}
