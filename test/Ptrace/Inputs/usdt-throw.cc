// Throws and catches exceptions: libstdc++'s libstdcxx:throw and
// libstdcxx:catch USDT probes fire once per exception.
#include <cstdio>
#include <stdexcept>

int main(int argc, char **) {
  int Caught = 0;
  for (int I = 0; I < 6 + argc; ++I) {
    try {
      if (I % 2 == 0)
        throw std::runtime_error("even");
      throw I;
    } catch (const std::exception &) {
      ++Caught;
    } catch (int) {
      ++Caught;
    }
  }
  std::printf("caught %d\n", Caught);
  return 0;
}
