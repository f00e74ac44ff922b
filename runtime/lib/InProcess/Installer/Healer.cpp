//===- Healer.cpp - A target that repairs itself if tsrun dies ------------===//
#include "Healer.h"

#include "../../Ptrace/Inject.h"
#include "Agent.h"

#include "tscc/SyscallTable.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <set>
#include <span>
#include <sys/mman.h>
#include <sys/uio.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

// Layout of the journal header, shared by the handler's assembly below and
// the tracer. The return journal follows the header page.
#define HDR_TRAMP 0       /* u64: the return trampoline */
#define HDR_OLDACT 8      /* struct kernel_sigaction (32 bytes): before us */
#define HDR_BREAKS 40     /* u64: breakpoint table, {addr, orig byte} x N */
#define HDR_NBREAK 48     /* u64: its entries */
#define HDR_RETS 56       /* u64: return journal, {slot, return addr} x N */
#define HDR_NRET 64       /* u64: its entries (slot 0 = free) */
#define HDR_MEMPATH 72    /* "/proc/self/mem" */
#define HDR_NEWACT 96     /* scratch: our sigaction, for installation */
#define HDR_CURACT 128    /* scratch: the disposition found at uninstall */
#define HDR_HEALED 160    /* u64: set once the original bytes are back */
#define BREAK_OPCODE 0x06 /* PtraceProcess::FaultOpcode */
#define STR2(X) #X
#define STR(X) STR2(X)

