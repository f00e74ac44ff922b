//===- PathPlan.h - Which path a sandboxed process can take (private) -----===//
//
// Right after exec or attach, before anything is put into a process, tsrun
// decides what it may put there, from the seccomp filters of its threads
// (Sandbox.h) and the system calls each piece will make:
//   - the home page (one mmap, from the stopped thread's instruction
//     pointer): without it, no call is injected at all, and the process
//     gets breakpoints only, stepped over in place (StepOver.cpp), with
//     exit probes returning through an unmappable address;
//   - the healer of attached processes (Healer.h): its mappings and
//     handler, and the calls the handler makes once tsrun is gone;
//   - the in-process agent (Agent.h): the calls that set it up, the calls
//     it makes while it runs, in every thread, and the calls it makes to
//     put the code back if tsrun dies (without those, it only disarms).
// A call counts only if every filter concerned allows it, with every
// argument tsrun cannot know in advance left out of the verdict (a filter
// that looks at one is a filter tsrun cannot predict). Injected calls are
// checked again, exactly, when they are made (Inject.h); this plan is what
// lets a process start on a path it can finish.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_PATHPLAN_H
#define TSCC_RUNTIME_PTRACE_PATHPLAN_H

#include "PtraceProcess.h"

#include <string>

namespace tscc::rt::pt {

struct PathPlan {
  std::string Sandbox;     ///< "seccomp: 2 filters, read"; "" when none
  std::string NoInjection; ///< why no call may be injected; "" if any may
  std::string NoHealer;    ///< why there is no healer
  std::string NoAgent;     ///< why the agent cannot run in the process
  std::string NoAgentHeal; ///< why its agent must not rewrite code alone
};

/// Plans P's path. Every thread of P is stopped; Tid is the one calls are
/// injected into.
PathPlan planPath(PtraceProcess &P, pid_t Tid, bool WantAgent, bool WantHealer);

} // namespace tscc::rt::pt

#endif // TSCC_RUNTIME_PTRACE_PATHPLAN_H
