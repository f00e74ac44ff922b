//===- RemoteInjectTest.cpp - System calls and code writes under qemu-i386 ===//
//
// RemoteAccess (Remote/RemoteInject.h) against a real qemu-i386 stub and a
// real gcc -m32 program (test/Remote/Inputs/smc.c): system calls made by
// stepping `int $0x80` leave the thread's registers as they were, and code
// the program has already run (and qemu translated) is rewritten so that
// the program runs the new code, as its exit status shows.
//
//===----------------------------------------------------------------------===//
#include "RemoteInject.h"
#include "StubProcess.h"

#include "tscc/Runtime/ElfFile.h"
#include "tscc/Runtime/RspClient.h"

#include <gtest/gtest.h>

#include <cstring>
#include <sys/mman.h>

using namespace tscc;
using namespace tscc::rt;
using namespace tscc::rt::test;

namespace {

TEST(RemoteInject, QemuI386SyscallsAndCode) {
  if (!have("qemu-i386"))
    GTEST_SKIP() << "qemu-i386 not installed";
  std::string Exe = remoteInput("smc32");
  std::string Err;
  auto Elf = ElfFile::open(Exe, Err);
  ASSERT_TRUE(Elf) << Err;
  const ElfSymbol *F = Elf->findFunction("f");
  const ElfSymbol *Checkpoint = Elf->findFunction("checkpoint");
  ASSERT_TRUE(F && Checkpoint);
  // A static executable at its link-time address: no bias.
  std::optional<uint64_t> Gadget = remote::findSyscallGadget(*Elf, 0);
  ASSERT_TRUE(Gadget);

  StubProcess Stub;
  ASSERT_TRUE(Stub.start({"qemu-i386", "-g", "{port}", Exe}));
  auto C = RspClient::connect("127.0.0.1", Stub.Port, 10000, Err);
  ASSERT_TRUE(C) << Err;
  ASSERT_TRUE(C->handshake(Err)) << Err;
  RspStop Stop;
  runTo(*C, Checkpoint->Value, Stop);
  RspThreadId T = Stop.Thread;
  std::string Before;
  ASSERT_TRUE(C->selectThread(T) && C->readRegisterBlock(Before));

  remote::RemoteAccess A(*C, T, *Gadget);
  std::string Why;
  uint64_t Page = ip::mapAnonymous(A, 8192, PROT_READ | PROT_WRITE, Why);
  ASSERT_NE(Page, 0u) << Why;
  EXPECT_NE(A.gadgetPage(), 0u);
  uint32_t Pattern = 0x5eed1234, Back = 0;
  EXPECT_TRUE(A.writeMemory(Page + 4096, &Pattern, 4));
  EXPECT_TRUE(A.readMemory(Page + 4096, &Back, 4));
  EXPECT_EQ(Back, Pattern);
  // A failing call reports its errno (munmap of an unaligned address).
  uint64_t R = 0;
  ASSERT_TRUE(A.syscall(91 /*munmap*/, {Page + 1, 4096}, R, Why)) << Why;
  EXPECT_EQ(static_cast<int64_t>(R), -22);
  std::string After;
  ASSERT_TRUE(C->selectThread(T) && C->readRegisterBlock(After));
  EXPECT_EQ(After, Before) << "injected calls must leave the registers";

  // f has run 1000 times: qemu refuses a plain write there, writeCode
  // makes it take one.
  const uint8_t NewF[] = {0xb8, 0x02, 0x00, 0x00, 0x00, 0xc3};
  EXPECT_FALSE(C->writeMemory(F->Value, NewF, sizeof(NewF)));
  ASSERT_TRUE(A.writeCode(F->Value, NewF, sizeof(NewF)));
  uint8_t Now[sizeof(NewF)];
  ASSERT_TRUE(A.readMemory(F->Value, Now, sizeof(Now)));
  EXPECT_EQ(memcmp(Now, NewF, sizeof(NewF)), 0);

  ASSERT_TRUE(C->removeBreakpoint(Checkpoint->Value, 1));
  ASSERT_TRUE(C->resumeAll());
  ASSERT_EQ(C->waitStop(Stop, -1), RspClient::WaitResult::Stopped);
  ASSERT_EQ(Stop.K, RspStop::Exited);
  EXPECT_EQ(Stop.Code, 2) << "the program ran the old f()";
}

} // namespace
