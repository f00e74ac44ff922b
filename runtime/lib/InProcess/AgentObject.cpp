//===- AgentObject.cpp - The in-process agent, embedded in libtsrt --------===//
#include "AgentObject.h"

// The object file itself, as bytes in .rodata.
asm(".pushsection .rodata.tscc_agent_object,\"a\",@progbits\n"
    ".balign 16\n"
    "tscc_agent_object_begin:\n"
    ".incbin \"" TSCC_AGENT_OBJECT_PATH "\"\n"
    "tscc_agent_object_end:\n"
    ".popsection\n");

extern "C" const uint8_t tscc_agent_object_begin[], tscc_agent_object_end[];

std::span<const uint8_t> tscc::rt::ip::agentObject() {
  return {tscc_agent_object_begin, tscc_agent_object_end};
}
