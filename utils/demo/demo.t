/* The demo script: one object, both data models (see docs/tutorial.md). */
#include <signal.h>
struct req { int id; long len; char *name; };
int handle(struct req *r, int flags);
int sigaction(int, const struct sigaction *, struct sigaction *);

__global long total;

@@BEGIN { printf("tracing...\n"); }

@@uft:*:a.out:handle:entry
when (__arg1->len > 0)
{
    total += __arg1->len;
    printf("probe %d-bit: req %d len %ld name %s (sizeof req %d)\n",
           __datamodel, __arg1->id, __arg1->len, get_userstring(__arg1->name),
           sizeof(struct req));
}

@@uft:*:a.out:handle:exit
{
    @calls[__pname, __datamodel] = count();
}

@@uft:*:*:sigaction:entry
when (__arg2 != 0)
{
    printf("probe %d-bit: sigaction handler %p mask word 0x%lx\n",
           __datamodel, __arg2->sa_handler, __arg2->sa_mask.__val[0]);
}

@@END { printf("total len %ld\n", total); }
