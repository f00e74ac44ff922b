#include <signal.h>
#include "layout.h"
/* glibc spells these as macros for paths through the union; the layout
 * lines name the real members. */
#undef sa_handler
#undef sa_sigaction

#define T struct sigaction
int main(void) {
  TYPE(struct sigaction);
  FIELD(T, __sigaction_handler);
  FIELD(T, __sigaction_handler.sa_handler);
  FIELD(T, __sigaction_handler.sa_sigaction);
  FIELD(T, sa_mask);
  ARRAY(T, sa_mask.__val);
  FIELD(T, sa_flags);
  FIELD(T, sa_restorer);
  return 0;
}
