//===- tscc/Runtime/Usdt.h - SystemTap SDT probes of a module ---*- C++ -*-===//
//
// A program built with <sys/sdt.h> carries one ELF note per probe site in
// `.note.stapsdt`
// (https://sourceware.org/systemtap/wiki/UserSpaceProbeImplementation): the
// site's address, the address of the `.stapsdt.base` section when the note was
// written (so prelinking or `strip` moving sections can be undone), an optional
// semaphore (a 2-byte counter the program tests before computing expensive
// arguments), the provider and name, and the arguments as assembler operands
// with a size: `-4@%edx`, `8@-16(%rbp)`, `-4@$5`,
// `-8@glob(%rip)`, `-4@glob@GOTOFF(%ebx)`.
//
// This file reads those notes and evaluates the argument operands against a
// register snapshot, for both backends. Nothing here trusts the file.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_USDT_H
#define TSCC_RUNTIME_USDT_H

#include "tscc/abi.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tscc::rt {

class ElfFile;

enum class UsdtOperand : uint8_t { Register, Constant, Memory };

/// One argument of a probe, parsed from its `SIZE@OPERAND` text.
struct UsdtArg {
  std::string Text; ///< as written in the note
  int8_t Size = 8;  ///< bytes; negative: signed
  UsdtOperand Kind = UsdtOperand::Constant;
  int Reg = -1;          ///< Register: the value; Memory: the base (tscc_reg)
  bool HighByte = false; ///< %ah, %bh, %ch, %dh
  /// i386 `8@%eax`: GCC names only the low register of the pair holding a
  /// 64-bit value; the high half is in the next one of its allocation order
  /// (eax:edx, edx:ecx, ecx:ebx, ebx:esi, esi:edi, edi:ebp).
  int HighReg = -1;
  int Index = -1; ///< Memory: index register (tscc_reg) or -1
  uint8_t Scale = 1;
  int64_t Value = 0; ///< Constant: the value; Memory: the displacement
  /// Memory: the displacement names a symbol of the module (`sym(%rip)`,
  /// `sym@GOTOFF(%ebx)`): the operand is the symbol's address plus the load
  /// bias, and the base register is what the code used to reach it.
  bool SymbolRelative = false;
};

/// One probe site of a module.
struct UsdtProbe {
  std::string Provider;
  std::string Name;
  uint64_t Address = 0;   ///< link-time address of the site (a `nop`)
  uint64_t Semaphore = 0; ///< link-time address of the counter, 0 if none
  std::string ArgText;    ///< the note's argument string, as written
  std::vector<UsdtArg> Args;
};

/// Every USDT probe of File, in note order. Notes or arguments that cannot
/// be understood are skipped with a message in Problems ("path: why").
std::vector<UsdtProbe> readUsdtProbes(const ElfFile &File,
                                      std::vector<std::string> &Problems);

/// Parses one `SIZE@OPERAND` argument; false (with Why) when it is not an
/// operand this runtime evaluates. Is64 selects the register set.
bool parseUsdtArg(const std::string &Text, bool Is64, UsdtArg &Out,
                  std::string &Why);

/// Reads Len bytes of target memory at Addr; false on a fault.
using UsdtMemoryReader =
    std::function<bool(uint64_t Addr, void *Dst, size_t Len)>;

/// Evaluates the probe's arguments at a hit: Regs is the stopped thread's
/// snapshot (i386 registers in the low halves), Bias the module's load
/// bias. Out receives TSCC_USDT_MAX_ARGS values, each sign- or
/// zero-extended to 64 bits by its size; unused ones are 0. Returns the
/// number of arguments, and sets Faulted when a memory operand could not be
/// read (that argument is 0).
uint32_t evaluateUsdtArgs(const UsdtProbe &Probe,
                          const uint64_t (&Regs)[TSCC_REG_COUNT], uint64_t Bias,
                          bool Is64, const UsdtMemoryReader &Read,
                          uint64_t (&Out)[TSCC_USDT_MAX_ARGS], bool &Faulted);

struct FireEvent;

/// Writes Len bytes of target memory at Addr; false on a fault.
using UsdtMemoryWriter =
    std::function<bool(uint64_t Addr, const void *Src, size_t Len)>;

/// Adds Delta to the 2-byte semaphore at Addr (a program computes a
/// probe's arguments only while its semaphore is nonzero). The target must
/// be stopped. False when the counter cannot be read or written.
bool adjustUsdtSemaphore(uint64_t Addr, int Delta, const UsdtMemoryReader &Read,
                         const UsdtMemoryWriter &Write);

/// Evaluates U's arguments for the hit E (its registers, its target's
/// memory and data model) into E.UsdtArgs. Bias is the module's load bias.
/// False when a memory operand could not be read (that argument is 0).
bool fillUsdtArgs(FireEvent &E, const UsdtProbe &U, uint64_t Bias);

} // namespace tscc::rt

#endif // TSCC_RUNTIME_USDT_H
