//===- AgentAbi.cpp - What putting an agent in depends on the model -------===//
#include "AgentAbi.h"

#include "AgentObject.h"

#include "tscc/Runtime/ProbeMatcher.h"
#include "tscc/agent.h"

#include <cstring>
#include <sys/socket.h>

using namespace tscc;
using namespace tscc::rt;
using namespace tscc::rt::pt;

namespace {

void putWord(std::vector<uint8_t> &Out, uint64_t V, unsigned Size) {
  for (unsigned I = 0; I < Size; ++I)
    Out.push_back(static_cast<uint8_t>(V >> (8 * I)));
}

uint64_t getWord(std::span<const uint8_t> In, size_t At, unsigned Size) {
  uint64_t V = 0;
  for (unsigned I = 0; I < Size && At + I < In.size(); ++I)
    V |= uint64_t(In[At + I]) << (8 * I);
  return V;
}

AgentAbi make(DataModel DM) {
  bool Is64 = DM == DataModel::LP64;
  auto Nr = [DM](const char *Name) { return *syscallNumber(DM, Name); };
  AgentAbi A{};
  A.DM = DM;
  A.AgentObject = Is64 ? ip::agentObject() : ip::agentObjectI386();
  A.NrClose = Nr("close");
  A.NrMprotect = Nr("mprotect");
  A.NrMunmap = Nr("munmap");
  A.NrRtSigaction = Nr("rt_sigaction");
  A.NrMadvise = Nr("madvise");
  A.NrSocket = Nr("socket");
  A.NrConnect = Nr("connect");
  A.NrRecvmsg = Nr("recvmsg");
  A.NrMmap = Nr(Is64 ? "mmap" : "mmap2");
  A.NrOpenat = Nr("openat");
  A.TextSection = Is64 ? TSCC_SEC_TEXT_LP64 : TSCC_SEC_TEXT_ILP32;
  A.TrampolineCallEnd =
      Is64 ? TSCC_TRAMPOLINE_CALL_END : TSCC_TRAMPOLINE_CALL_END_I386;
  A.TrampolineCopy = Is64 ? TSCC_TRAMPOLINE_COPY : TSCC_TRAMPOLINE_COPY_I386;
  return A;
}

unsigned wordSize(const AgentAbi &A) { return dataModelPointerSize(A.DM); }

} // namespace

const AgentAbi &tscc::rt::pt::agentAbi(DataModel DM) {
  static const AgentAbi Abis[2] = {make(DataModel::ILP32),
                                   make(DataModel::LP64)};
  return Abis[modelIndex(DM)];
}

std::array<uint8_t, 32> AgentAbi::sigaction(uint64_t Handler, uint64_t Flags,
                                            uint64_t Restorer) const {
  // {handler, flags, restorer} of unsigned longs, then the 8-byte mask.
  std::vector<uint8_t> V;
  unsigned W = wordSize(*this);
  putWord(V, Handler, W);
  putWord(V, Flags, W);
  putWord(V, Restorer, W);
  std::array<uint8_t, 32> Out{};
  std::memcpy(Out.data(), V.data(), V.size());
  return Out;
}

uint64_t AgentAbi::sigactionHandler(std::span<const uint8_t, 32> Act) const {
  return getWord(Act, 0, wordSize(*this));
}

std::vector<uint8_t> AgentAbi::iovec(uint64_t Base, uint64_t Len) const {
  std::vector<uint8_t> V;
  putWord(V, Base, wordSize(*this));
  putWord(V, Len, wordSize(*this));
  return V;
}

std::vector<uint8_t> AgentAbi::msghdr(uint64_t Iov, uint64_t Control,
                                      uint64_t ControlLen) const {
  // name, namelen (int, padded to a word), iov, iovlen, control,
  // controllen, flags (int, padded).
  unsigned W = wordSize(*this);
  std::vector<uint8_t> V;
  putWord(V, 0, W);
  putWord(V, 0, W);
  putWord(V, Iov, W);
  putWord(V, 1, W);
  putWord(V, Control, W);
  putWord(V, ControlLen, W);
  putWord(V, 0, W);
  return V;
}

namespace {
/// cmsghdr: len (a word), level, type (ints), padded to a word.
unsigned cmsgHeader(unsigned W) { return W == 8 ? 16 : 12; }
} // namespace

unsigned AgentAbi::controlSpaceForFds(unsigned N) const {
  // The header, then the fds padded to a word.
  unsigned W = wordSize(*this);
  return cmsgHeader(W) + (N * 4 + W - 1) / W * W;
}

bool AgentAbi::receivedFds(std::span<const uint8_t> Control, int *Fds,
                           unsigned N) const {
  unsigned W = wordSize(*this), H = cmsgHeader(W);
  if (Control.size() < controlSpaceForFds(N) ||
      getWord(Control, 0, W) != H + N * 4 ||
      getWord(Control, W, 4) != SOL_SOCKET ||
      getWord(Control, W + 4, 4) != SCM_RIGHTS)
    return false;
  for (unsigned I = 0; I < N; ++I)
    Fds[I] = static_cast<int>(getWord(Control, H + I * 4, 4));
  return true;
}

bool AgentAbi::providesForClauses(std::string_view Name) const {
  if (Name == "memcpy" || Name == "memset" || Name == "memmove")
    return true;
  // i386 code divides 64-bit integers through libgcc's routines.
  return DM == DataModel::ILP32 && (Name == "__divdi3" || Name == "__udivdi3" ||
                                    Name == "__moddi3" || Name == "__umoddi3");
}
