// The probes of models.c (test/Ptrace/Inputs/models.c): each prints the
// PROG line the program printed about that call, computed by the script in
// the data model of the process it fires in. Used by several tests; RUN
// lines are in the tests.
struct rec {
  char tag;
  long l;
  long long ll;
  void *p;
  short s;
  const char *name;
};
long add3(int a, long b, long long c);
long long wide(long long x);
int show_rec(struct rec *r, const char *label);
int inner(int x);
int outer(int x);
int at_offset(int x);

__thread long long wide_arg;

@@BEGIN { printf("BEGIN\n"); }

@@uft:*:a.out:main:entry
{
  printf("PROG %d model sizeof long %zu ptr %zu rec %zu off ll %zu p %zu "
         "s %zu name %zu\n",
         __pid,
         sizeof(long), sizeof(void *), sizeof(struct rec),
         offsetof(struct rec, ll), offsetof(struct rec, p),
         offsetof(struct rec, s), offsetof(struct rec, name));
}

@@uft:*:a.out:at_offset+6 { printf("PROG %d offset ip %p\n", __pid, __ip); }

@@uft:*:a.out:add3:entry
{
  printf("PROG %d add3 %d %ld %lld\n", __pid, __arg1, __arg2, __arg3);
}

@@uft:*:a.out:add3:exit { printf("PROG %d add3 rv %ld\n", __pid, __rv); }

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

@@END { printf("END\n"); }
