//===- AgentObject.h - The in-process agent, embedded in libtsrt -*- C++ -*-===//
#ifndef TSCC_RUNTIME_INPROCESS_AGENTOBJECT_H
#define TSCC_RUNTIME_INPROCESS_AGENTOBJECT_H

#include <cstdint>
#include <span>

namespace tscc::rt::ip {

/// The agent as a relocatable ELF object (runtime/lib/InProcess/Agent/, built
/// by the runtime's CMakeLists), ready for relocateImage().
std::span<const uint8_t> agentObject();

/// The agent of 32-bit processes: an ELF32 i386 relocatable (the same
/// sources built for i386, runtime/lib/InProcess/Agent/i386/).
std::span<const uint8_t> agentObjectI386();

} // namespace tscc::rt::ip

#endif
