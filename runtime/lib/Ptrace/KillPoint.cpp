//===- KillPoint.cpp - SIGKILL tsrun at a chosen moment (tests) -----------===//
#include "KillPoint.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace tscc::rt::pt;

namespace {

struct Target {
  std::string Point;
  long Count = 0; ///< times left before the kill; 0: never
};

Target &target() {
  static Target T = [] {
    Target R;
    const char *Env = std::getenv("TSCC_TEST_SIGKILL_AT");
    if (!Env)
      return R;
    const char *Colon = std::strrchr(Env, ':');
    R.Point = Colon ? std::string(Env, Colon) : std::string(Env);
    R.Count = Colon ? std::strtol(Colon + 1, nullptr, 10) : 1;
    return R;
  }();
  return T;
}

killpoint::Window Current = killpoint::Window::None;

} // namespace

void killpoint::setWindow(Window W) { Current = W; }

void killpoint::reached(const char *Point) {
  Target &T = target();
  if (T.Count > 0 && T.Point == Point && --T.Count == 0)
    std::raise(SIGKILL);
}

void killpoint::injection(const char *Stage) {
  if (Current == Window::None || target().Count <= 0)
    return;
  std::string Point = Current == Window::Link ? "link-inject-" : "exec-inject-";
  reached((Point + Stage).c_str());
}
