//===- ProbeProgram.cpp - Validated tables of a probe object --------------===//
//
// Every table is copied into one owned, suitably aligned buffer and checked
// completely before anything uses it, so the rest of the runtime can index
// the tables without re-checking: counts match section sizes, every strtab
// offset is inside the string table, every cross-table index is in range and
// every code range is inside its text section.
//
//===----------------------------------------------------------------------===//

#include "tscc/Runtime/ProbeProgram.h"

#include "LoadedImage.h"
#include "ProgramStreams.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <iterator>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace tscc::rt;

namespace {

// Limits that keep a hostile object from making the session allocate
// absurd amounts of memory.
constexpr uint32_t MaxBlockSize = 64u << 20;
constexpr uint32_t MaxKeySize = 1u << 16;
constexpr int64_t MaxLhistBuckets = 100000;

bool isPow2(uint64_t V) { return V && !(V & (V - 1)); }

class Validator {
public:
  Validator(const ProbeProgram &P, std::string &Error) : P(P), Error(Error) {}
  bool run();

private:
  bool fail(std::string Msg) {
    Error = std::move(Msg);
    return false;
  }
  bool str(uint32_t Off, const char *What, size_t Index) {
    if (Off < P.strtab().size())
      return true;
    return fail(std::string(What) + " " + std::to_string(Index) +
                " has a string offset outside the string table");
  }
  bool header();
  bool clauses();
  bool probes();
  bool formatsAndFields();
  bool mapsAndAggs();
  bool fieldRange(uint32_t First, uint32_t Count, const char *What,
                  size_t Index);

