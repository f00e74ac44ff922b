#include <dirent.h>
#include "layout.h"

#define T struct dirent
int main(void) {
  TYPE(struct dirent);
  FIELD(T, d_ino);
  FIELD(T, d_off);
  FIELD(T, d_reclen);
  FIELD(T, d_type);
  ARRAY(T, d_name);
  return 0;
}
