/* The traced program of the metrics test: calls work() with names that
 * need escaping as Prometheus label values, then says "ready" through the
 * FIFO argv[1] and blocks on the FIFO argv[2] until the test has scraped
 * tsrun's /metrics, so every value scraped is final. */
#include <stdio.h>

__attribute__((noinline)) long work(long n, const char *name) {
  return n + (name[0] != 0);
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  static const char *names[] = {"alpha", "back\\slash", "quote\"d",
                                "new\nline", "alpha"};
  static const long values[] = {3, 0, 17, 1000, -4};
  long total = 0;
  for (int i = 0; i < 5; ++i)
    total += work(values[i], names[i]);
  FILE *ready = fopen(argv[1], "w");
  if (!ready)
    return 3;
  fprintf(ready, "ready %ld\n", total);
  fclose(ready);
  FILE *go = fopen(argv[2], "r");
  if (!go)
    return 4;
  char line[16];
  (void)!fgets(line, sizeof(line), go);
  fclose(go);
  return 0;
}