// The SIGILL handler: void handler(int sig, siginfo_t *info, ucontext_t *uc).
// It is copied into the target, so it must be position independent and
// self-contained: raw syscalls, no stack protector, no relocations. It
// reaches the header through the pointer in front of it, which the tracer
// fills in. x86-64 ucontext: gregs at 40, REG_RSP = 15, REG_RIP = 16.
asm(R"(
  .pushsection .rodata.tscc_healer,"a",@progbits
  .balign 16
  .globl tscc_healer_blob_begin
  .hidden tscc_healer_blob_begin
tscc_healer_blob_begin:
tscc_healer_header_ptr:
  .quad 0
  .quad 0
  .globl tscc_healer_handler
  .hidden tscc_healer_handler
tscc_healer_handler:
  push %rbx
  push %rbp
  push %r12
  push %r13
  push %r14
  push %r15
  sub $24, %rsp
  mov %rdi, %r12
  mov %rsi, %r13
  mov %rdx, %r14
  mov tscc_healer_header_ptr(%rip), %r15
  cmpl $2, 8(%r13)                  # si_code == ILL_ILLOPN: a #UD fault
  jne .Lchain
  mov 168(%r14), %rax               # the faulting instruction
  cmp )" STR(HDR_TRAMP) R"((%r15), %rax
  jne .Lbreakpoint
  mov 160(%r14), %rcx               # the return popped its slot
  sub $8, %rcx
  mov )" STR(HDR_RETS) R"((%r15), %rsi
  mov )" STR(HDR_NRET) R"((%r15), %rdx
.Lretloop:
  test %rdx, %rdx
  jz .Lchain
  cmp (%rsi), %rcx
  je .Lretfound
  add $16, %rsi
  dec %rdx
  jmp .Lretloop
.Lretfound:
  mov 8(%rsi), %rax
  mov %rax, 168(%r14)               # continue at the real return address
  movq $0, (%rsi)
  jmp .Lheal
.Lbreakpoint:
  mov )" STR(HDR_BREAKS) R"((%r15), %rsi
  mov )" STR(HDR_NBREAK) R"((%r15), %rdx
.Lbploop:
  test %rdx, %rdx
  jz .Lchain
  cmp (%rsi), %rax
  je .Lbpfound
  add $16, %rsi
  dec %rdx
  jmp .Lbploop
.Lbpfound:                          # rip stays: the original runs again
.Lheal:
  # Once is enough; the tables stay for threads still on their way
  # back through the trampoline.
  cmpq $0, )" STR(HDR_HEALED) R"((%r15)
  jne .Lret
  lea )" STR(HDR_MEMPATH) R"((%r15), %rdi
  mov $2, %esi                      # O_RDWR
  xor %edx, %edx
  mov $2, %eax                      # open
  syscall
  mov %rax, %rbx
  mov )" STR(HDR_BREAKS) R"((%r15), %rbp
  mov )" STR(HDR_NBREAK) R"((%r15), %r12
.Lhealloop:
  test %r12, %r12
  jz .Lhealdone
  test %rbx, %rbx
  js .Lprotect
  mov %rbx, %rdi
  mov %rsp, %rsi
  mov $1, %edx
  mov (%rbp), %r10
  mov $17, %eax                     # pread64: is our breakpoint there?
  syscall
  cmp $1, %rax
  jne .Lnext
  cmpb $)" STR(BREAK_OPCODE) R"(, (%rsp)
  jne .Lnext
  mov %rbx, %rdi
  lea 8(%rbp), %rsi
  mov $1, %edx
  mov (%rbp), %r10
  mov $18, %eax                     # pwrite64 the original byte
  syscall
  cmp $1, %rax
  je .Lnext
.Lprotect:                          # no forced /proc/self/mem writes
  mov (%rbp), %rdi
  and $-4096, %rdi
  mov $4096, %esi
  mov $7, %edx                      # PROT_READ | PROT_WRITE | PROT_EXEC
  mov $10, %eax                     # mprotect
  syscall
  test %rax, %rax
  jnz .Lnext
  mov (%rbp), %rdi
  cmpb $)" STR(BREAK_OPCODE) R"(, (%rdi)
  jne .Lreprotect
  movzbl 8(%rbp), %eax
  mov %al, (%rdi)
.Lreprotect:
  mov (%rbp), %rdi
  and $-4096, %rdi
  mov $4096, %esi
  mov $5, %edx                      # PROT_READ | PROT_EXEC
  mov $10, %eax
  syscall
.Lnext:
  add $16, %rbp
  dec %r12
  jmp .Lhealloop
.Lhealdone:
  movq $1, )" STR(HDR_HEALED) R"((%r15)
  test %rbx, %rbx
  js .Lret
  mov %rbx, %rdi
  mov $3, %eax                      # close
  syscall
  jmp .Lret
.Lchain:                            # not ours: what was there before us
  mov )" STR(HDR_OLDACT) R"((%r15), %rax
  cmp $1, %rax                      # SIG_IGN
  je .Lret
  test %rax, %rax
  jnz .Ltail
  mov $4, %edi                      # SIG_DFL: put it back, raise again
  lea )" STR(HDR_OLDACT) R"((%r15), %rsi
  xor %edx, %edx
  mov $8, %r10d
  mov $13, %eax                     # rt_sigaction
  syscall
  mov $39, %eax                     # getpid
  syscall
  mov %rax, %rbx
  mov $186, %eax                    # gettid
  syscall
  mov %rbx, %rdi
  mov %rax, %rsi
  mov $4, %edx
  mov $234, %eax                    # tgkill
  syscall
  jmp .Lret
.Ltail:                             # the program's own handler
  mov %rax, %r11
  mov %r12, %rdi
  mov %r13, %rsi
  mov %r14, %rdx
  add $24, %rsp
  pop %r15
  pop %r14
  pop %r13
  pop %r12
  pop %rbp
  pop %rbx
  jmp *%r11
.Lret:
  add $24, %rsp
  pop %r15
  pop %r14
  pop %r13
  pop %r12
  pop %rbp
  pop %rbx
  ret
  .globl tscc_healer_restorer
  .hidden tscc_healer_restorer
tscc_healer_restorer:
  mov $15, %eax                     # rt_sigreturn
  syscall
  hlt
  .globl tscc_healer_blob_end
  .hidden tscc_healer_blob_end
tscc_healer_blob_end:
  .popsection
)");

extern "C" const uint8_t tscc_healer_blob_begin[], tscc_healer_handler[],
    tscc_healer_restorer[], tscc_healer_blob_end[];

