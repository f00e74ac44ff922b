//===- tscc/Runtime/SharedStore.h - The session's state in shared memory ---===//
//
// tsrun's side of tscc/store.h: computes the layout for a program, creates
// the memfd, maps it, and reads what clauses left in it (record rings,
// aggregations, counters). The C functions of store.h do the updates, in
// tsrun and in the targets' agents alike.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_SHAREDSTORE_H
#define TSCC_RUNTIME_SHAREDSTORE_H

#include "tscc/abi.h"
#include "tscc/store.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace tscc::rt {

class ProbeProgram;

/// What the layout is computed from.
struct StoreShape {
  uint32_t ClauseCount = 0;
  uint32_t FormatCount = 0;
  uint32_t WithinCount = 0;
  uint64_t GlobalSize = 0;
  uint32_t GlobalAlign = 8;
  uint32_t LocalsSize = 0;
  uint32_t LocalsAlign = 8;
  std::vector<tscc_map> Maps;
  std::vector<tscc_agg> Aggs;
  /// Entries per associative array and aggregation (--map-capacity).
  uint64_t MapCapacity = 1u << 16;
  /// Traced threads that can have state at the same time.
  uint32_t ThreadCapacity = 1024;
  /// Bytes of one thread's record ring (a power of two).
  uint32_t RingSize = 64u << 20;
  /// Burst extents of one process, and the data bytes of each (a power of
  /// two): a thread whose own ring is full writes into a free one.
  uint32_t ExtentCount = 0;
  uint32_t ExtentSize = 64u << 20;

  static StoreShape of(const ProbeProgram &P, uint64_t MapCapacity);
};

/// The session's control page (tscc_control): tsrun's writable mapping of
/// it, and the memfd that targets map read-only. The memfd is sealed
/// against writes (F_SEAL_FUTURE_WRITE) as soon as tsrun has mapped it:
/// every later mapping, in any process, is read-only for good.
class ControlPage {
public:
  static std::unique_ptr<ControlPage> create(std::string &Error);
  ~ControlPage();
  ControlPage(const ControlPage &) = delete;
  ControlPage &operator=(const ControlPage &) = delete;

  int fd() const { return Fd; }
  uint64_t size() const { return 4096; }
  tscc_control &words() { return *Words; }

private:
  ControlPage() = default;
  int Fd = -1;
  tscc_control *Words = nullptr;
};

class SharedStore;

/// One process's part of the session's state (tscc_shard_header): its
/// threads, their __thread blocks, within() depths and record rings, its
/// __thread maps and its clause counters, in a memfd of its own that only
/// that process and tsrun map. What a process writes there is its own
/// business: tsrun knows whose shard it reads, so nothing in it can speak
/// for another process, and no other process can read or write it.
class Shard {
public:
  /// A new, empty shard for one process of Store.
  static std::unique_ptr<Shard> create(SharedStore &Store, std::string &Error);
  ~Shard();
  Shard(const Shard &) = delete;
  Shard &operator=(const Shard &) = delete;

  int fd() const { return Fd; }
  uint64_t size() const { return View.layout.shard_size; }
  /// The process's view: the store, and this shard.
  tscc_store *view() { return &View; }
  tscc_shard_header &header() { return *tscc_shard_hdr(&View); }

private:
  Shard() = default;
  int Fd = -1;
  tscc_store View{};
};

class SharedStore {
public:
  /// Computes the layout, creates and maps the memfd and initialises it.
  /// Control, if given, is the control page the view points at.
  static std::unique_ptr<SharedStore> create(const StoreShape &Shape,
                                             std::string &Error,
                                             ControlPage *Control = nullptr);
  ~SharedStore();
  SharedStore(const SharedStore &) = delete;
  SharedStore &operator=(const SharedStore &) = delete;

  /// The memfd, for mapping the store into targets.
  int fd() const { return Fd; }
  uint64_t size() const { return Layout.size; }
  /// tsrun's own view: the C operations take this. Its shard is tsrun's
  /// own, for clauses that run without a process (BEGIN, END, interval);
  /// every process has a shard of its own (Shard::create).
  tscc_store *view() { return &View; }
  tscc_store_header &header() { return *tscc_store_hdr(&View); }
  const tscc_store_layout &layout() const { return Layout; }
  std::span<const tscc_table_layout> tables() const { return Tables; }
  /// The layout as an agent receives it: tscc_store_layout, then tables.
  std::vector<uint8_t> serializedLayout() const;

  /// Called, on the calling thread only, while it waits for the store
  /// lock: the ptrace backend's thread uses it to let go of a lock holder
  /// that sits in a ptrace stop only that thread can end. Null: none.
  static void setLockWaitHook(std::function<void()> *Hook);

private:
  SharedStore() = default;
  int Fd = -1;
  tscc_store_layout Layout{};
  std::vector<tscc_table_layout> Tables;
  tscc_store View{};
  std::unique_ptr<Shard> Own;
};

/// Computes the layout of Shape without creating anything (for tests and
/// for the error message of a store that would be too large).
bool computeStoreLayout(const StoreShape &Shape, tscc_store_layout &Layout,
                        std::vector<tscc_table_layout> &Tables,
                        std::string &Error);

} // namespace tscc::rt

#endif // TSCC_RUNTIME_SHAREDSTORE_H
