//===- SitePlanCache.cpp - Jump-site plans reused across images -----------===//
#include "SitePlanCache.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

using namespace tscc::rt;
using namespace tscc::rt::ip;

std::string ip::moduleCodeKey(const std::string &BuildId,
                              const FileIdentity &Id) {
  static constexpr char Digits[] = "0123456789abcdef";
  if (!BuildId.empty()) {
    std::string Out = "build-id:";
    for (unsigned char C : BuildId) {
      Out += Digits[C >> 4];
      Out += Digits[C & 15];
    }
    return Out;
  }
  return "file:" + std::to_string(Id.Dev) + ":" + std::to_string(Id.Ino) + ":" +
         std::to_string(Id.Size) + ":" + std::to_string(Id.MTimeNs) + ":" +
         std::to_string(Id.CTimeNs);
}

std::string ip::moduleCodeKey(const ElfFile &F) {
  return moduleCodeKey(F.buildId(), F.identity());
}

std::optional<SitePlan> SitePlanCache::find(const SitePlanKey &Key,
                                            std::span<const uint8_t> Func,
                                            std::span<const uint8_t> Padding,
                                            uint64_t Bias) {
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Entries.find(Key);
  if (It == Entries.end())
    return std::nullopt;
  Entry &E = It->second;
  if (!std::ranges::equal(E.Func, Func) ||
      !std::ranges::equal(E.Padding, Padding))
    return std::nullopt;
  // A refusal's reason may name addresses of the image it was made in.
  if (!E.Made.Ok && E.Bias != Bias)
    return std::nullopt;
  Uses.splice(Uses.end(), Uses, E.Use);
  SitePlan Out = E.Made;
  if (Out.Ok)
    Out.Plan.Site = Out.Plan.Site - E.Bias + Bias;
  return Out;
}

void SitePlanCache::insert(const SitePlanKey &Key,
                           std::span<const uint8_t> Func,
                           std::span<const uint8_t> Padding, uint64_t Bias,
                           const SitePlan &Made) {
  size_t Cost = Func.size() + Padding.size();
  std::lock_guard<std::mutex> Guard(Lock);
  if (Cost > Budget)
    return; // would evict everything for one entry
  if (auto Old = Entries.find(Key); Old != Entries.end()) {
    // The same key on other bytes, or a refusal at another bias: the newer
    // image is the likelier to come again.
    Held -= Old->second.Func.size() + Old->second.Padding.size();
    Uses.erase(Old->second.Use);
    Entries.erase(Old);
  }
  Entry E;
  E.Func.assign(Func.begin(), Func.end());
  E.Padding.assign(Padding.begin(), Padding.end());
  E.Bias = Bias;
  E.Made = Made;
  E.Use = Uses.insert(Uses.end(), Key);
  Entries.emplace(Key, std::move(E));
  Held += Cost;
  evictLocked();
}

void SitePlanCache::evictLocked() {
  while (Held > Budget && !Uses.empty()) {
    auto It = Entries.find(Uses.front());
    Held -= It->second.Func.size() + It->second.Padding.size();
    Entries.erase(It);
    Uses.pop_front();
  }
}

size_t SitePlanCache::size() const {
  std::lock_guard<std::mutex> Guard(Lock);
  return Entries.size();
}

size_t SitePlanCache::bytes() const {
  std::lock_guard<std::mutex> Guard(Lock);
  return Held;
}

void SitePlanCache::clear() {
  std::lock_guard<std::mutex> Guard(Lock);
  Entries.clear();
  Uses.clear();
  Held = 0;
}

SitePlanCache &SitePlanCache::shared() {
  static SitePlanCache Cache;
  return Cache;
}

bool SitePlanCache::enabled() {
  static const bool On = [] {
    const char *V = std::getenv("TSCC_SITE_PLAN_CACHE");
    return !V || strcmp(V, "0") != 0;
  }();
  return On;
}
