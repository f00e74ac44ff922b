//===- DescribeObject.cpp - A probe object's tables as text ---------------===//
#include "tscc/Runtime/DescribeObject.h"

#include "tscc/AbiNames.h"
#include "tscc/Runtime/Aggregation.h"
#include "tscc/Runtime/ProbeProgram.h"

#include <cinttypes>
#include <elf.h>
#include <string>

using namespace tscc::rt;

namespace {

std::string
flagList(uint32_t Flags,
         std::initializer_list<std::pair<uint32_t, const char *>> Names) {
  std::string Out;
  for (const auto &[Bit, Name] : Names)
    if (Flags & Bit)
      Out += (Out.empty() ? "" : ",") + std::string(Name);
  return Out.empty() ? "-" : Out;
}

/// `"text"` with the escapes a reader needs to see the bytes.
std::string quoted(std::string_view S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '\n')
      Out += "\\n";
    else if (C == '\t')
      Out += "\\t";
    else if (C == '"' || C == '\\')
      Out += std::string("\\") + C;
    else
      Out += C;
  }
  return Out + "\"";
}

void printFields(FILE *Out, std::span<const tscc_field> Fields,
                 const char *Sep) {
  if (Fields.empty())
    fputs("-", Out);
  for (size_t I = 0; I < Fields.size(); ++I)
    fprintf(Out, "%s%s:%u", I ? Sep : "", fieldKindName(Fields[I].kind),
            Fields[I].size);
}

std::span<const tscc_field> fieldRange(const ProbeProgram &P, uint32_t First,
                                       uint32_t Count) {
  std::span<const tscc_field> All = P.fields();
  if (First > All.size() || Count > All.size() - First)
    return {};
  return All.subspan(First, Count);
}

} // namespace

