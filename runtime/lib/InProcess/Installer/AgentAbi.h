//===- AgentAbi.h - What putting an agent in depends on the model (private) ===//
//
// A 64-bit process gets the x86-64 agent and the object's LP64 code; a
// 32-bit one the i386 agent and the object's i386 stream (abi.h,
// tscc_streams). What tsrun makes such a process do differs too: its
// system call numbers, and the kernel structures those calls take
// (struct sigaction, iovec, msghdr, cmsghdr), which are 32 bits wide there.
// Agent.cpp asks this for every one of them.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_AGENTABI_H
#define TSCC_RUNTIME_PTRACE_AGENTABI_H

#include "tscc/DataModel.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace tscc::rt::pt {

struct AgentAbi {
  DataModel DM;
  /// The agent of the model's instruction set (tscc/agent.h symbols).
  std::span<const uint8_t> AgentObject;
  /// mmap is mmap2 in i386: its offset counts pages (tsrun passes 0).
  uint64_t NrClose, NrMprotect, NrMunmap, NrRtSigaction, NrMadvise, NrSocket,
      NrConnect, NrRecvmsg, NrMmap, NrOpenat;
  /// The text section clause code is in, in the code's image.
  std::string_view TextSection;
  /// The agent's trampolines call it at this offset of the code
  /// (TSCC_TRAMPOLINE_CALL_END, or _I386).
  unsigned TrampolineCallEnd, TrampolineCopy;

  /// The kernel's struct sigaction of the model, 32 bytes as in
  /// tscc_agent_config.chained (tscc/agent.h).
  std::array<uint8_t, 32> sigaction(uint64_t Handler, uint64_t Flags,
                                    uint64_t Restorer) const;
  uint64_t sigactionHandler(std::span<const uint8_t, 32> Act) const;
  /// recvmsg(2) of one byte and N descriptors: the iovec and msghdr, and
  /// the control buffer's size; the received descriptors from it.
  std::vector<uint8_t> iovec(uint64_t Base, uint64_t Len) const;
  std::vector<uint8_t> msghdr(uint64_t Iov, uint64_t Control,
                              uint64_t ControlLen) const;
  unsigned controlSpaceForFds(unsigned N) const;
  bool receivedFds(std::span<const uint8_t> Control, int *Fds,
                   unsigned N) const;
  /// The undefined symbols of clause code the agent resolves.
  bool providesForClauses(std::string_view Name) const;
};

const AgentAbi &agentAbi(DataModel DM);

} // namespace tscc::rt::pt

#endif