  const ProbeProgram &P;
  std::string &Error;
};

bool Validator::header() {
  const tscc_header &H = P.header();
  if (H.global_size > MaxBlockSize || H.thread_size[0] > MaxBlockSize ||
      H.thread_size[1] > MaxBlockSize)
    return fail("variable blocks are unreasonably large");
  if ((H.global_size && !isPow2(H.global_align)) ||
      (H.global_align && !isPow2(H.global_align)) ||
      (H.thread_align && !isPow2(H.thread_align)) || H.global_align > 4096 ||
      H.thread_align > 4096)
    return fail("bad variable block alignment");
  if (H.param_count > 1024)
    return fail("unreasonable parameter count");
  if (P.strtab().empty() || P.strtab().front() != '\0' ||
      P.strtab().back() != '\0')
    return fail("malformed string table (must start and end with NUL)");
  return str(H.source_name, "header", 0) &&
         str(H.compiler_version, "header", 0);
}

bool Validator::clauses() {
  for (size_t I = 0; I < P.clauses().size(); ++I) {
    const tscc_clause &C = P.clauses()[I];
    if (C.id != I)
      return fail("clause " + std::to_string(I) + " has id " +
                  std::to_string(C.id));
    if (C.probe_first > P.probes().size() ||
        C.probe_count > P.probes().size() - C.probe_first)
      return fail("clause " + std::to_string(I) + " has a bad probe range");
    if (!P.hasCode())
      continue;
    for (unsigned DM = 0; DM < TSCC_DM_COUNT; ++DM) {
      const tscc_stream_entry &S = C.stream[DM];
      uint64_t Size = P.tables().TextSize[DM];
      auto InText = [&](uint32_t Off, uint32_t Len) {
        return Off == TSCC_NO_CODE || (Off < Size && Len <= Size - Off);
      };
      if (!InText(S.pred_offset, S.pred_size) ||
          !InText(S.action_offset, S.action_size))
        return fail("clause " + std::to_string(I) + " has code outside the " +
                    dataModelName(AllDataModels[DM]) + " text section");
    }
  }
  return true;
}

bool Validator::probes() {
  for (size_t I = 0; I < P.probes().size(); ++I) {
    const tscc_probe &Pr = P.probes()[I];
    std::string N = std::to_string(I);
    if (Pr.kind < TSCC_PROBE_BEGIN || Pr.kind > TSCC_PROBE_USDT)
      return fail("probe " + N + " has unknown kind " +
                  std::to_string(Pr.kind));
    if (Pr.clause >= P.clauses().size())
      return fail("probe " + N + " belongs to a nonexistent clause");
    if (Pr.pid_kind > TSCC_PID_PARAM || Pr.module_match > TSCC_MATCH_REGEX ||
        Pr.function_match > TSCC_MATCH_REGEX)
      return fail("probe " + N + " has an unknown pid or match kind");
    if (Pr.pid_kind == TSCC_PID_PARAM &&
        (Pr.pid_value == 0 || Pr.pid_value > 1024))
      return fail("probe " + N + " refers to a bad parameter");
    if (Pr.kind == TSCC_PROBE_INTERVAL && Pr.offset == 0)
      return fail("probe " + N + " is an interval of 0 ms");
    if (Pr.kind == TSCC_PROBE_USDT) {
      if (TSCC_USDT_PROVIDER_MATCH(Pr.offset) > TSCC_MATCH_REGEX)
        return fail("probe " + N + " has an unknown pid or match kind");
      if (!str(TSCC_USDT_PROVIDER(Pr.offset), "probe", I))
        return false;
    }
    if (!str(Pr.spec, "probe", I) || !str(Pr.module, "probe", I) ||
        !str(Pr.function, "probe", I))
      return false;
  }
  return true;
}

bool Validator::fieldRange(uint32_t First, uint32_t Count, const char *What,
                           size_t Index) {
  if (First <= P.fields().size() && Count <= P.fields().size() - First)
    return true;
  return fail(std::string(What) + " " + std::to_string(Index) +
              " has a bad field range");
}

bool Validator::formatsAndFields() {
  for (size_t I = 0; I < P.fields().size(); ++I) {
    const tscc_field &F = P.fields()[I];
    if (F.kind < TSCC_FIELD_S64 || F.kind > TSCC_FIELD_STACK_ID)
      return fail("field " + std::to_string(I) + " has unknown kind " +
                  std::to_string(F.kind));
    if (F.kind == TSCC_FIELD_STACK_ID && F.size != 8)
      return fail("field " + std::to_string(I) + " is a stack id of size " +
                  std::to_string(F.size));
    if (F.size > MaxKeySize)
      return fail("field " + std::to_string(I) + " is too large");
  }
  for (size_t I = 0; I < P.formats().size(); ++I) {
    const tscc_format &F = P.formats()[I];
    if (!str(F.text, "format", I) ||
        !fieldRange(F.field_first, F.field_count, "format", I))
      return false;
    if (F.clause >= P.clauses().size())
      return fail("format " + std::to_string(I) +
                  " belongs to a nonexistent clause");
  }
  return true;
}

bool Validator::mapsAndAggs() {
  for (size_t I = 0; I < P.maps().size(); ++I) {
    const tscc_map &M = P.maps()[I];
    if (!str(M.name, "map", I))
      return false;
    if (M.key_size == 0 || M.key_size > MaxKeySize || M.value_size == 0 ||
        M.value_size > MaxKeySize)
      return fail("map " + std::to_string(I) + " has bad key or value sizes");
    if (M.key_field >= P.fields().size() ||
        tscc_map_key_count(M.flags) > P.fields().size() - M.key_field)
      return fail("map " + std::to_string(I) + " has a bad key field");
  }
  for (size_t I = 0; I < P.aggs().size(); ++I) {
    const tscc_agg &A = P.aggs()[I];
    std::string N = std::to_string(I);
    if (!str(A.name, "aggregation", I) ||
        !fieldRange(A.key_field_first, A.key_field_count, "aggregation", I))
      return false;
    if (A.kind < TSCC_AGG_COUNT || A.kind > TSCC_AGG_LHIST)
      return fail("aggregation " + N + " has unknown kind " +
                  std::to_string(A.kind));
    if (A.key_size > MaxKeySize)
      return fail("aggregation " + N + " has an oversized key");
    uint64_t KeyBytes = 0;
    for (const tscc_field &F : P.aggKeyFields(I))
      KeyBytes += F.size;
    if (KeyBytes != A.key_size)
      return fail("aggregation " + N +
                  ": key fields do not add up to the "
                  "key size");
    if (A.kind == TSCC_AGG_LHIST) {
      if (A.lhist_step <= 0 || A.lhist_hi <= A.lhist_lo)
        return fail("aggregation " + N + " has a bad lhist range");
      // Divide first: hi - lo may overflow.
      if (A.lhist_hi / A.lhist_step - A.lhist_lo / A.lhist_step >
          MaxLhistBuckets)
        return fail("aggregation " + N + " has too many lhist buckets");
    }
  }
  for (size_t I = 0; I < P.withinTable().size(); ++I)
    if (!str(P.withinTable()[I], "within entry", I))
      return false;
  return true;
}

bool Validator::run() {
  return header() && clauses() && probes() && formatsAndFields() &&
         mapsAndAggs();
}

/// One table: its section and the entry size and count the header claims.
struct TableSpec {
  std::span<const uint8_t> ProgramTables::*Member;
  const char *Section;
  size_t EntrySize;
  uint32_t tscc_header::*Count; // null: the strtab / header
};

/// Each clause entry must name exactly one of the clause functions codegen
/// emitted: an offset inside the text section is not enough, since one
/// byte into a function is the middle of an instruction.
bool checkClauseEntries(const ProbeProgram &P, const LoadedImage &Image,
                        std::string &Error) {
  const char *TextNames[TSCC_DM_COUNT] = {TSCC_SEC_TEXT_ILP32,
                                          TSCC_SEC_TEXT_LP64};
  for (size_t I = 0; I < P.clauses().size(); ++I) {
    for (unsigned DM = 0; DM < TSCC_DM_COUNT; ++DM) {
      if (!Image.section(TextNames[DM]))
        continue;
      const tscc_stream_entry &S = P.clauses()[I].stream[DM];
      struct {
        uint32_t Offset, Size;
        const char *What;
      } Entries[] = {{S.pred_offset, S.pred_size, "predicate"},
                     {S.action_offset, S.action_size, "action"}};
      for (const auto &E : Entries) {
        if (E.Offset == TSCC_NO_CODE)
          continue;
        std::optional<uint64_t> Size =
            Image.functionAt(TextNames[DM], E.Offset);
        std::string Where = "clause " + std::to_string(I) + ": the " +
                            dataModelName(AllDataModels[DM]) + " " + E.What +
                            " at offset " + std::to_string(E.Offset);
        if (!Size)
          return (Error = Where + " is not the start of a function in " +
                          TextNames[DM]),
                 false;
        if (*Size != E.Size)
          return (Error = Where + " claims " + std::to_string(E.Size) +
                          " bytes but its function has " +
                          std::to_string(*Size)),
                 false;
      }
    }
  }
  return true;
}

} // namespace

