#include <time.h>
#include "layout.h"

#define T struct tm
int main(void) {
  TYPE(struct tm);
  FIELD(T, tm_sec);
  FIELD(T, tm_min);
  FIELD(T, tm_hour);
  FIELD(T, tm_mday);
  FIELD(T, tm_mon);
  FIELD(T, tm_year);
  FIELD(T, tm_wday);
  FIELD(T, tm_yday);
  FIELD(T, tm_isdst);
  FIELD(T, tm_gmtoff);
  FIELD(T, tm_zone);
  return 0;
}
