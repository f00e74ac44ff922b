//===- RemoteInject.h - System calls and code writes through a stub -------===//
//
// The in-process layer (InProcess/Installer/ProcessAccess.h) for an i386
// process behind a Linux user-mode stub (qemu-i386 -g). A system call is made
// the way a debugger would: the stopped thread's registers are set for it (eax
// the number, ebx, ecx, edx, esi, edi, ebp the arguments), its pc is pointed at
// an `int $0x80`, one step runs it, eax is the result and the registers go
// back. The first call steps an `int $0x80; ret` of the program's own code
// (qemu-i386 runs one more instruction after a stepped system call: the `ret`,
// harmless since every register is put back); it maps a page of ours with `int
// $0x80; nop...`, used from then on.
//
// qemu-i386 7.2's stub refuses to write into a page it has translated code
// from (it keeps such pages write-protected to see the program's own
// stores). Code is written as the program would: mprotect() makes its
// pages writable (qemu drops their translations), the stub writes, and
// mprotect() makes them read + execute again. Both are checked against the
// installed qemu by test/Remote/qemu-self-modifying-code.test.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_REMOTE_REMOTEINJECT_H
#define TSCC_RUNTIME_REMOTE_REMOTEINJECT_H

#include "../InProcess/Installer/ProcessAccess.h"

#include "tscc/Runtime/ElfFile.h"
#include "tscc/Runtime/RspClient.h"

#include <optional>

namespace tscc::rt::remote {

/// The address of an `int $0x80` followed by `ret` in File's executable
/// segments, loaded with Bias, or nullopt.
std::optional<uint64_t> findSyscallGadget(const ElfFile &File, uint64_t Bias);

/// Thread T of the i386 process behind C, stopped (all-stop: the stub
/// keeps the others stopped while T steps).
class RemoteAccess final : public ip::ProcessAccess {
public:
  /// Int80 is a gadget of the program's own (findSyscallGadget), whose
  /// bytes are checked in memory before the first step.
  RemoteAccess(RspClient &C, RspThreadId T, uint64_t Int80)
      : C(C), T(T), ProgramGadget(Int80) {}

  DataModel dataModel() const override { return DataModel::ILP32; }
  bool readMemory(uint64_t Addr, void *Dst, size_t Len) override {
    return C.readMemory(Addr, Dst, Len);
  }
  bool writeMemory(uint64_t Addr, const void *Src, size_t Len) override {
    return C.writeMemory(Addr, Src, Len);
  }
  bool writeCode(uint64_t Addr, const void *Src, size_t Len) override;
  bool syscall(uint64_t Nr, std::initializer_list<uint64_t> Args,
               uint64_t &Result, std::string &Why) override;

  /// Makes system calls in thread New from now on: qemu-user stops only
  /// the thread that trapped, and the others may be anywhere (inside a
  /// blocking system call of their own).
  void useThread(const RspThreadId &New) { T = New; }

  /// The page of ours that system calls are made from, once mapped (0
  /// before), and its size.
  uint64_t gadgetPage() const { return OwnGadget; }
  static constexpr uint64_t GadgetPageSize = 4096;

private:
  bool stepSyscall(uint64_t At, uint64_t Nr,
                   std::initializer_list<uint64_t> Args, uint64_t &Result,
                   std::string &Why);
  /// Maps and fills the page of ours (through the program's gadget).
  bool mapGadgetPage(std::string &Why);

  RspClient &C;
  RspThreadId T;
  uint64_t ProgramGadget;
  bool ProgramGadgetChecked = false;
  uint64_t OwnGadget = 0;
};

} // namespace tscc::rt::remote

#endif // TSCC_RUNTIME_REMOTE_REMOTEINJECT_H