ProbeProgram::~ProbeProgram() = default;

std::string_view ProbeProgram::string(uint32_t Offset) const {
  if (Offset >= Strtab.size())
    return {};
  return std::string_view(Strtab.data() + Offset);
}

std::string_view ProbeProgram::withinName(uint32_t Index) const {
  return Index < Within.size() ? string(Within[Index]) : std::string_view();
}

tscc_predicate_fn ProbeProgram::predicate(uint32_t Clause, DataModel DM) const {
  unsigned M = modelIndex(DM);
  if (Clause >= Clauses.size() || !Text[M])
    return nullptr;
  const tscc_stream_entry &S = Clauses[Clause].stream[M];
  if (S.pred_offset == TSCC_NO_CODE)
    return nullptr;
  return reinterpret_cast<tscc_predicate_fn>(
      const_cast<uint8_t *>(Text[M] + S.pred_offset));
}

tscc_action_fn ProbeProgram::action(uint32_t Clause, DataModel DM) const {
  unsigned M = modelIndex(DM);
  if (Clause >= Clauses.size() || !Text[M])
    return nullptr;
  const tscc_stream_entry &S = Clauses[Clause].stream[M];
  if (S.action_offset == TSCC_NO_CODE)
    return nullptr;
  return reinterpret_cast<tscc_action_fn>(
      const_cast<uint8_t *>(Text[M] + S.action_offset));
}

