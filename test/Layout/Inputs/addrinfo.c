#include <netdb.h>
#include "layout.h"

#define T struct addrinfo
int main(void) {
  TYPE(struct addrinfo);
  FIELD(T, ai_flags);
  FIELD(T, ai_family);
  FIELD(T, ai_socktype);
  FIELD(T, ai_protocol);
  FIELD(T, ai_addrlen);
  FIELD(T, ai_addr);
  FIELD(T, ai_canonname);
  FIELD(T, ai_next);
  return 0;
}
