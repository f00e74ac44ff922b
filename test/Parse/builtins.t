// Every __name is a built-in variable reference and every call names a
// built-in function; which exist is sema's business.
// RUN: %tscc --dump-ast %s | FileCheck %s

@@uft:*:a.out:handle:exit
when (__pid == $1 && __datamodel == 64)
{
  printf("%d %d %d %d %s %s %s %s %p\n", __pid, __tid, __ppid, __uid, __pname,
         __func, __module, __probe, __ip);
  trace(1, __arg1, __arg2, __arg3, __arg4, __arg5, __arg6, __arg7, __arg8);
  x = __rv + __errno;
  t = diff_time(t0, timestamp(), MICROSECONDS);
  s = get_userstring(__arg1, 64);
  copy_userdata(__arg2, buf);
  y = stktrace() + stktrace(8) + within("parse");
  delete(m[__tid]);
  @a = count(); @b = sum(x); @c = min(x); @d = max(x); @e = avg(x);
  @f = stats(x); @g = hist(x); @h = lhist(x, 0, 10, 1);
  print(@a); print(@b, 5); clear(@c);
  exit();
}
// CHECK-COUNT-11: BuiltinVarExpr
// CHECK: BuiltinVarExpr {{.*}} '__arg1'
// CHECK: BuiltinVarExpr {{.*}} '__arg8'
// CHECK: BuiltinVarExpr {{.*}} '__rv'
// CHECK: BuiltinVarExpr {{.*}} '__errno'
// CHECK: CallExpr {{.*}} 'diff_time'
// CHECK: CallExpr {{.*}} 'timestamp'
// CHECK: CallExpr {{.*}} 'get_userstring'
// CHECK: CallExpr {{.*}} 'copy_userdata'
// CHECK: CallExpr {{.*}} 'stktrace'
// CHECK: CallExpr {{.*}} 'within'
// CHECK: CallExpr {{.*}} 'delete'
// CHECK: CallExpr {{.*}} 'lhist'
// CHECK: CallExpr {{.*}} 'clear'
// CHECK: CallExpr {{.*}} 'exit'