bool ProbeProgram::containsCode(uintptr_t PC) const {
  if (Image)
    return Image->contains(PC);
  for (unsigned M = 0; M < TSCC_DM_COUNT; ++M)
    if (Text[M] && PC >= reinterpret_cast<uintptr_t>(Text[M]) &&
        PC - reinterpret_cast<uintptr_t>(Text[M]) < TextSize[M])
      return true;
  return false;
}

std::optional<bool> ProbeProgram::containsMemory(uintptr_t Addr,
                                                 uint64_t Len) const {
  if (!Image)
    return std::nullopt;
  if (Len == 0)
    return Image->contains(Addr);
  return Addr + Len >= Addr && Image->contains(Addr) &&
         Image->contains(Addr + Len - 1);
}

std::span<const tscc_field> ProbeProgram::formatFields(uint32_t Format) const {
  if (Format >= Formats.size())
    return {};
  return Fields.subspan(Formats[Format].field_first,
                        Formats[Format].field_count);
}

std::span<const tscc_field> ProbeProgram::aggKeyFields(uint32_t Agg) const {
  if (Agg >= Aggs.size())
    return {};
  return Fields.subspan(Aggs[Agg].key_field_first, Aggs[Agg].key_field_count);
}

ProgramTables ProbeProgram::tables() const {
  auto Bytes = [](auto Span) {
    return std::span<const uint8_t>(
        reinterpret_cast<const uint8_t *>(Span.data()), Span.size_bytes());
  };
  ProgramTables T;
  T.Header = RawHeader;
  T.Clauses = Bytes(Clauses);
  T.Probes = Bytes(Probes);
  T.Formats = Bytes(Formats);
  T.Fields = Bytes(Fields);
  T.Maps = Bytes(Maps);
  T.Aggs = Bytes(Aggs);
  T.Within = Bytes(Within);
  T.Strtab = Bytes(Strtab);
  for (unsigned M = 0; M < TSCC_DM_COUNT; ++M) {
    T.Text[M] = Text[M];
    T.TextSize[M] = TextSize[M];
  }
  return T;
}

