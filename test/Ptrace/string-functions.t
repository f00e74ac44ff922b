// String functions and string ordering, in BEGIN (run by tsrun) and in a
// clause on a traced program (run inside it by the agent, or by tsrun with
// --ptrace); the ILP32 stream gets the same support code.
// RUN: %cc64 %utils/demo/app.c -o %t.app
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.app | FileCheck %s
// RUN: %tscc -S --emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %utils/demo/app.c -o %t.i386/%basename_t.tmp.app %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.app | FileCheck %s %}
// CHECK: len=12 has=1/0 strstr=[world]/[]
// CHECK: sub=[world] [hello] [wor] [] []
// CHECK: ord 1 1 1 0 1
// CHECK: {{^}}req alpha len=5 sub=lph mid=a{{$}}
// CHECK: {{^}}req beta len=4 sub=eta mid=a{{$}}
// CHECK: {{^}}req gamma len=5 sub=amm mid=amma{{$}}
// IR-DAG: define internal {{.*}} @tscc_strfind_ilp32(
// IR-DAG: define internal {{.*}} @tscc_strfind_lp64(
// IR-DAG: define internal {{.*}} @tscc_strcompare_ilp32(
// IR-DAG: define internal {{.*}} @tscc_strcompare_lp64(

struct req { int id; long len; char *name; };
int handle(struct req *r, int flags);
__global String s;

@@BEGIN {
  s = "hello, world";
  printf("len=%lld has=%d/%d strstr=[%s]/[%s]\n", strlen(s), strcontains(s, "lo, w"),
         strcontains(s, "xyz"), strstr(s, "world"), strstr(s, "nope"));
  printf("sub=[%s] [%s] [%s] [%s] [%s]\n", substr(s, 7), substr(s, 0, 5),
         substr(s, -5, 3), substr(s, 100), substr(s, 3, -1));
  printf("ord %d %d %d %d %d\n", "abc" < "abd", "abd" > "abc", "ab" < "abc",
         "b" <= "a", "x" >= "x");
}

@@uft:*:a.out:handle:entry
{
  String n = get_userstring(__arg1->name);
  printf("req %s len=%lld sub=%s", n, strlen(n), substr(n, 1, 3));
  if (strcontains(n, "a") && n > "alpha")
    printf(" mid=%s", strstr(n, "a"));
  if (n == "alpha")
    printf(" mid=%s", substr(n, -1));
  printf("\n");
}
