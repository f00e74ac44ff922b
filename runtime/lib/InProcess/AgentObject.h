//===- AgentObject.h - The in-process agent, embedded in libtsrt -*- C++ -*-===//
#ifndef TSCC_RUNTIME_INPROCESS_AGENTOBJECT_H
#define TSCC_RUNTIME_INPROCESS_AGENTOBJECT_H

#include <cstdint>
#include <span>

namespace tscc::rt::ip {

/// The agent as a relocatable ELF object (runtime/agent/, built by the
/// runtime's CMakeLists), ready for relocateImage().
std::span<const uint8_t> agentObject();

} // namespace tscc::rt::ip

#endif