bool ProbeProgram::adopt(const ProgramTables &T, std::string &Error) {
  if (T.Header.size() < offsetof(tscc_header, header_size) + 4)
    return (Error = "missing or truncated " TSCC_SEC_HEADER " section"), false;
  if (memcmp(T.Header.data(), TSCC_MAGIC, TSCC_MAGIC_SIZE) != 0)
    return (Error = "bad magic: not a tscc probe object"), false;
  tscc_header H{};
  memcpy(&H, T.Header.data(), offsetof(tscc_header, header_size) + 4);
  if (H.abi_major != TSCC_ABI_MAJOR)
    return (Error = "object ABI version " + std::to_string(H.abi_major) + "." +
                    std::to_string(H.abi_minor) +
                    " is not supported by this runtime (ABI " +
                    std::to_string(TSCC_ABI_MAJOR) + "." +
                    std::to_string(TSCC_ABI_MINOR) + ")"),
           false;
  // Newer minors may append fields; older headers may not be shorter.
  if (H.header_size < sizeof(tscc_header) || H.header_size > T.Header.size())
    return (Error = "header size " + std::to_string(H.header_size) +
                    " does not match its section (" +
                    std::to_string(T.Header.size()) + " bytes)"),
           false;
  memcpy(&H, T.Header.data(), sizeof(tscc_header));
  Header = H;

  static const TableSpec Specs[] = {
      {&ProgramTables::Clauses, TSCC_SEC_CLAUSES, sizeof(tscc_clause),
       &tscc_header::clause_count},
      {&ProgramTables::Probes, TSCC_SEC_PROBES, sizeof(tscc_probe),
       &tscc_header::probe_count},
      {&ProgramTables::Formats, TSCC_SEC_FORMATS, sizeof(tscc_format),
       &tscc_header::format_count},
      {&ProgramTables::Fields, TSCC_SEC_FIELDS, sizeof(tscc_field),
       &tscc_header::field_count},
      {&ProgramTables::Maps, TSCC_SEC_MAPS, sizeof(tscc_map),
       &tscc_header::map_count},
      {&ProgramTables::Aggs, TSCC_SEC_AGGS, sizeof(tscc_agg),
       &tscc_header::agg_count},
      {&ProgramTables::Within, TSCC_SEC_WITHIN, sizeof(uint32_t),
       &tscc_header::within_count},
      {&ProgramTables::Strtab, TSCC_SEC_STRTAB, 1, &tscc_header::strtab_size},
  };
  // One buffer, each table 16-byte aligned, plus the raw header.
  size_t Total = (T.Header.size() + 15) & ~size_t(15);
  for (const TableSpec &S : Specs) {
    uint64_t Need = uint64_t(H.*S.Count) * S.EntrySize;
    const std::span<const uint8_t> &Sec = T.*S.Member;
    if (Sec.size() < Need)
      return (Error = std::string("section ") + S.Section + " holds " +
                      std::to_string(Sec.size()) +
                      " bytes but the header "
                      "promises " +
                      std::to_string(H.*S.Count) + " entries (" +
                      std::to_string(Need) + " bytes)"),
             false;
    Total += (Need + 15) & ~uint64_t(15);
  }
  Storage = std::make_unique<uint8_t[]>(Total + 16);
  uint8_t *Cur = Storage.get();
  memcpy(Cur, T.Header.data(), T.Header.size());
  RawHeader = {Cur, T.Header.size()};
  Cur += (T.Header.size() + 15) & ~size_t(15);
  std::span<const uint8_t> Copied[std::size(Specs)];
  for (size_t I = 0; I < std::size(Specs); ++I) {
    size_t Need = size_t(H.*Specs[I].Count) * Specs[I].EntrySize;
    if (Need)
      memcpy(Cur, (T.*Specs[I].Member).data(), Need);
    Copied[I] = {Cur, Need};
    Cur += (Need + 15) & ~size_t(15);
  }
  auto As = [](std::span<const uint8_t> B, auto *Type) {
    using E = std::remove_pointer_t<decltype(Type)>;
    return std::span<const E>(reinterpret_cast<const E *>(B.data()),
                              B.size() / sizeof(E));
  };
  Clauses = As(Copied[0], (tscc_clause *)nullptr);
  Probes = As(Copied[1], (tscc_probe *)nullptr);
  Formats = As(Copied[2], (tscc_format *)nullptr);
  Fields = As(Copied[3], (tscc_field *)nullptr);
  Maps = As(Copied[4], (tscc_map *)nullptr);
  Aggs = As(Copied[5], (tscc_agg *)nullptr);
  Within = As(Copied[6], (uint32_t *)nullptr);
  Strtab = As(Copied[7], (char *)nullptr);
  for (unsigned M = 0; M < TSCC_DM_COUNT; ++M) {
    Text[M] = T.Text[M];
    TextSize[M] = T.TextSize[M];
  }
  return Validator(*this, Error).run();
}

