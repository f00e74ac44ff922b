//===- ProcessAccess.cpp - Mapping memory and images into a process -------===//
#include "ProcessAccess.h"

#include "tscc/SyscallTable.h"

#include <algorithm>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

using namespace tscc;
using namespace tscc::rt;
using namespace tscc::rt::ip;

namespace {

/// The calls made here, by the process's model (i386's mmap is mmap2,
/// whose offset counts pages; ours is always 0).
struct Numbers {
  uint64_t Mmap, Mprotect, Openat, Close, Fcntl;
};
constexpr Numbers LP64Numbers{syscallNumberOf(DataModel::LP64, "mmap"),
                              syscallNumberOf(DataModel::LP64, "mprotect"),
                              syscallNumberOf(DataModel::LP64, "openat"),
                              syscallNumberOf(DataModel::LP64, "close"),
                              syscallNumberOf(DataModel::LP64, "fcntl")};
constexpr Numbers ILP32Numbers{syscallNumberOf(DataModel::ILP32, "mmap2"),
                               syscallNumberOf(DataModel::ILP32, "mprotect"),
                               syscallNumberOf(DataModel::ILP32, "openat"),
                               syscallNumberOf(DataModel::ILP32, "close"),
                               syscallNumberOf(DataModel::ILP32, "fcntl64")};

const Numbers &numbers(const ProcessAccess &P) {
  return P.dataModel() == DataModel::LP64 ? LP64Numbers : ILP32Numbers;
}

std::string errnoText(uint64_t R) {
  return std::strerror(static_cast<int>(-static_cast<int64_t>(R)));
}

} // namespace

bool tscc::rt::ip::callChecked(ProcessAccess &P, uint64_t Nr,
                               std::initializer_list<uint64_t> Args,
                               uint64_t &Result, std::string &Why,
                               const char *What) {
  if (!P.syscall(Nr, Args, Result, Why))
    return false;
  if (!isSyscallError(Result))
    return true;
  Why = std::string(What) + " in the target failed: " + errnoText(Result);
  return false;
}

uint64_t tscc::rt::ip::mapAnonymous(ProcessAccess &P, uint64_t Size, int Prot,
                                    std::string &Why, int ExtraFlags) {
  uint64_t Nr = numbers(P).Mmap;
  Size = (Size + 4095) & ~uint64_t(4095);
  uint64_t R = 0;
  if (!P.syscall(
          Nr,
          {0, Size, static_cast<uint64_t>(Prot),
           static_cast<uint64_t>(MAP_PRIVATE | MAP_ANONYMOUS | ExtraFlags),
           ~0ull, 0},
          R, Why))
    return 0;
  if (isSyscallError(R)) {
    Why = "mmap in the target failed: " + errnoText(R);
    return 0;
  }
  return R;
}

bool tscc::rt::ip::writeIntoFreshMemory(ProcessAccess &P, uint64_t Base,
                                        std::span<const uint8_t> Bytes) {
  constexpr size_t Page = 4096;
  auto Zero = [&](size_t At) {
    size_t End = std::min(At + Page, Bytes.size());
    return std::all_of(Bytes.begin() + At, Bytes.begin() + End,
                       [](uint8_t B) { return B == 0; });
  };
  for (size_t At = 0; At < Bytes.size();) {
    if (Zero(At)) {
      At += Page;
      continue;
    }
    size_t End = At + Page;
    while (End < Bytes.size() && !Zero(End))
      End += Page;
    End = std::min(End, Bytes.size());
    if (!P.writeMemory(Base + At, Bytes.data() + At, End - At))
      return false;
    At = End;
  }
  return true;
}

