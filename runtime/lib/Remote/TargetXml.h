//===- TargetXml.h - GDB target descriptions (private) --------------------===//
//
// Just enough XML to read a GDB target description: the <architecture>, and
// every <reg> in document order with <xi:include> files spliced in where
// they appear (qemu splits i386 into target.xml + i386-32bit.xml). Registers
// without a regnum attribute number on from the previous one, as GDB does.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_REMOTE_TARGETXML_H
#define TSCC_RUNTIME_REMOTE_TARGETXML_H

#include "tscc/Runtime/RspClient.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tscc::rt::rsp {

/// Fetches an included annex ("i386-32bit.xml"); nullopt if unavailable.
using XmlFetcher =
    std::function<std::optional<std::string>(const std::string &Annex)>;

struct TargetDescription {
  std::string Architecture;
  std::vector<RspRegister> Registers; ///< sorted by number, offsets filled
};

/// Parses Xml and its includes. False with a message when the document is
/// unusable (no registers, or an include cycle/depth problem).
bool parseTargetDescription(std::string_view Xml, const XmlFetcher &Fetch,
                            TargetDescription &Out, std::string &Error);

/// The value of attribute Name in the tag text Tag (between '<' and '>').
std::optional<std::string> xmlAttribute(std::string_view Tag,
                                        std::string_view Name);

} // namespace tscc::rt::rsp

#endif // TSCC_RUNTIME_REMOTE_TARGETXML_H
