//===- AgentObject.cpp - The in-process agent, embedded in libtsrt --------===//
#include "AgentObject.h"

// The object file itself, as bytes in .rodata.
asm(".pushsection .rodata.tscc_agent_object,\"a\",@progbits\n"
    ".balign 16\n"
    "tscc_agent_object_begin:\n"
    ".incbin \"" TSCC_AGENT_OBJECT_PATH "\"\n"
    "tscc_agent_object_end:\n"
    ".popsection\n");

// The agent of 32-bit processes: the same sources built for i386.
asm(".pushsection .rodata.tscc_agent_object_i386,\"a\",@progbits\n"
    ".balign 16\n"
    "tscc_agent_i386_object_begin:\n"
    ".incbin \"" TSCC_AGENT_I386_OBJECT_PATH "\"\n"
    "tscc_agent_i386_object_end:\n"
    ".popsection\n");

extern "C" const uint8_t tscc_agent_object_begin[], tscc_agent_object_end[],
    tscc_agent_i386_object_begin[], tscc_agent_i386_object_end[];

std::span<const uint8_t> tscc::rt::ip::agentObject() {
  return {tscc_agent_object_begin, tscc_agent_object_end};
}

std::span<const uint8_t> tscc::rt::ip::agentObjectI386() {
  return {tscc_agent_i386_object_begin, tscc_agent_i386_object_end};
}
