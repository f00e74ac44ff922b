#include "req.h"
int handle(struct req *r);

@@uft:*:a.out:handle:entry
when (__arg1->len >= MIN_LEN)
{
    printf("req %d len %ld\n", __arg1->id, __arg1->len);
}