namespace {

constexpr uint64_t HeaderPage = 4096;
constexpr uint64_t ReturnEntries = 4096;
constexpr uint64_t EntryBytes = 16;
constexpr uint64_t HeaderMapping = HeaderPage + ReturnEntries * EntryBytes;
static_assert(PtraceProcess::FaultOpcode == BREAK_OPCODE);
constexpr uint64_t SaSiginfo = 0x4, SaRestorer = 0x04000000,
                   SaOnstack = 0x08000000, SaRestart = 0x10000000;

/// What differs between the healers of x86-64 and of i386 processes.
struct HealerCode {
  std::span<const uint8_t> Blob; ///< starts with the header pointer
  uint64_t HandlerOffset = 0, RestorerOffset = 0;
  unsigned PointerSize = 8; ///< of the process, and of the header pointer
  int Signal = 0;           ///< what its breakpoints raise
  uint8_t Opcode = 0;       ///< its breakpoint byte
  uint64_t NrRtSigaction = 0;
};

HealerCode healerCode(const PtraceProcess &P) {
  HealerCode C;
  C.Signal = P.faultSignal();
  C.Opcode = P.faultOpcode();
  if (P.dataModel() == DataModel::LP64) {
    C.Blob = {tscc_healer_blob_begin, tscc_healer_blob_end};
    C.HandlerOffset = tscc_healer_handler - tscc_healer_blob_begin;
    C.RestorerOffset = tscc_healer_restorer - tscc_healer_blob_begin;
    C.NrRtSigaction = syscallNumberOf(DataModel::LP64, "rt_sigaction");
    return C;
  }
  C.Blob = healerBlobI386();
  C.PointerSize = 4;
  // runtime/lib/InProcess/Agent/i386/healer.S: the header pointer, then the
  // offsets of its handler and restorer and its size.
  uint32_t Table[4] = {};
  if (C.Blob.size() >= sizeof(Table))
    std::memcpy(Table, C.Blob.data(), sizeof(Table));
  if (Table[3] != C.Blob.size() || Table[1] >= Table[3] || Table[2] >= Table[3])
    return HealerCode{}; // a build problem; no healer then
  C.HandlerOffset = Table[1];
  C.RestorerOffset = Table[2];
  C.NrRtSigaction = syscallNumberOf(DataModel::ILP32, "rt_sigaction");
  return C;
}

uint64_t handlerAddr(const PtraceProcess &P, const HealerCode &C) {
  return P.Home + PtraceProcess::HealerOffset + C.HandlerOffset;
}

/// The kernel's struct sigaction of rt_sigaction() for the process's
/// model: {handler, flags, restorer, mask} of unsigned longs, the mask
/// 8 bytes in both.
std::vector<uint8_t> encodeSigaction(const HealerCode &C, uint64_t Handler,
                                     uint64_t Flags, uint64_t Restorer) {
  std::vector<uint8_t> Out(3 * C.PointerSize + 8, 0);
  uint64_t Words[3] = {Handler, Flags, Restorer};
  for (unsigned I = 0; I < 3; ++I)
    std::memcpy(Out.data() + I * C.PointerSize, &Words[I], C.PointerSize);
  return Out;
}

/// The handler of the struct sigaction at Addr (0 if unreadable).
uint64_t sigactionHandler(PtraceProcess &P, uint64_t Addr) {
  bool Ok = false;
  uint64_t H = P.readPointer(Addr, Ok);
  return Ok ? H : 0;
}

/// rt_sigaction(Signal, Act, Old, 8) inside the target.
bool targetSigaction(PtraceProcess &P, const HealerCode &C, pid_t Tid,
                     uint64_t Act, uint64_t Old, std::string &Error) {
  uint64_t R = 0;
  if (!injectSyscall(P, Tid, C.NrRtSigaction,
                     {static_cast<uint64_t>(C.Signal), Act, Old, 8}, R, Error))
    return false;
  if (R != 0) {
    Error = std::string("rt_sigaction in the target failed: ") +
            std::strerror(static_cast<int>(-static_cast<int64_t>(R)));
    return false;
  }
  return true;
}

/// Whether a copy of our healer's code (with its own header pointer) has
/// its handler at Handler.
bool isHealerAt(PtraceProcess &P, const HealerCode &C, uint64_t Handler) {
  size_t BlobSize = C.Blob.size();
  unsigned Ptr = C.PointerSize;
  if (Handler < C.HandlerOffset || BlobSize <= Ptr)
    return false;
  std::vector<uint8_t> Theirs(BlobSize);
  return P.readMemory(Handler - C.HandlerOffset, Theirs.data(), BlobSize) &&
         std::memcmp(Theirs.data() + Ptr, C.Blob.data() + Ptr,
                     BlobSize - Ptr) == 0;
}

/// The handler of a healer a killed tsrun left, from the disposition ours
/// replaced: in a 32-bit process the agent's SIGSEGV handler is in front
/// of the healer's (both handle SIGSEGV there), so a killed tsrun's healer
/// is found behind its agent.
uint64_t orphanHealerHandler(PtraceProcess &P, const HealerCode &C,
                             uint64_t Handler) {
  for (unsigned Hops = 0; Hops < 4 && Handler > 1; ++Hops) {
    if (isHealerAt(P, C, Handler))
      return Handler;
    std::optional<uint64_t> Behind = orphanAgentChainedSegv(P, Handler);
    if (!Behind)
      break;
    Handler = *Behind;
  }
  return Handler;
}

/// If OldHandler -- the disposition ours replaced -- is the handler of a
/// healer that a killed tsrun left in this process, puts the original
/// bytes back under every breakpoint it journalled and that is still in
/// the text, and marks it healed. The old healer stays chained behind ours:
/// threads may still return through its trampoline, and its journal is how
/// they find their way back. Returns how many bytes were put back.
unsigned healOrphan(PtraceProcess &P, const HealerCode &C,
                    uint64_t OldHandler) {
  uint64_t HandlerAt = C.HandlerOffset;
  size_t BlobSize = C.Blob.size();
  unsigned Ptr = C.PointerSize;
  if (OldHandler < HandlerAt)
    return 0;
  std::vector<uint8_t> Theirs(BlobSize);
  // Ours and theirs differ only in the header pointer in front.
  if (!P.readMemory(OldHandler - HandlerAt, Theirs.data(), BlobSize) ||
      std::memcmp(Theirs.data() + Ptr, C.Blob.data() + Ptr, BlobSize - Ptr) !=
          0)
    return 0;
  uint64_t OldHeader = 0;
  std::memcpy(&OldHeader, Theirs.data(), Ptr);
  uint64_t Ref[2], Healed = 0;
  if (!P.read(OldHeader + HDR_BREAKS, Ref) ||
      !P.read(OldHeader + HDR_HEALED, Healed) || Healed || Ref[1] > (1u << 24))
    return 0;
  std::vector<uint64_t> Table(Ref[1] * 2);
  if (!Table.empty() &&
      !P.readMemory(Ref[0], Table.data(), Table.size() * sizeof(uint64_t)))
    return 0;
  unsigned Restored = 0;
  for (size_t I = 0; I < Table.size(); I += 2) {
    uint8_t Byte = 0, Orig = static_cast<uint8_t>(Table[I + 1]);
    if (P.read(Table[I], Byte) && Byte == C.Opcode &&
        P.writeMemory(Table[I], &Orig, 1))
      ++Restored;
  }
  Healed = 1;
  P.writeMemory(OldHeader + HDR_HEALED, &Healed, 8);
  return Restored;
}

} // namespace

