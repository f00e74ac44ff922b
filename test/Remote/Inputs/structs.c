/* Fills real glibc structs (struct stat, struct tm, struct rusage, struct
 * dirent, struct addrinfo) and the structs of structs.h, prints as VAL lines
 * the fields a probe should read, then passes each to a show_*() function
 * that the script probes. Built -m32 and -m64 from the same source. */
#define _GNU_SOURCE
#include "structs.h"

#include <dirent.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))
NOINLINE void show_stat(struct stat *st) { (void)st; }
NOINLINE void show_tm(struct tm *tm) { (void)tm; }
NOINLINE void show_rusage(struct rusage *ru) { (void)ru; }
NOINLINE void show_dirent(struct dirent *d) { (void)d; }
NOINLINE void show_addrinfo(struct addrinfo *ai) { (void)ai; }
NOINLINE void show_nest(struct nest *n, struct packed *p) { (void)n, (void)p; }

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  struct stat st;
  if (stat(argv[0], &st) != 0)
    return 1;
  printf("VAL stat size %ld mode %u nlink %lu ino %lu\n", (long)st.st_size,
         (unsigned)st.st_mode, (unsigned long)st.st_nlink,
         (unsigned long)st.st_ino);
  show_stat(&st);

  time_t t = 1700000000;
  struct tm tm;
  gmtime_r(&t, &tm);
  printf("VAL tm %d-%d-%d %d:%d:%d yday %d\n", tm.tm_year, tm.tm_mon,
         tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, tm.tm_yday);
  show_tm(&tm);

  struct rusage ru;
  memset(&ru, 0, sizeof(ru));
  ru.ru_utime.tv_sec = 12;
  ru.ru_utime.tv_usec = 345678;
  ru.ru_maxrss = 4242;
  ru.ru_nvcsw = 77;
  printf("VAL rusage %ld.%ld maxrss %ld nvcsw %ld\n", (long)ru.ru_utime.tv_sec,
         (long)ru.ru_utime.tv_usec, ru.ru_maxrss, ru.ru_nvcsw);
  show_rusage(&ru);

  struct dirent de;
  memset(&de, 0, sizeof(de));
  de.d_ino = 99;
  de.d_type = DT_REG;
  strcpy(de.d_name, "entry.txt");
  printf("VAL dirent ino %lu type %d name %s\n", (unsigned long)de.d_ino,
         de.d_type, de.d_name);
  show_dirent(&de);

  struct addrinfo next = {.ai_family = 10, .ai_canonname = "second"};
  struct addrinfo ai = {.ai_flags = 2, .ai_family = 2, .ai_socktype = 1,
                        .ai_protocol = 6, .ai_addrlen = 16,
                        .ai_canonname = "first", .ai_next = &next};
  printf("VAL addrinfo family %d socktype %d addrlen %u name %s next %d %s\n",
         ai.ai_family, ai.ai_socktype, (unsigned)ai.ai_addrlen,
         ai.ai_canonname, ai.ai_next->ai_family, ai.ai_next->ai_canonname);
  show_addrinfo(&ai);

  struct nest n;
  memset(&n, 0, sizeof(n));
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      n.grid[i][j] = 10 * i + j - 3;
  n.b[1].a = 5;
  n.b[1].b = 100;
  n.b[1].c = -9;
  n.b[1].d = 0xabcde;
  n.un.l = -123456;
  n.ll = -0x123456789abLL;
  strcpy(n.name, "nested");
  n.str = "through a pointer";
  n.self = &n;
  struct packed p = {'Q', 0x1122334455667788LL, -5, -77};
  printf("VAL grid %d %d bits %u %u %d %lu\n", n.grid[0][1], n.grid[1][2],
         n.b[1].a, n.b[1].b, n.b[1].c, (unsigned long)n.b[1].d);
  printf("VAL union %ld byte0 %u ll %lld name %s str %s self %d\n", n.un.l,
         n.un.bytes[0], n.ll, n.name, n.str, n.self->grid[1][0]);
  printf("VAL packed %c %lld %d %ld sizes %lu %lu %lu\n", p.tag, p.wide, p.s,
         p.l, (unsigned long)sizeof(struct packed),
         (unsigned long)sizeof(struct nest), (unsigned long)sizeof(struct bits));
  show_nest(&n, &p);
  return 0;
}
