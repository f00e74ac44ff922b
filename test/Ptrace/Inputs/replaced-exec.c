// replaced-exec PATH NEWFILE, built as VERSION 1 and VERSION 2: calls
// work(VERSION) VERSION + 2 times; version 1 then puts NEWFILE in place of
// PATH (a new file at the same path, as a rebuild does) and execs PATH.
// Version 2 has a function in front of work(), so work() is elsewhere in
// its file, and where version 1 had it version 2 has that function, which
// it calls 7 times.
#include <stdio.h>
#include <unistd.h>

#if VERSION == 2
__attribute__((noinline)) long pad(long X) {
  volatile long S = 0;
  for (long I = 0; I < 16; ++I)
    S += X * I + (S >> 3) - (S << 1) + (X ^ I) * (I | 5);
  for (long I = 0; I < 16; ++I)
    S -= X * I + (S >> 2) - (S << 3) + (X ^ I) * (I | 9);
  return S;
}
#endif

__attribute__((noinline)) long work(long V) { return V * 3; }

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  long S = 0;
  for (long I = 0; I < VERSION + 2; ++I)
    S += work(VERSION);
#if VERSION == 2
  for (long I = 0; I < 7; ++I)
    S += pad(I);
#endif
  printf("version %d: %d calls of work\n", VERSION, VERSION + 2);
  fflush(stdout);
#if VERSION == 1
  if (rename(argv[2], argv[1]) != 0)
    return 3;
  execl(argv[1], argv[1], argv[1], argv[2], (char *)NULL);
  return 4;
#else
  return S == 12345 ? 5 : 0;
#endif
}
