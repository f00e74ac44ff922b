//===- ProgramStreams.cpp - A probe object's further code streams ---------===//
#include "ProgramStreams.h"

#include "Image32.h"

#include <elf.h>

#include <cstring>

using namespace tscc::rt;

namespace {

constexpr uint32_t MaxStreams = 16;

/// Checks one entry offset/size against the image's function symbols.
bool checkEntry(const Image32Summary &Sum, uint32_t Clause, uint32_t Offset,
                uint32_t Size, const char *What, std::string &Error) {
  if (Offset == TSCC_NO_CODE)
    return true;
  std::string Where = "clause " + std::to_string(Clause) + ": the i386 " +
                      What + " at offset " + std::to_string(Offset);
  auto Text = Sum.Functions.find(TSCC_SEC_TEXT_ILP32);
  if (Text == Sum.Functions.end() || !Text->second.count(Offset)) {
    Error = Where + " is not the start of a function in the i386 stream's " +
            TSCC_SEC_TEXT_ILP32;
    return false;
  }
  if (Text->second.at(Offset) != Size) {
    Error = Where + " claims " + std::to_string(Size) +
            " bytes but its function has " +
            std::to_string(Text->second.at(Offset));
    return false;
  }
  return true;
}

/// Validates one row and its image; fills S.
bool readRow(const tscc_stream &Row, std::span<const uint8_t> Table,
             std::span<const uint8_t> Images, uint32_t Clauses,
             ProbeProgram::CodeStream &S, std::string &Error) {
  if (Row.data_model >= TSCC_DM_COUNT || Row.clause_count != Clauses) {
    Error = "tscc_streams: a row's data model or clause count is wrong";
    return false;
  }
  uint64_t EntryBytes = uint64_t(Clauses) * sizeof(tscc_stream_entry);
  if (Row.entries_offset > Table.size() ||
      Table.size() - Row.entries_offset < EntryBytes ||
      Row.image_offset > Images.size() ||
      Images.size() - Row.image_offset < Row.image_size) {
    Error = "tscc_streams: a row's entries or image lie outside its section";
    return false;
  }
  S.Machine = Row.machine;
  S.DM = *dataModelFromIndex(Row.data_model); // checked above
  S.Image = Images.subspan(Row.image_offset, Row.image_size);
  S.Entries.resize(Clauses);
  if (Clauses)
    memcpy(S.Entries.data(), Table.data() + Row.entries_offset, EntryBytes);
  Image32Summary Sum;
  std::string Why;
  if (!summarizeImage32(S.Image, Sum, Why)) {
    Error = "the i386 stream's image: " + Why;
    return false;
  }
  for (uint32_t I = 0; I < Clauses; ++I)
    if (!checkEntry(Sum, I, S.Entries[I].pred_offset, S.Entries[I].pred_size,
                    "predicate", Error) ||
        !checkEntry(Sum, I, S.Entries[I].action_offset,
                    S.Entries[I].action_size, "action", Error))
      return false;
  return true;
}

std::span<const uint8_t> sectionBytes(const LoadedImage &Image,
                                      const char *Name) {
  const LoadedImage::Section *S = Image.section(Name);
  if (!S || !S->Data)
    return {};
  return {S->Data, S->Size};
}

} // namespace

bool tscc::rt::loadCodeStreams(ProbeProgram &P, const LoadedImage &Image,
                               std::string &Error) {
  std::span<const uint8_t> Table = sectionBytes(Image, TSCC_SEC_STREAMS);
  std::span<const uint8_t> Images = sectionBytes(Image, TSCC_SEC_STREAM_IMAGES);
  if (Table.empty())
    return true;
  // Streams are ABI 1.6. An early build of them called itself 1.5, the
  // version that is now the comm helper's: such an object's code would be
  // run against a helper table it was not compiled for.
  if (P.header().abi_minor < 6) {
    Error = "tscc_streams in an ABI 1." + std::to_string(P.header().abi_minor) +
            " object: code streams are ABI 1.6; recompile it with this tscc";
    return false;
  }
  tscc_stream_table Head{};
  if (Table.size() < sizeof(Head)) {
    Error = "tscc_streams: truncated";
    return false;
  }
  memcpy(&Head, Table.data(), sizeof(Head));
  if (Head.count > MaxStreams || Head.row_size < sizeof(tscc_stream) ||
      (Table.size() - sizeof(Head)) / Head.row_size < Head.count) {
    Error = "tscc_streams: " + std::to_string(Head.count) + " rows of " +
            std::to_string(Head.row_size) + " bytes do not fit";
    return false;
  }
  for (uint32_t I = 0; I < Head.count; ++I) {
    tscc_stream Row{};
    memcpy(&Row, Table.data() + sizeof(Head) + uint64_t(I) * Head.row_size,
           sizeof(Row));
    // Instruction sets this runtime cannot run are a newer compiler's.
    if (Row.machine != EM_386 || Row.elf_class != ELFCLASS32)
      continue;
    ProbeProgram::CodeStream S;
    if (!readRow(Row, Table, Images, static_cast<uint32_t>(P.clauses().size()),
                 S, Error))
      return false;
    P.Streams.push_back(std::move(S));
  }
  return true;
}

const ProbeProgram::CodeStream *ProbeProgram::codeStream(uint16_t Machine,
                                                         DataModel DM) const {
  for (const CodeStream &S : Streams)
    if (S.Machine == Machine && S.DM == DM)
      return &S;
  return nullptr;
}
