//===- Healer.cpp - A target that repairs itself if tsrun dies ------------===//
#include "Healer.h"

#include "Inject.h"

#include "tscc/SyscallTable.h"

#include <cerrno>
#include <cstring>
#include <set>
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
/// Healers run in 64-bit processes only (they heal agents).
constexpr uint64_t NrRtSigaction =
    syscallNumberOf(DataModel::LP64, "rt_sigaction");
} // namespace

namespace {

constexpr uint64_t HeaderPage = 4096;
constexpr uint64_t ReturnEntries = 4096;
constexpr uint64_t EntryBytes = 16;
constexpr uint64_t HeaderMapping = HeaderPage + ReturnEntries * EntryBytes;
constexpr int SigIll = 4;
static_assert(PtraceProcess::FaultOpcode == BREAK_OPCODE);
constexpr uint64_t SaSiginfo = 0x4, SaRestorer = 0x04000000,
                   SaOnstack = 0x08000000, SaRestart = 0x10000000;

struct KernelSigaction {
  uint64_t Handler, Flags, Restorer, Mask;
};

uint64_t blobOffset(const uint8_t *Sym) {
  return static_cast<uint64_t>(Sym - tscc_healer_blob_begin);
}

uint64_t handlerAddr(const PtraceProcess &P) {
  return P.Home + PtraceProcess::HealerOffset + blobOffset(tscc_healer_handler);
}

/// rt_sigaction(SIGILL, Act, Old, 8) inside the target.
bool targetSigaction(PtraceProcess &P, pid_t Tid, uint64_t Act, uint64_t Old,
                     std::string &Error) {
  uint64_t R = 0;
  if (!injectSyscall(P, Tid, NrRtSigaction, {SigIll, Act, Old, 8}, R, Error))
    return false;
  if (R != 0) {
    Error = std::string("rt_sigaction in the target failed: ") +
            std::strerror(static_cast<int>(-static_cast<int64_t>(R)));
    return false;
  }
  return true;
}

/// If Old -- the SIGILL disposition ours replaced -- is the handler of a
/// healer that a killed tsrun left in this process, puts the original
/// bytes back under every breakpoint it journalled and that is still in
/// the text, and marks it healed. The old healer stays chained behind ours:
/// threads may still return through its trampoline, and its journal is how
/// they find their way back. Returns how many bytes were put back.
unsigned healOrphan(PtraceProcess &P, const KernelSigaction &Old) {
  uint64_t HandlerAt = blobOffset(tscc_healer_handler);
  size_t BlobSize = blobOffset(tscc_healer_blob_end);
  if (Old.Handler < HandlerAt)
    return 0;
  std::vector<uint8_t> Theirs(BlobSize);
  // Ours and theirs differ only in the header pointer in front.
  if (!P.readMemory(Old.Handler - HandlerAt, Theirs.data(), BlobSize) ||
      std::memcmp(Theirs.data() + 8, tscc_healer_blob_begin + 8,
                  BlobSize - 8) != 0)
    return 0;
  uint64_t OldHeader;
  std::memcpy(&OldHeader, Theirs.data(), 8);
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
    if (P.read(Table[I], Byte) && Byte == BREAK_OPCODE &&
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
  if (P.dataModel() != DataModel::LP64 || !P.Home)
    return true;
  size_t BlobSize = blobOffset(tscc_healer_blob_end);
  static_assert(PtraceProcess::HomeSize - PtraceProcess::HealerOffset >= 512);
  if (PtraceProcess::HealerOffset + BlobSize > PtraceProcess::HomeSize) {
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
  KernelSigaction Ours{
      handlerAddr(P), SaSiginfo | SaRestorer | SaOnstack | SaRestart,
      P.Home + PtraceProcess::HealerOffset + blobOffset(tscc_healer_restorer),
      0};
  std::memcpy(Head + HDR_NEWACT, &Ours, sizeof(Ours));
  // The blob with its header pointer filled in, then the header; only then
  // is the handler installed, saving the old disposition into the header.
  std::vector<uint8_t> Blob(tscc_healer_blob_begin, tscc_healer_blob_end);
  std::memcpy(Blob.data(), &Header, 8);
  if (!P.writeMemory(P.Home + PtraceProcess::HealerOffset, Blob.data(),
                     Blob.size()) ||
      !P.writeMemory(Header, Head, sizeof(Head))) {
    Error = "cannot write the healer into the target";
    return false;
  }
  if (!targetSigaction(P, Tid, Header + HDR_NEWACT, Header + HDR_OLDACT, Error))
    return false;
  P.Heal.Header = Header;
  KernelSigaction Old{};
  if (P.read(Header + HDR_OLDACT, Old))
    Repaired = healOrphan(P, Old);
  return true;
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
  // The journal entry and the slot in one call, entry first.
  uint64_t Entry[2] = {Slot, Ret};
  iovec Local[2] = {{Entry, sizeof(Entry)}, {&Tramp, 8}};
  iovec Remote[2] = {
      {reinterpret_cast<void *>(H.Header + HeaderPage + Index * EntryBytes),
       sizeof(Entry)},
      {reinterpret_cast<void *>(Slot), 8}};
  if (process_vm_writev(P.Pid, Local, 2, Remote, 2, 0) ==
      static_cast<ssize_t>(sizeof(Entry) + 8))
    return true;
  return P.writeMemory(H.Header + HeaderPage + Index * EntryBytes, Entry,
                       sizeof(Entry)) &&
         P.writeMemory(Slot, &Tramp, 8);
}

bool tscc::rt::pt::reinstallHealer(PtraceProcess &P, pid_t Tid,
                                   std::string &Error) {
  if (!P.Heal.Header)
    return true;
  KernelSigaction Cur{};
  uint64_t Header = P.Heal.Header;
  // Read first: a call that left ours in place must not make the healer
  // chain to itself.
  if (!targetSigaction(P, Tid, 0, Header + HDR_CURACT, Error) ||
      !P.read(Header + HDR_CURACT, Cur))
    return false;
  if (Cur.Handler == handlerAddr(P))
    return true;
  return targetSigaction(P, Tid, Header + HDR_NEWACT, Header + HDR_OLDACT,
                         Error);
}

std::string tscc::rt::pt::uninstallHealer(PtraceProcess &P, pid_t Tid,
                                          bool SharedLater) {
  if (!P.Heal.Header)
    return {};
  std::string Error;
  uint64_t Header = P.Heal.Header;
  // Nothing left to heal, whatever happens next.
  uint64_t Healed = 1;
  P.writeMemory(Header + HDR_HEALED, &Healed, 8);
  std::string Kept;
  if (targetSigaction(P, Tid, Header + HDR_OLDACT, Header + HDR_CURACT,
                      Error)) {
    // The program replaced our handler after we installed it: keep its.
    KernelSigaction Cur{};
    if (P.read(Header + HDR_CURACT, Cur) && Cur.Handler != handlerAddr(P))
      targetSigaction(P, Tid, Header + HDR_CURACT, 0, Error);
    // Nothing refers to the journal any more, unless the sandbox forbids
    // unmapping it: then it stays, unused.
    SyscallVerdict V =
        injectionVerdict(P, Tid, syscallNumberOf(DataModel::LP64, "munmap"),
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
    Kept =
        "SIGILL keeps tsrun's handler, which only passes signals on: " + Error;
  }
  P.Heal = HealState{};
  return Kept;
}
