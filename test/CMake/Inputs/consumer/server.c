#include <stdio.h>
#include "include/req.h"
__attribute__((noinline)) int handle(struct req *r) { return r->id; }
int main(void) {
  char name[] = "x";
  for (int i = 1; i <= 3; i++) {
    struct req r = {i, 10L * i, name};
    printf("server: req %d len %ld\n", r.id, r.len);
    handle(&r);
  }
  return 0;
}
