//===- ProcessAccess.h - What putting code into a process needs (private) -===//
//
// The in-process agent is put into a process the same way whatever
// controls it: memory is written, and the process is made to run system
// calls (mmap, mprotect, open, sigaction...) one at a time while it is
// stopped. ptrace does that for a native process (Ptrace/Inject.h), the
// GDB remote protocol for a process behind a stub (Remote/RemoteInject.h:
// registers set, `int $0x80` single-stepped). What the agent's
// installation is built from (mapping memory, placing a relocated image,
// mapping a descriptor of tsrun's) is written once, against this.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_INPROCESS_PROCESSACCESS_H
#define TSCC_RUNTIME_INPROCESS_PROCESSACCESS_H

#include "../../Loader/LoadedImage.h"

#include "tscc/DataModel.h"

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>

namespace tscc::rt::ip {

/// A stopped process whose memory can be read and written, and which can
/// be made to run a system call.
class ProcessAccess {
public:
  virtual ~ProcessAccess() = default;
  virtual DataModel dataModel() const = 0;
  virtual bool readMemory(uint64_t Addr, void *Dst, size_t Len) = 0;
  virtual bool writeMemory(uint64_t Addr, const void *Src, size_t Len) = 0;
  /// Writes the program's code (a probe site's jump, its original bytes):
  /// its pages are read + execute, and an emulator must drop what it
  /// translated from them.
  virtual bool writeCode(uint64_t Addr, const void *Src, size_t Len) {
    return writeMemory(Addr, Src, Len);
  }
  /// Runs system call Nr (the process's model's number) with up to six
  /// Args. Result is the raw return value: -errno on failure, widened to
  /// 64 bits as Ptrace/Inject.h's widenSyscallResult32 does for 32-bit
  /// processes. False, with Why, when the call could not be made at all.
  virtual bool syscall(uint64_t Nr, std::initializer_list<uint64_t> Args,
                       uint64_t &Result, std::string &Why) = 0;
};

/// Whether a system call's raw result is an error.
inline bool isSyscallError(uint64_t R) { return R > ~uint64_t(4095); }

/// Runs a system call that must succeed; Why names What and the errno.
bool callChecked(ProcessAccess &P, uint64_t Nr,
                 std::initializer_list<uint64_t> Args, uint64_t &Result,
                 std::string &Why, const char *What);

/// mmap(0, Size, Prot, MAP_PRIVATE | MAP_ANONYMOUS | ExtraFlags) in P: the
/// address, or 0 with Why.
/// Writes Bytes at Base (page-aligned), in memory that mapAnonymous() gave
/// and nothing wrote yet: the pages of zeros in Bytes are already there
/// and are skipped (an image's zero-initialised data, a reserved table), so
/// the target neither faults them in nor gets them copied.
bool writeIntoFreshMemory(ProcessAccess &P, uint64_t Base,
                          std::span<const uint8_t> Bytes);
uint64_t mapAnonymous(ProcessAccess &P, uint64_t Size, int Prot,
                      std::string &Why, int ExtraFlags = 0);

/// Maps an image (the agent, or the probe object's code) into P, relocated
/// for its address there, with its final protections. Base and Size get
/// where it is.
bool placeImage(ProcessAccess &P, std::span<const uint8_t> Object,
                const SymbolResolver &Resolve, RelocatedImage &Img,
                uint64_t &Base, uint64_t &Size, std::string &Why);

/// Opens tsrun's descriptor Fd in P through /proc/TSRUN/fd/Fd (which the
/// kernel allows only to processes that may look into tsrun: its own user,
/// or root). Scratch is writable memory of P for the path.
bool openTsrunFd(ProcessAccess &P, uint64_t Scratch, int Fd, int &Got,
                 std::string &Why);

/// mmap(0, Size, Prot, MAP_SHARED | MAP_NORESERVE, Fd, 0) in P, then
/// close(Fd) there.
/// mmap(0, Size, Prot, MAP_SHARED, Fd, 0) in the target; Fd stays open.
bool mapSharedFdOpen(ProcessAccess &P, int Fd, uint64_t Size, uint64_t Prot,
                     uint64_t &Base, std::string &Why, const char *What);
/// close(Fd) in the target, whatever it says.
void closeFd(ProcessAccess &P, int Fd);
/// fcntl(Fd, F_DUPFD_CLOEXEC, Min), then close(Fd): a descriptor the agent
/// keeps moves out of the way of the program's own (which get the lowest
/// free numbers). The new number, or -1 (Fd is then still open).
int moveFdHigh(ProcessAccess &P, int Fd, int Min);
bool mapSharedFd(ProcessAccess &P, int Fd, uint64_t Size, uint64_t Prot,
                 uint64_t &Base, std::string &Why, const char *What);

} // namespace tscc::rt::ip

#endif // TSCC_RUNTIME_INPROCESS_PROCESSACCESS_H
