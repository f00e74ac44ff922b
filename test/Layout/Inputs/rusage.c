#include <sys/resource.h>
#include "layout.h"

/* Each counter is an anonymous union of the long and a 64-bit-clean word;
 * both are members of struct rusage as far as C is concerned. */
#define T struct rusage
#define COUNTER(name) FIELD(T, ru_##name); FIELD(T, __ru_##name##_word)
int main(void) {
  TYPE(struct rusage);
  FIELD(T, ru_utime);
  FIELD(T, ru_utime.tv_sec);
  FIELD(T, ru_utime.tv_usec);
  FIELD(T, ru_stime);
  FIELD(T, ru_stime.tv_sec);
  FIELD(T, ru_stime.tv_usec);
  COUNTER(maxrss);
  COUNTER(ixrss);
  COUNTER(idrss);
  COUNTER(isrss);
  COUNTER(minflt);
  COUNTER(majflt);
  COUNTER(nswap);
  COUNTER(inblock);
  COUNTER(oublock);
  COUNTER(msgsnd);
  COUNTER(msgrcv);
  COUNTER(nsignals);
  COUNTER(nvcsw);
  COUNTER(nivcsw);
  return 0;
}
