//===- ObjectTrustTest.cpp - Which object files tsrun runs as root --------===//

#include "../../../runtime/lib/Driver/ObjectTrust.h"

#include <gtest/gtest.h>

using namespace tscc::rt;

namespace {

struct stat file(uid_t Owner, mode_t Mode) {
  struct stat St{};
  St.st_uid = Owner;
  St.st_mode = S_IFREG | Mode;
  return St;
}

TEST(ObjectTrust, WithoutRootEveryFileIsRun) {
  std::string Why;
  EXPECT_TRUE(objectFileTrusted(file(65534, 0666), 1000, 1000, Why));
  EXPECT_TRUE(objectFileTrusted(file(0, 0777), 1000, 1000, Why));
}

TEST(ObjectTrust, RootRunsFilesOnlyRootOrTheRealUserCouldWrite) {
  std::string Why;
  EXPECT_TRUE(objectFileTrusted(file(0, 0644), 0, 0, Why));
  EXPECT_TRUE(objectFileTrusted(file(0, 0755), 0, 0, Why));
  // A setuid or sudo'ed tsrun run by uid 1000 on that user's own object.
  EXPECT_TRUE(objectFileTrusted(file(1000, 0600), 0, 1000, Why));
  EXPECT_FALSE(objectFileTrusted(file(1000, 0644), 0, 0, Why));
  EXPECT_NE(Why.find("owned by"), std::string::npos) << Why;
  EXPECT_FALSE(objectFileTrusted(file(0, 0664), 0, 0, Why));
  EXPECT_NE(Why.find("writable by its group"), std::string::npos) << Why;
  EXPECT_FALSE(objectFileTrusted(file(0, 0646), 0, 0, Why));
  EXPECT_NE(Why.find("writable by others"), std::string::npos) << Why;
  EXPECT_NE(Why.find("--allow-untrusted-object"), std::string::npos);
}

} // namespace
