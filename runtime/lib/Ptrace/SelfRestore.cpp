//===- SelfRestore.cpp - Injected calls that survive tsrun's death --------===//
#include "SelfRestore.h"
#include "Inject.h"
#include "KillPoint.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <vector>

using namespace tscc::rt;
using namespace tscc::rt::pt;

namespace {

/// The journal's slots, in its order; 8 bytes each in a 64-bit process, 4
/// in a 32-bit one. StackBelow is where the flags are pushed from: below
/// the red zone of a 64-bit thread's stack.
enum Slot : unsigned {
  Rax,
  Rbx,
  Rcx,
  Rdx,
  Rsi,
  Rdi,
  Rbp,
  R8,
  R9,
  R10,
  R11,
  R12,
  R13,
  R14,
  R15,
  StackBelow,
  Rsp,
  Rip,
  Flags,
  SlotCount
};

/// ModRM register numbers, as the instruction set counts them.
constexpr uint8_t regNumber(Slot S) {
  constexpr uint8_t Numbers[] = {0, 3,  1,  2,  6,  7,  5, 8,
                                 9, 10, 11, 12, 13, 14, 15};
  return Numbers[S];
}

class Emitter {
public:
  Emitter(uint8_t *Page, uint64_t Home, uint64_t At, bool Is64)
      : Page(Page), Home(Home), At(At), Is64(Is64) {}

  /// `mov reg, [slot]`
  void load(uint8_t Reg, Slot S) {
    if (Is64)
      byte(Reg >= 8 ? 0x4c : 0x48);
    byte(0x8b);
    memoryOperand(Reg & 7, S);
  }
  /// `push [slot]` (ff /6) and `jmp [slot]` (ff /4)
  void push(Slot S) { byte(0xff), memoryOperand(6, S); }
  void jump(Slot S) { byte(0xff), memoryOperand(4, S); }
  void popFlags() { byte(0x9d); }
  uint64_t end() const { return At; }

private:
  void byte(uint8_t B) { Page[At++] = B; }
  /// [rip + disp32] in 64-bit code, [abs32] in 32-bit code: mod 00, r/m 101.
  void memoryOperand(uint8_t Reg, Slot S) {
    byte(static_cast<uint8_t>(Reg << 3 | 5));
    uint64_t Target = Home + RestoreJournalOffset + S * (Is64 ? 8 : 4);
    uint32_t Field = Is64 ? static_cast<uint32_t>(Target - (Home + At + 4))
                          : static_cast<uint32_t>(Target);
    std::memcpy(Page + At, &Field, 4);
    At += 4;
  }

  uint8_t *Page;
  uint64_t Home, At;
  bool Is64;
};

} // namespace

void tscc::rt::pt::restartAsKernelWould(user_regs_struct &R, bool Is64) {
  auto Orig = static_cast<int64_t>(R.orig_rax);
  int64_t Ret = Is64 ? static_cast<int64_t>(R.rax)
                     : static_cast<int32_t>(static_cast<uint32_t>(R.rax));
  if (!Is64)
    Orig = static_cast<int32_t>(static_cast<uint32_t>(R.orig_rax));
  if (Orig < 0 || Ret > -512 || Ret < -516 || Ret == -515)
    return;
  R.rip -= 2; // `syscall` and `int $0x80` alike
  R.rax = Ret == -516 ? (Is64 ? 219 : 0) : R.orig_rax;
}

static_assert(RestoreJournalOffset + SlotCount * 8 <= HomeReservedBytes);
static_assert(HomeReservedBytes <= PtraceProcess::FarStubLimit);

void tscc::rt::pt::writeRestoringGadget(uint8_t *Page, uint64_t Home,
                                        bool Is64) {
  uint64_t At = RestoringGadgetOffset;
  Page[At++] = Is64 ? 0x0f : 0xcd;
  Page[At++] = Is64 ? 0x05 : 0x80;
  Emitter E(Page, Home, At, Is64);
  E.load(4, Is64 ? StackBelow : Rsp); // a stack to pop the flags from
  E.push(Flags);
  E.popFlags(); // from here on, only instructions that keep the flags
  for (unsigned S = Rax; S <= (Is64 ? R15 : Rbp); ++S)
    E.load(regNumber(static_cast<Slot>(S)), static_cast<Slot>(S));
  E.load(4, Rsp);
  E.jump(Rip);
}

bool tscc::rt::pt::journalRegisters(PtraceProcess &P,
                                    const user_regs_struct &Restore) {
  bool Is64 = P.dataModel() == DataModel::LP64;
  const user_regs_struct &R = Restore;
  uint64_t V[SlotCount] = {R.rax,       R.rbx, R.rcx, R.rdx,   R.rsi,
                           R.rdi,       R.rbp, R.r8,  R.r9,    R.r10,
                           R.r11,       R.r12, R.r13, R.r14,   R.r15,
                           R.rsp - 128, R.rsp, R.rip, R.eflags};
  uint8_t Journal[SlotCount * 8];
  unsigned Size = Is64 ? 8 : 4;
  for (unsigned S = 0; S < SlotCount; ++S)
    std::memcpy(Journal + S * Size, &V[S], Size); // little-endian low half
  return P.writeMemory(P.Home + RestoreJournalOffset, Journal,
                       SlotCount * Size);
}

bool tscc::rt::pt::runToSyscallExit(PtraceProcess &P, pid_t Tid,
                                    std::string &Error) {
  Thread *T = nullptr;
  if (auto It = P.Threads.find(Tid); It != P.Threads.end())
    T = &It->second;
  uint64_t After = P.Home + RestoringGadgetOffset + 2;
  killpoint::injection("set");
  for (;;) {
    if (ptrace(PTRACE_SYSCALL, Tid, nullptr, nullptr) != 0) {
      Error = std::string("ptrace(SYSCALL): ") + std::strerror(errno);
      return false;
    }
    int St = 0;
    pid_t R;
    while ((R = waitpid(Tid, &St, __WALL)) < 0 && errno == EINTR)
      ;
    if (R < 0) {
      Error = std::string("waitpid: ") + std::strerror(errno);
      return false;
    }
    if (endedDuringInjection(P, Tid, St, Error))
      return false;
    if (!WIFSTOPPED(St))
      continue;
    int Sig = WSTOPSIG(St);
    unsigned Event = static_cast<unsigned>(St) >> 16;
    if (Event == 0 && (Sig == SIGTRAP || Sig == (SIGTRAP | 0x80))) {
      __ptrace_syscall_info Info{};
      if (ptrace(PTRACE_GET_SYSCALL_INFO, Tid,
                 reinterpret_cast<void *>(sizeof(Info)), &Info) > 0 &&
          Info.instruction_pointer == After) {
        if (Info.op == PTRACE_SYSCALL_INFO_ENTRY)
          killpoint::injection("entry");
        if (Info.op == PTRACE_SYSCALL_INFO_EXIT) {
          killpoint::injection("exit");
          return true;
        }
      }
    } else if (Event == 0 && T && !T->PendingSignal) {
      T->PendingSignal = Sig; // a signal-delivery-stop: deliver later
    }
    // Seccomp and group stops, the exit of a call the thread was stopped
    // in, other signals: keep going.
  }
}
