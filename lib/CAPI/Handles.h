//===- Handles.h - The C API's table of live handles ------------*- C++ -*-===//
//
// A C handle is not a pointer to memory but a slot of this table and the
// slot's generation, with its kind (include/hcq-c/runtime.h): looking one up
// is arithmetic and a compare, never a dereference, so a released, foreign
// or garbage handle is found out instead of used. The table holds each
// object by shared_ptr and a lookup returns another, so a call keeps what it
// was given alive while another thread releases it.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_LIB_CAPI_HANDLES_H
#define HCQ_LIB_CAPI_HANDLES_H

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

namespace hcq::capi {

/// What a handle stands for; part of its value, so a handle of one kind
/// given as another is refused.
enum class HandleKind : uint32_t {
  Status = 1,
  Options = 2,
  Runtime = 3,
  Buffer = 4,
  Executable = 5,
};

/// The process's live handles. Thread-safe.
class HandleTable {
public:
  /// The process's table (never destroyed: handles may be released from
  /// threads still running at exit).
  static HandleTable &get();

  /// A new handle of `kind` for `object`; 0 when the table is full.
  uint64_t add(HandleKind kind, std::shared_ptr<void> object);
  /// The object of live handle `handle` of `kind`, or null.
  std::shared_ptr<void> find(HandleKind kind, uint64_t handle);
  /// Ends live handle `handle` of `kind` and returns its object (for the
  /// caller to drop outside the table's lock), or null if it was not live.
  std::shared_ptr<void> remove(HandleKind kind, uint64_t handle);

  /// Slots a table may have (a handle keeps 28 bits for its slot).
  static constexpr uint32_t MAX_SLOTS = uint32_t(1) << 28;

private:
  struct Slot {
    std::shared_ptr<void> object;
    HandleKind kind = HandleKind::Status;
    uint32_t generation = 1;
  };
  /// The slot `handle` names if it is live and of `kind`, else null.
  Slot *lookup(HandleKind kind, uint64_t handle);

  std::mutex mutex;
  std::vector<Slot> slots;
  /// Free slots, oldest first: a released slot is reused as late as can be.
  std::deque<uint32_t> freeSlots;
};

/// A handle of `kind` for `object` as the C type `Handle`, or null.
template <typename Handle, typename T>
Handle makeHandle(HandleKind kind, std::shared_ptr<T> object) {
  uint64_t value = HandleTable::get().add(kind, std::move(object));
  return reinterpret_cast<Handle>(static_cast<uintptr_t>(value));
}

/// The object behind C handle `handle` of `kind`, or null if it is not a
/// live one.
template <typename T, typename Handle>
std::shared_ptr<T> findHandle(HandleKind kind, Handle handle) {
  return std::static_pointer_cast<T>(HandleTable::get().find(
      kind, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(handle))));
}

/// Ends C handle `handle` of `kind`: its object, or null if it was not live.
template <typename T, typename Handle>
std::shared_ptr<T> removeHandle(HandleKind kind, Handle handle) {
  return std::static_pointer_cast<T>(HandleTable::get().remove(
      kind, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(handle))));
}

} // namespace hcq::capi

#endif // HCQ_LIB_CAPI_HANDLES_H
