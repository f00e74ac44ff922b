/* Calls work() with 100 different arguments. */
int work(int id) { return id * 2; }
int main(void) {
  long s = 0;
  for (int i = 0; i < 100; ++i)
    s += work(i);
  return s == 0;
}
