// C++ exceptions thrown through functions with entry probes (only), from
// many short-lived std::threads. Prints the calls and catches.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <thread>
#include <vector>

static std::atomic<long> Calls, Caught;

extern "C" __attribute__((noinline)) long thrower(long Level) {
  ++Calls;
  if (Level == 0)
    throw std::runtime_error("deep");
  long R = thrower(Level - 1);
  asm volatile("" ::: "memory");
  return R + 1;
}

static void worker(long Rounds) {
  for (long I = 0; I < Rounds; ++I) {
    try {
      thrower(I % 6);
    } catch (const std::exception &) {
      ++Caught;
    }
  }
}

int main(int Argc, char **Argv) {
  long Batches = Argc > 1 ? atol(Argv[1]) : 40;
  long Rounds = Argc > 2 ? atol(Argv[2]) : 200;
  for (long B = 0; B < Batches; ++B) {
    std::vector<std::thread> T;
    for (int I = 0; I < 4; ++I)
      T.emplace_back(worker, Rounds);
    for (auto &X : T)
      X.join();
  }
  std::printf("calls %ld caught %ld\n", Calls.load(), Caught.load());
}
