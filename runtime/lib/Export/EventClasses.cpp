//===- EventClasses.cpp - Records as typed events -------------------------===//

#include "EventClasses.h"

#include "tscc/Runtime/Format.h"
#include "tscc/Runtime/ProbeProgram.h"
#include "tscc/Runtime/TraceFormat.h"

#include <algorithm>
#include <cstring>

using namespace tscc::rt;

namespace {

std::string hex(uint64_t V) {
  char Buf[24];
  snprintf(Buf, sizeof(Buf), "0x%llx", static_cast<unsigned long long>(V));
  return Buf;
}

/// The field type an argument of Kind has when no conversion types it.
FieldType typeOfKind(uint32_t Kind) {
  FieldType T;
  switch (Kind) {
  case TSCC_FIELD_U64:
    T.Type = ValueType::Unsigned;
    break;
  case TSCC_FIELD_PTR:
    T.Type = ValueType::Unsigned;
    T.Base = 16;
    break;
  case TSCC_FIELD_CHAR:
    T.Type = ValueType::Char;
    T.Bits = 8;
    break;
  case TSCC_FIELD_DOUBLE:
    T.Type = ValueType::Float;
    break;
  case TSCC_FIELD_STRING:
    T.Type = ValueType::String;
    break;
  case TSCC_FIELD_STACK:
    T.Type = ValueType::StringList;
    break;
  default:
    break; // S64
  }
  return T;
}

FieldType typeOfConversion(const ArgConversion &C) {
  FieldType T;
  T.Bits = std::max(C.IntBits[0], C.IntBits[1]);
  switch (C.Conv) {
  case '*':
    T.Bits = 32;
    break;
  case 'd':
  case 'i':
    break;
  case 'u':
    T.Type = ValueType::Unsigned;
    break;
  case 'o':
    T.Type = ValueType::Unsigned;
    T.Base = 8;
    break;
  case 'x':
  case 'X':
    T.Type = ValueType::Unsigned;
    T.Base = 16;
    break;
  case 'p':
    T.Type = ValueType::Unsigned;
    T.Base = 16;
    T.Bits = 64;
    break;
  case 'c':
    T.Type = ValueType::Char;
    T.Bits = 8;
    break;
  case 's':
    T.Type = ValueType::String;
    break;
  default:
    T.Type = ValueType::Float;
    break; // f F e E g G a A
  }
  return T;
}

/// What printf prints for A, as a typed value: the same truncation and
/// extension Format.cpp applies for the record's data model.
FieldValue valueOf(const FieldType &T, const ArgConversion *C,
                   const FormatArg &A, DataModel DM) {
  FieldValue V;
  unsigned ModelBits = C ? C->IntBits[modelIndex(DM)] : 64;
  switch (T.Type) {
  case ValueType::Signed:
    V.S = signExtendBits(A.Bits, C && C->Conv == '*' ? 32 : ModelBits);
    break;
  case ValueType::Unsigned: {
    bool Pointer = C ? C->Conv == 'p' : A.Kind == TSCC_FIELD_PTR;
    V.U = truncateBits(A.Bits, Pointer ? dataModelBits(DM) : ModelBits);
    break;
  }
  case ValueType::Char:
    V.U = A.Bits & 0xff;
    break;
  case ValueType::Float:
    if (A.Kind == TSCC_FIELD_DOUBLE)
      memcpy(&V.D, &A.Bits, sizeof(V.D));
    else
      V.D = static_cast<double>(static_cast<int64_t>(A.Bits));
    break;
  case ValueType::String:
    V.Str = A.Kind == TSCC_FIELD_STRING ? A.Str : "(not a string)";
    break;
  case ValueType::StringList:
    for (uint64_t PC : A.Stack)
      V.List.push_back(hex(DM == DataModel::ILP32 ? PC & 0xffffffffu : PC));
    break;
  }
  return V;
}

} // namespace

std::string_view EventClasses::typingFormat(const RecordView &R) const {
  if (R.Header.kind == TSCC_REC_PRINTF && R.Header.format < P.formats().size())
    return P.string(P.formats()[R.Header.format].text);
  if (R.Header.kind == TSCC_REC_TRACE && Formats)
    if (const TraceFormatFile::Stanza *S = Formats->find(R.Header.id))
      return S->Format;
  return {};
}

std::string EventClasses::uniqueName(std::string Name, uint32_t Id) const {
  // Format-file labels are free words: "stack" or "printf_2" may be taken.
  for (const EventClass &Other : Classes)
    if (Other.Name == Name)
      return Name + "_" + std::to_string(Id);
  return Name;
}

const EventClass &EventClasses::classOf(const RecordView &R) {
  bool Stack = R.Header.kind == TSCC_REC_STACK;
  auto Key = std::make_tuple(R.Header.kind,
                             R.Header.kind == TSCC_REC_TRACE ? R.Header.id : 0u,
                             Stack ? 0u : R.Header.format);
  auto [It, New] = Index.emplace(Key, static_cast<uint32_t>(Classes.size()));
  if (!New)
    return Classes[It->second];

  EventClass C;
  C.Id = It->second;
  if (Stack) {
    C.Name = uniqueName("stack", C.Id);
    C.Fields.push_back({"frames", ValueType::StringList, 0, 10});
    Classes.push_back(std::move(C));
    return Classes.back();
  }
  std::string_view Fmt = typingFormat(R);
  C.Description = std::string(Fmt);
  if (R.Header.kind == TSCC_REC_PRINTF) {
    C.Name = "printf_" + std::to_string(R.Header.format);
  } else {
    const TraceFormatFile::Stanza *S =
        Formats ? Formats->find(R.Header.id) : nullptr;
    // One hook emitted with different argument types is one class each.
    C.Name = uniqueName(
        S && !S->Label.empty() ? S->Label : "trace_" + hex(R.Header.id), C.Id);
  }
  std::vector<ArgConversion> Convs = formatArgConversions(Fmt);
  std::span<const tscc_field> Kinds = P.formatFields(R.Header.format);
  for (size_t I = 0; I < Kinds.size(); ++I) {
    FieldType T = I < Convs.size() ? typeOfConversion(Convs[I])
                                   : typeOfKind(Kinds[I].kind);
    T.Name = "arg" + std::to_string(I + 1);
    C.Fields.push_back(std::move(T));
  }
  Classes.push_back(std::move(C));
  return Classes.back();
}

std::vector<FieldValue> EventClasses::values(const EventClass &C,
                                             const RecordOrigin &O,
                                             const RecordView &R) const {
  std::vector<FieldValue> Out(C.Fields.size());
  if (R.Header.kind == TSCC_REC_STACK) {
    if (!Out.empty())
      Out[0].List = stackFrames(O, R);
    return Out;
  }
  std::vector<FormatArg> Args;
  decodeArgs(P.formatFields(R.Header.format), R.Args, Args);
  std::vector<ArgConversion> Convs = formatArgConversions(C.Description);
  for (size_t I = 0; I < Out.size() && I < Args.size(); ++I)
    Out[I] = valueOf(C.Fields[I], I < Convs.size() ? &Convs[I] : nullptr,
                     Args[I], O.DM);
  return Out;
}

std::string tscc::rt::recordText(const ProbeProgram &P, const RecordOrigin &O,
                                 const RecordView &R) {
  std::string T = renderRecord(P, O, R);
  while (!T.empty() && T.back() == '\n')
    T.pop_back();
  return T;
}