bool tscc::rt::ip::placeImage(ProcessAccess &P, std::span<const uint8_t> Object,
                              const SymbolResolver &Resolve,
                              RelocatedImage &Img, uint64_t &Base,
                              uint64_t &Size, std::string &Why) {
  if (!relocatedImageSize(Object, Size, Why))
    return false;
  Base = mapAnonymous(P, Size, PROT_READ | PROT_WRITE, Why);
  if (!Base)
    return false;
  if (!relocateImage(Object, Base, Resolve, Img, Why))
    return false;
  if (!writeIntoFreshMemory(P, Base, {Img.Bytes.data(), Img.ContentEnd})) {
    Why = "cannot write the agent into the target";
    return false;
  }
  uint64_t R = 0;
  uint64_t NrMprotect = numbers(P).Mprotect;
  if (Img.ExecEnd &&
      !callChecked(P, NrMprotect, {Base, Img.ExecEnd, PROT_READ | PROT_EXEC}, R,
                   Why, "mprotect"))
    return false;
  if (Img.RwStart > Img.ExecEnd &&
      !callChecked(P, NrMprotect,
                   {Base + Img.ExecEnd, Img.RwStart - Img.ExecEnd, PROT_READ},
                   R, Why, "mprotect"))
    return false;
  return true;
}

bool tscc::rt::ip::openTsrunFd(ProcessAccess &P, uint64_t Scratch, int Fd,
                               int &Got, std::string &Why) {
  std::string Path =
      "/proc/" + std::to_string(getpid()) + "/fd/" + std::to_string(Fd);
  uint64_t R = 0;
  if (!P.writeMemory(Scratch, Path.c_str(), Path.size() + 1)) {
    Why = "cannot write to the target";
    return false;
  }
  if (!callChecked(P, numbers(P).Openat,
                   {static_cast<uint64_t>(int64_t{AT_FDCWD}), Scratch,
                    O_RDWR | O_CLOEXEC, 0},
                   R, Why, "opening tsrun's descriptor through /proc"))
    return false;
  Got = static_cast<int>(R);
  return true;
}

bool tscc::rt::ip::mapSharedFdOpen(ProcessAccess &P, int Fd, uint64_t Size,
                                   uint64_t Prot, uint64_t &Base,
                                   std::string &Why, const char *What) {
  // A 32-bit mmap takes the low half of the size: 4 GiB and 4 KiB would map
  // 4 KiB, and the agent would write past it (a fault per record).
  bool Fits = P.dataModel() == DataModel::LP64 || Size <= UINT32_MAX;
  if (!Fits)
    Why = std::string(What) + ": " + std::to_string(Size >> 20) +
          " MiB do not fit in a 32-bit process (a smaller --thread-buffer "
          "or --max-threads would)";
  return Fits && callChecked(P, numbers(P).Mmap,
                             {0, Size, Prot, MAP_SHARED | MAP_NORESERVE,
                              static_cast<uint64_t>(Fd), 0},
                             Base, Why, What);
}

void tscc::rt::ip::closeFd(ProcessAccess &P, int Fd) {
  uint64_t Ignored = 0;
  std::string IgnoredWhy;
  P.syscall(numbers(P).Close, {static_cast<uint64_t>(Fd)}, Ignored, IgnoredWhy);
}

bool tscc::rt::ip::mapSharedFd(ProcessAccess &P, int Fd, uint64_t Size,
                               uint64_t Prot, uint64_t &Base, std::string &Why,
                               const char *What) {
  bool Ok = mapSharedFdOpen(P, Fd, Size, Prot, Base, Why, What);
  closeFd(P, Fd);
  return Ok;
}

int tscc::rt::ip::moveFdHigh(ProcessAccess &P, int Fd, int Min) {
  uint64_t R = 0;
  std::string Why;
  if (!callChecked(P, numbers(P).Fcntl,
                   {static_cast<uint64_t>(Fd), F_DUPFD_CLOEXEC,
                    static_cast<uint64_t>(Min)},
                   R, Why, "fcntl(F_DUPFD_CLOEXEC)"))
    return -1;
  closeFd(P, Fd);
  return static_cast<int>(R);
}
