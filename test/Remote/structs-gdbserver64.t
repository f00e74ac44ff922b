// The same script and program source as structs-qemu32.t, built -m64 and
// reached through gdbserver: the LP64 layouts of the same types.
// REQUIRES: compiler, gdbserver
// RUN: %tscc -I %S/Inputs %s -o %t.o
// RUN: %cc64 -I %S/Inputs %S/Inputs/structs.c -o %t64
// RUN: %remote_session --stub 'gdbserver 127.0.0.1:{port} %t64' --out %t.prog \
// RUN:   -- %tsrun %t.o --remote 127.0.0.1:{port0}=%t64 > %t.trace 2> %t.err
// RUN: grep '^VAL' %t.prog > %t.want
// RUN: grep '^VAL' %t.trace > %t.got
// RUN: diff %t.want %t.got

#define _GNU_SOURCE
#include <dirent.h>
#include <netdb.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include "structs.h"

void show_stat(struct stat *st);
void show_tm(struct tm *tm);
void show_rusage(struct rusage *ru);
void show_dirent(struct dirent *d);
void show_addrinfo(struct addrinfo *ai);
void show_nest(struct nest *n, struct packed *p);

@@uft:*:a.out:show_stat:entry
{
  printf("VAL stat size %ld mode %u nlink %lu ino %lu\n",
         (long)__arg1->st_size, (unsigned)__arg1->st_mode,
         (unsigned long)__arg1->st_nlink, (unsigned long)__arg1->st_ino);
}

@@uft:*:a.out:show_tm:entry
{
  printf("VAL tm %d-%d-%d %d:%d:%d yday %d\n", __arg1->tm_year,
         __arg1->tm_mon, __arg1->tm_mday, __arg1->tm_hour, __arg1->tm_min,
         __arg1->tm_sec, __arg1->tm_yday);
}

@@uft:*:a.out:show_rusage:entry
{
  printf("VAL rusage %ld.%ld maxrss %ld nvcsw %ld\n",
         (long)__arg1->ru_utime.tv_sec, (long)__arg1->ru_utime.tv_usec,
         __arg1->ru_maxrss, __arg1->ru_nvcsw);
}

@@uft:*:a.out:show_dirent:entry
{
  printf("VAL dirent ino %lu type %d name %s\n", (unsigned long)__arg1->d_ino,
         __arg1->d_type, get_userstring(__arg1->d_name));
}

@@uft:*:a.out:show_addrinfo:entry
{
  printf("VAL addrinfo family %d socktype %d addrlen %u name %s next %d %s\n",
         __arg1->ai_family, __arg1->ai_socktype, (unsigned)__arg1->ai_addrlen,
         get_userstring(__arg1->ai_canonname), __arg1->ai_next->ai_family,
         get_userstring(__arg1->ai_next->ai_canonname));
}

@@uft:*:a.out:show_nest:entry
{
  printf("VAL grid %d %d bits %u %u %d %lu\n", __arg1->grid[0][1],
         __arg1->grid[1][2], __arg1->b[1].a, __arg1->b[1].b, __arg1->b[1].c,
         (unsigned long)__arg1->b[1].d);
  printf("VAL union %ld byte0 %u ll %lld name %s str %s self %d\n",
         __arg1->un.l, __arg1->un.bytes[0], __arg1->ll,
         get_userstring(__arg1->name), get_userstring(__arg1->str),
         __arg1->self->grid[1][0]);
  printf("VAL packed %c %lld %d %ld sizes %lu %lu %lu\n", __arg2->tag,
         __arg2->wide, __arg2->s, __arg2->l,
         (unsigned long)sizeof(struct packed),
         (unsigned long)sizeof(struct nest),
         (unsigned long)sizeof(struct bits));
}