void tscc::rt::describeObject(const ProbeProgram &P, FILE *Out) {
  const tscc_header &H = P.header();
  fprintf(Out, "object: %s\n", P.name().c_str());
  fprintf(Out,
          "abi: %u.%u\ncompiler: %s\nsource: %s (FNV-1a 0x%016" PRIx64 ")\n",
          H.abi_major, H.abi_minor,
          std::string(P.string(H.compiler_version)).c_str(),
          std::string(P.string(H.source_name)).c_str(), H.source_hash);
  fprintf(Out, "flags: %s\nparameters: %u\n",
          flagList(H.flags, {{TSCC_HDR_USES_STACK, "uses-stack"},
                             {TSCC_HDR_USES_EXIT, "uses-exit"}})
              .c_str(),
          H.param_count);
  fprintf(Out,
          "globals: %u bytes (align %u)\nthread block: ILP32 %u, LP64 %u "
          "bytes (align %u)\n",
          H.global_size, H.global_align, H.thread_size[TSCC_DM_ILP32],
          H.thread_size[TSCC_DM_LP64], H.thread_align);

  fprintf(Out, "clauses: %zu\n", P.clauses().size());
  for (const tscc_clause &C : P.clauses()) {
    fprintf(
        Out, "  #%u line %u:%u probes %u..%u flags %s\n", C.id, C.source_line,
        C.source_column, C.probe_first,
        C.probe_first + C.probe_count - (C.probe_count ? 1 : 0),
        flagList(C.flags, {{TSCC_CLAUSE_HAS_PREDICATE, "predicate"},
                           {TSCC_CLAUSE_USES_THREAD, "uses-thread"},
                           {TSCC_CLAUSE_NO_PROCESS, "no-process"},
                           {TSCC_CLAUSE_CALLS_STACK_TRACE, "calls-stktrace"},
                           {TSCC_CLAUSE_CALLS_AGG_PRINT, "calls-print"},
                           {TSCC_CLAUSE_CALLS_STACK_ID, "calls-stack-id"},
                           {TSCC_CLAUSE_THREAD_OWN, "thread-own"},
                           {TSCC_CLAUSE_THREAD_OWN_AGGS, "thread-own-aggs"}})
            .c_str());
    // Offsets in the stream's text section, as the table holds them.
    auto Line = [&](const char *Stream, const tscc_stream_entry &S) {
      auto Code = [](uint32_t Offset, uint32_t Size) {
        if (Offset == TSCC_NO_CODE)
          return std::string("none");
        char Buf[48];
        snprintf(Buf, sizeof(Buf), "%u bytes at 0x%x", Size, Offset);
        return std::string(Buf);
      };
      fprintf(Out, "      %-5s predicate %s, action %s\n", Stream,
              Code(S.pred_offset, S.pred_size).c_str(),
              Code(S.action_offset, S.action_size).c_str());
    };
    for (DataModel DM : AllDataModels)
      Line(dataModelName(DM), C.stream[modelIndex(DM)]);
    // Further streams (ABI 1.5): the same clause for another ISA.
    for (const ProbeProgram::CodeStream &S : P.codeStreams())
      Line(S.Machine == EM_386 ? "i386" : "?",
           S.Entries[&C - P.clauses().data()]);
  }
  for (const ProbeProgram::CodeStream &S : P.codeStreams())
    fprintf(Out, "stream: %s %s, an ELF relocatable of %zu bytes\n",
            S.Machine == EM_386 ? "i386" : "?", dataModelName(S.DM),
            S.Image.size());

  fprintf(Out, "probes: %zu\n", P.probes().size());
  for (size_t I = 0; I < P.probes().size(); ++I) {
    const tscc_probe &Pr = P.probes()[I];
    std::string Pid = Pr.pid_kind == TSCC_PID_ANY ? "*"
                      : Pr.pid_kind == TSCC_PID_PARAM
                          ? "$" + std::to_string(Pr.pid_value)
                          : std::to_string(Pr.pid_value);
    fprintf(Out, "  #%zu clause %u %s pid %s", I, Pr.clause,
            probeKindName(Pr.kind), Pid.c_str());
    bool HasModule =
        Pr.kind == TSCC_PROBE_UFT_ENTRY || Pr.kind == TSCC_PROBE_UFT_EXIT ||
        Pr.kind == TSCC_PROBE_UFT_OFFSET || Pr.kind == TSCC_PROBE_USDT;
    if (HasModule)
      fprintf(Out, " module %s %s", matchKindName(Pr.module_match),
              quoted(P.string(Pr.module)).c_str());
    if (Pr.kind == TSCC_PROBE_USDT)
      fprintf(Out, " provider %s %s",
              matchKindName(TSCC_USDT_PROVIDER_MATCH(Pr.offset)),
              quoted(P.string(TSCC_USDT_PROVIDER(Pr.offset))).c_str());
    if (HasModule || Pr.kind == TSCC_PROBE_SYSCALL_ENTRY ||
        Pr.kind == TSCC_PROBE_SYSCALL_EXIT)
      fprintf(Out, " %s %s %s",
              Pr.kind == TSCC_PROBE_USDT ? "name" : "function",
              matchKindName(Pr.function_match),
              quoted(P.string(Pr.function)).c_str());
    if (Pr.kind == TSCC_PROBE_UFT_OFFSET)
      fprintf(Out, " offset %" PRIu64, Pr.offset);
    if (Pr.kind == TSCC_PROBE_INTERVAL)
      fprintf(Out, " period %" PRIu64 " ms", Pr.offset);
    fprintf(Out, " spec %s\n", quoted(P.string(Pr.spec)).c_str());
  }

  fprintf(Out, "formats: %zu\n", P.formats().size());
  for (size_t I = 0; I < P.formats().size(); ++I) {
    const tscc_format &F = P.formats()[I];
    fprintf(Out, "  #%zu clause %u %s fields ", I, F.clause,
            quoted(P.string(F.text)).c_str());
    printFields(Out, fieldRange(P, F.field_first, F.field_count), ",");
    fputc('\n', Out);
  }

  fprintf(Out, "maps: %zu\n", P.maps().size());
  for (const tscc_map &M : P.maps()) {
    fprintf(Out, "  %s %s keys ", std::string(P.string(M.name)).c_str(),
            (M.flags & TSCC_MAP_THREAD) ? "thread" : "global");
    printFields(Out, fieldRange(P, M.key_field, tscc_map_key_count(M.flags)),
                "+");
    fprintf(Out, " (%u bytes) value %s:%u\n", M.key_size,
            fieldKindName(M.value_kind), M.value_size);
  }

  fprintf(Out, "aggregations: %zu\n", P.aggs().size());
  for (const tscc_agg &A : P.aggs()) {
    fprintf(Out, "  @%s %s keys ", std::string(P.string(A.name)).c_str(),
            aggKindName(A.kind));
    printFields(Out, fieldRange(P, A.key_field_first, A.key_field_count), ",");
    if (A.kind == TSCC_AGG_LHIST)
      fprintf(Out, " lhist [%" PRId64 ", %" PRId64 ") step %" PRId64,
              A.lhist_lo, A.lhist_hi, A.lhist_step);
    fputc('\n', Out);
  }

  fprintf(Out, "within: %zu\n", P.withinTable().size());
  for (size_t I = 0; I < P.withinTable().size(); ++I)
    fprintf(Out, "  #%zu %s\n", I,
            quoted(P.withinName(static_cast<uint32_t>(I))).c_str());
}