std::unique_ptr<ProbeProgram>
ProbeProgram::loadFromMemory(std::span<const uint8_t> Bytes,
                             std::string_view Name, std::string &Error) {
  std::string Why;
  std::unique_ptr<LoadedImage> Image = LoadedImage::create(Bytes, Why);
  if (!Image) {
    Error = std::string(Name) + ": " + Why;
    return nullptr;
  }
  auto Sec = [&](const char *N) -> std::span<const uint8_t> {
    const LoadedImage::Section *S = Image->section(N);
    if (!S || !S->Data)
      return {};
    return {S->Data, S->Size};
  };
  ProgramTables T;
  T.Header = Sec(TSCC_SEC_HEADER);
  T.Clauses = Sec(TSCC_SEC_CLAUSES);
  T.Probes = Sec(TSCC_SEC_PROBES);
  T.Formats = Sec(TSCC_SEC_FORMATS);
  T.Fields = Sec(TSCC_SEC_FIELDS);
  T.Maps = Sec(TSCC_SEC_MAPS);
  T.Aggs = Sec(TSCC_SEC_AGGS);
  T.Within = Sec(TSCC_SEC_WITHIN);
  T.Strtab = Sec(TSCC_SEC_STRTAB);
  const char *TextNames[TSCC_DM_COUNT] = {TSCC_SEC_TEXT_ILP32,
                                          TSCC_SEC_TEXT_LP64};
  for (unsigned M = 0; M < TSCC_DM_COUNT; ++M) {
    const LoadedImage::Section *S = Image->section(TextNames[M]);
    if (!S)
      continue;
    if (!S->Alloc) {
      Error =
          std::string(Name) + ": section " + TextNames[M] + " is not allocated";
      return nullptr;
    }
    T.Text[M] = S->Data;
    T.TextSize[M] = S->Size;
  }
  if (T.Header.empty()) {
    Error = std::string(Name) + ": no " TSCC_SEC_HEADER
                                " section: not a tscc probe object";
    return nullptr;
  }
  std::unique_ptr<ProbeProgram> P(new ProbeProgram());
  P->Name = std::string(Name);
  if (!P->adopt(T, Why)) {
    Error = std::string(Name) + ": " + Why;
    return nullptr;
  }
  if (!P->hasCode() && !P->Clauses.empty()) {
    Error = std::string(Name) + ": no " TSCC_SEC_TEXT_LP64 " section";
    return nullptr;
  }
  if (!checkClauseEntries(*P, *Image, Why) ||
      !loadCodeStreams(*P, *Image, Why)) {
    Error = std::string(Name) + ": " + Why;
    return nullptr;
  }
  P->Image = std::move(Image);
  P->ObjectBytes.assign(Bytes.begin(), Bytes.end());
  return P;
}

std::unique_ptr<ProbeProgram> ProbeProgram::load(const std::string &Path,
                                                 std::string &Error) {
  return load(Path, Error, nullptr);
}

std::unique_ptr<ProbeProgram> ProbeProgram::load(const std::string &Path,
                                                 std::string &Error,
                                                 const FileCheck &Check) {
  // O_NONBLOCK: a FIFO named as the object must not block the open; it is
  // refused below as not a regular file.
  int Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (Fd < 0) {
    Error = Path + ": " + strerror(errno);
    return nullptr;
  }
  struct stat St;
  if (fstat(Fd, &St) != 0 || !S_ISREG(St.st_mode)) {
    ::close(Fd);
    Error = Path + ": not a regular file";
    return nullptr;
  }
  std::string Why;
  if (Check && !Check(St, Why)) {
    ::close(Fd);
    Error = Path + ": " + Why;
    return nullptr;
  }
  std::vector<uint8_t> Bytes;
  uint8_t Buf[65536];
  for (;;) {
    ssize_t N = ::read(Fd, Buf, sizeof(Buf));
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0) {
      Error = Path + ": " + strerror(errno);
      ::close(Fd);
      return nullptr;
    }
    if (N == 0)
      break;
    Bytes.insert(Bytes.end(), Buf, Buf + N);
  }
  ::close(Fd);
  return loadFromMemory(Bytes, Path, Error);
}

std::unique_ptr<ProbeProgram> ProbeProgram::fromTables(const ProgramTables &T,
                                                       std::string_view Name,
                                                       std::string &Error) {
  ProgramTables NoCode = T;
  for (unsigned M = 0; M < TSCC_DM_COUNT; ++M) {
    NoCode.Text[M] = nullptr;
    NoCode.TextSize[M] = 0;
  }
  std::unique_ptr<ProbeProgram> P(new ProbeProgram());
  P->Name = std::string(Name);
  std::string Why;
  if (!P->adopt(NoCode, Why)) {
    Error = std::string(Name) + ": " + Why;
    return nullptr;
  }
  return P;
}
