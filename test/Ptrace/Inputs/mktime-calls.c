/* Calls mktime(), which goes through libc's static ydhms_diff(). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3;
  long total = 0;
  for (int i = 0; i < n; ++i) {
    struct tm t = {.tm_year = 100 + i, .tm_mday = 1 + i, .tm_isdst = -1};
    total += (long)mktime(&t) > 0;
  }
  printf("mktime called %d times (%ld positive)\n", n, total);
  return 0;
}