bool tscc::rt::pt::installHealer(PtraceProcess &P, pid_t Tid,
                                 std::string &Error, unsigned &Repaired) {
  Repaired = 0;
  P.Heal = HealState{};
  if (!P.Home)
    return true;
  HealerCode C = healerCode(P);
  size_t BlobSize = C.Blob.size();
  static_assert(PtraceProcess::HomeSize - PtraceProcess::HealerOffset >= 512);
  if (!BlobSize ||
      PtraceProcess::HealerOffset + BlobSize > PtraceProcess::HomeSize) {
    Error = "the healer does not fit the home page";
    return false;
  }
  uint64_t Header =
      mapAnywhere(P, Tid, HeaderMapping, PROT_READ | PROT_WRITE, Error);
  if (!Header)
    return false;
  uint8_t Head[HDR_HEALED + 8] = {};
  uint64_t Tramp = P.returnTrampoline();
  uint64_t Rets = Header + HeaderPage;
  uint64_t NRet = ReturnEntries;
  std::memcpy(Head + HDR_TRAMP, &Tramp, 8);
  std::memcpy(Head + HDR_RETS, &Rets, 8);
  std::memcpy(Head + HDR_NRET, &NRet, 8);
  std::memcpy(Head + HDR_MEMPATH, "/proc/self/mem", 15);
  uint64_t Blob = P.Home + PtraceProcess::HealerOffset;
  std::vector<uint8_t> Ours = encodeSigaction(
      C, Blob + C.HandlerOffset, SaSiginfo | SaRestorer | SaOnstack | SaRestart,
      Blob + C.RestorerOffset);
  static_assert(HDR_CURACT - HDR_NEWACT >= 32);
  std::memcpy(Head + HDR_NEWACT, Ours.data(), Ours.size());
  // The blob with its header pointer filled in, then the header; only then
  // is the handler installed, saving the old disposition into the header.
  std::vector<uint8_t> Code(C.Blob.begin(), C.Blob.end());
  std::memcpy(Code.data(), &Header, C.PointerSize);
  if (!P.writeMemory(Blob, Code.data(), Code.size()) ||
      !P.writeMemory(Header, Head, sizeof(Head))) {
    Error = "cannot write the healer into the target";
    return false;
  }
  if (!targetSigaction(P, C, Tid, Header + HDR_NEWACT, Header + HDR_OLDACT,
                       Error))
    return false;
  P.Heal.Header = Header;
  if (uint64_t Old = sigactionHandler(P, Header + HDR_OLDACT))
    Repaired = healOrphan(P, C, orphanHealerHandler(P, C, Old));
  return true;
}

