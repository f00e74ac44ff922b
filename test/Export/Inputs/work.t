/* The probes of the export tests: entry/exit pairs of nested functions,
 * integers printed at several widths, a string, a trace() hook, and a stack, an END
 * record that belongs to no process. */
long work(long n, char *name);
int step(int k);
void note(int code);

@@uft:*:a.out:work:entry
{
    printf("enter n=%ld name=%s low=%hhd u=%u x=%#x\n", __arg1,
           get_userstring(__arg2), __arg1, __arg1, __arg1);
}
@@uft:*:a.out:work:exit { printf("leave rv=%ld\n", __rv); }
@@uft:*:a.out:step:entry { printf("step k=%d\n", __arg1); }
@@uft:*:a.out:step:exit { printf("step rv=%d\n", __rv); }
@@uft:*:a.out:note:entry
{
    trace(0x1001, __arg1, __pname);
    stktrace(2);
    printf("note %c%c\n", 111, 107);
}
@@END { printf("end\n"); }
