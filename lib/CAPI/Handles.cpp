//===- Handles.cpp - The C API's table of live handles --------------------===//
//
// A handle's 64 bits: the slot's generation (32), the kind (4) and the slot
// (28). Generations start at 1 and skip 0 when they wrap, and a kind is
// never 0, so no handle is 0 (NULL).
//
//===----------------------------------------------------------------------===//

#include "Handles.h"

namespace hcq::capi {

static_assert(sizeof(uintptr_t) == 8, "a handle is 64 bits");

HandleTable &HandleTable::get() {
  static HandleTable *table = new HandleTable();
  return *table;
}

static uint64_t encode(HandleKind kind, uint32_t slot, uint32_t generation) {
  return uint64_t(generation) << 32 | uint64_t(kind) << 28 | slot;
}

uint64_t HandleTable::add(HandleKind kind, std::shared_ptr<void> object) {
  if (!object)
    return 0;
  std::lock_guard<std::mutex> lock(mutex);
  uint32_t slot;
  if (!freeSlots.empty()) {
    slot = freeSlots.front();
    freeSlots.pop_front();
  } else {
    if (slots.size() >= MAX_SLOTS)
      return 0;
    slot = uint32_t(slots.size());
    slots.emplace_back();
  }
  Slot &s = slots[slot];
  s.object = std::move(object);
  s.kind = kind;
  return encode(kind, slot, s.generation);
}

HandleTable::Slot *HandleTable::lookup(HandleKind kind, uint64_t handle) {
  uint32_t slot = uint32_t(handle & (MAX_SLOTS - 1));
  uint32_t generation = uint32_t(handle >> 32);
  if (((handle >> 28) & 0xf) != uint32_t(kind) || slot >= slots.size())
    return nullptr;
  Slot &s = slots[slot];
  if (!s.object || s.kind != kind || s.generation != generation)
    return nullptr;
  return &s;
}

std::shared_ptr<void> HandleTable::find(HandleKind kind, uint64_t handle) {
  std::lock_guard<std::mutex> lock(mutex);
  Slot *s = lookup(kind, handle);
  return s ? s->object : nullptr;
}

std::shared_ptr<void> HandleTable::remove(HandleKind kind, uint64_t handle) {
  std::lock_guard<std::mutex> lock(mutex);
  Slot *s = lookup(kind, handle);
  if (!s)
    return nullptr;
  std::shared_ptr<void> object = std::move(s->object);
  s->object.reset();
  if (++s->generation == 0)
    s->generation = 1;
  freeSlots.push_back(uint32_t(s - slots.data()));
  return object;
}

} // namespace hcq::capi