std::optional<uint64_t> tscc::rt::pt::healerReplacedHandler(PtraceProcess &P,
                                                            uint64_t Handler) {
  if (!P.Heal.Header || Handler != handlerAddr(P, healerCode(P)))
    return std::nullopt;
  return sigactionHandler(P, P.Heal.Header + HDR_OLDACT);
}

bool tscc::rt::pt::syncHealerBreakpoints(
    PtraceProcess &P, pid_t Tid, const std::vector<const Breakpoint *> &Pending,
    std::string &Error) {
  if (!P.Heal.Header)
    return true;
  std::vector<uint64_t> Table;
  auto Add = [&](const Breakpoint &Bp) {
    if (!Bp.Addr)
      return;
    Table.push_back(Bp.Addr);
    Table.push_back(Bp.Orig[0]);
  };
  for (const auto &[Addr, Bp] : P.Breakpoints)
    Add(Bp);
  for (const Breakpoint *Bp : Pending)
    Add(*Bp);
  uint64_t Bytes = Table.size() * sizeof(uint64_t);
  uint64_t Where = P.Heal.Breaks;
  uint64_t Old = 0, OldBytes = 0;
  if (Bytes > P.Heal.BreaksBytes) {
    // Grow by doubling so that loading many libraries stays linear.
    uint64_t Want = std::max<uint64_t>(4096, P.Heal.BreaksBytes * 2);
    while (Want < Bytes)
      Want *= 2;
    Where = mapAnywhere(P, Tid, Want, PROT_READ | PROT_WRITE, Error);
    if (!Where)
      return false;
    Old = P.Heal.Breaks;
    OldBytes = P.Heal.BreaksBytes;
    P.Heal.Breaks = Where;
    P.Heal.BreaksBytes = Want;
  }
  // Entries first, then {table, count} in one write: the handler never
  // sees a count that covers unwritten entries.
  if (Bytes && !P.writeMemory(Where, Table.data(), Bytes)) {
    Error = "cannot write the healer's breakpoint table";
    return false;
  }
  uint64_t Ref[2] = {Where, Table.size() / 2};
  if (!P.writeMemory(P.Heal.Header + HDR_BREAKS, Ref, sizeof(Ref))) {
    Error = "cannot write the healer's header";
    return false;
  }
  if (Old)
    unmapInTarget(P, Tid, Old, OldBytes);
  return true;
}

