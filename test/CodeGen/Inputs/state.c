/* Traced program for e2e-state.t: it computes, in C, what the script keeps
 * in an associative array, a thread-local and global variables, and prints
 * it (prefixed PROG) next to the calls the script probes. */
#include <stdio.h>
#include <string.h>

void step(const char *name, int n) { (void)name; (void)n; }

static char names[16][16];
static long sums[16];
static int count;

static long *sumFor(const char *name) {
  for (int i = 0; i < count; i++)
    if (!strcmp(names[i], name))
      return &sums[i];
  snprintf(names[count], sizeof names[count], "%s", name);
  return &sums[count++];
}

int main(void) {
  static const char *seq[] = {"alpha", "beta", "alpha", "gamma", "alpha",
                              "a-name-longer-than-fifteen"};
  static const int ns[] = {1, 2, 3, 4, 5, 6};
  long prev = 0, calls = 0;
  char last[16] = "";
  for (int i = 0; i < 6; i++) {
    char nm[16];
    snprintf(nm, sizeof nm, "%s", seq[i]);
    if (ns[i] != 4) { /* the clause's predicate */
      long *s = sumFor(nm);
      *s += ns[i];
      calls++;
      printf("PROG name=%s n=%d sum=%ld prev=%ld last=%s calls=%ld\n", nm,
             ns[i], *s, prev, last, calls);
      prev = ns[i];
      memcpy(last, nm, sizeof last);
    }
    step(seq[i], ns[i]);
    if (prev > 2)
      printf("PROG exit prev=%ld\n", prev);
  }
  return 0;
}