bool tscc::rt::pt::hijackSlot(PtraceProcess &P, uint64_t Slot, uint64_t Ret,
                              std::string &Warning) {
  uint64_t Tramp = P.returnTrampoline();
  HealState &H = P.Heal;
  if (!H.Header)
    return P.writeMemory(Slot, &Tramp, P.pointerSize());
  uint32_t Index = 0;
  bool Have = false;
  if (auto It = H.ReturnEntry.find(Slot); It != H.ReturnEntry.end()) {
    Index = It->second;
    Have = true;
  } else if (H.ReturnUsed < ReturnEntries) {
    Index = H.ReturnUsed++;
    Have = true;
  } else {
    // Full: take over the entry of a slot no live frame uses any more
    // (frames a longjmp skipped, threads that ended).
    std::set<uint64_t> Live;
    for (const auto &[Tid, T] : P.Threads)
      for (const ShadowFrame &F : T.Shadow)
        Live.insert(F.SlotAddr);
    for (auto It = H.ReturnEntry.begin(); It != H.ReturnEntry.end(); ++It) {
      if (Live.count(It->first))
        continue;
      Index = It->second;
      H.ReturnEntry.erase(It);
      Have = true;
      break;
    }
  }
  if (!Have) {
    Warning = "more than " + std::to_string(ReturnEntries) +
              " exit probes pending in pid " + std::to_string(P.Pid) +
              "; if tsrun dies now, those functions cannot return";
    return P.writeMemory(Slot, &Tramp, P.pointerSize());
  }
  H.ReturnEntry[Slot] = Index;
  // The journal entry and the slot in one call, entry first. The slot is
  // a pointer of the process (4 bytes in a 32-bit one: the next 4 are the
  // caller's).
  uint64_t Entry[2] = {Slot, Ret};
  unsigned Ptr = P.pointerSize();
  iovec Local[2] = {{Entry, sizeof(Entry)}, {&Tramp, Ptr}};
  iovec Remote[2] = {
      {reinterpret_cast<void *>(H.Header + HeaderPage + Index * EntryBytes),
       sizeof(Entry)},
      {reinterpret_cast<void *>(Slot), Ptr}};
  if (process_vm_writev(P.Pid, Local, 2, Remote, 2, 0) ==
      static_cast<ssize_t>(sizeof(Entry) + Ptr))
    return true;
  return P.writeMemory(H.Header + HeaderPage + Index * EntryBytes, Entry,
                       sizeof(Entry)) &&
         P.writeMemory(Slot, &Tramp, Ptr);
}

bool tscc::rt::pt::reinstallHealer(PtraceProcess &P, pid_t Tid,
                                   std::string &Error) {
  if (!P.Heal.Header)
    return true;
  HealerCode C = healerCode(P);
  uint64_t Header = P.Heal.Header;
  // Read first: a call that left ours in place must not make the healer
  // chain to itself.
  if (!targetSigaction(P, C, Tid, 0, Header + HDR_CURACT, Error))
    return false;
  bool Ok = false;
  uint64_t Cur = P.readPointer(Header + HDR_CURACT, Ok);
  if (!Ok)
    return false;
  if (Cur == handlerAddr(P, C))
    return true;
  return targetSigaction(P, C, Tid, Header + HDR_NEWACT, Header + HDR_OLDACT,
                         Error);
}

std::string tscc::rt::pt::uninstallHealer(PtraceProcess &P, pid_t Tid,
                                          bool SharedLater) {
  if (!P.Heal.Header)
    return {};
  std::string Error;
  HealerCode C = healerCode(P);
  uint64_t Header = P.Heal.Header;
  // Nothing left to heal, whatever happens next.
  uint64_t Healed = 1;
  P.writeMemory(Header + HDR_HEALED, &Healed, 8);
  std::string Kept;
  if (targetSigaction(P, C, Tid, Header + HDR_OLDACT, Header + HDR_CURACT,
                      Error)) {
    // The program replaced our handler after we installed it: keep its.
    bool Ok = false;
    uint64_t Cur = P.readPointer(Header + HDR_CURACT, Ok);
    if (Ok && Cur != handlerAddr(P, C))
      targetSigaction(P, C, Tid, Header + HDR_CURACT, 0, Error);
    // Nothing refers to the journal any more, unless the sandbox forbids
    // unmapping it: then it stays, unused.
    SyscallVerdict V = injectionVerdict(P, Tid, munmapNumber(P.dataModel()),
                                        {Header, HeaderMapping});
    if (SharedLater) {
      // Unmapped with the last of them.
    } else if (V.Kind == SyscallVerdict::Runs) {
      unmapInTarget(P, Tid, Header, HeaderMapping);
      if (P.Heal.Breaks)
        unmapInTarget(P, Tid, P.Heal.Breaks, P.Heal.BreaksBytes);
    } else {
      Kept = "the healer's journal stays mapped: " + V.Why;
    }
  } else {
    Kept = "its breakpoint signal keeps tsrun's handler, which only passes "
           "signals on: " +
           Error;
  }
  P.Heal = HealState{};
  return Kept;
}
