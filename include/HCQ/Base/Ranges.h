//===- Ranges.h - The range helpers the runtime needs -----------*- C++ -*-===//
//
// enumerate (index and element, as llvm::enumerate) and the membership test,
// without LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_BASE_RANGES_H
#define HCQ_BASE_RANGES_H

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <utility>

namespace hcq {

/// Iterates `range` as (index, element reference) pairs:
///   for (auto [i, value] : enumerate(values)) ...
template <typename Range> class Enumerate {
  using Inner = decltype(std::begin(std::declval<Range &>()));

public:
  class iterator {
  public:
    iterator(Inner it, size_t index) : it(it), index(index) {}
    std::pair<size_t, decltype(*std::declval<Inner>())> operator*() const {
      return {index, *it};
    }
    iterator &operator++() {
      ++it;
      ++index;
      return *this;
    }
    bool operator!=(const iterator &o) const { return it != o.it; }

  private:
    Inner it;
    size_t index;
  };

  explicit Enumerate(Range &range) : range(range) {}
  iterator begin() const { return {std::begin(range), 0}; }
  iterator end() const { return {std::end(range), 0}; }

private:
  Range &range;
};

template <typename Range> Enumerate<Range> enumerate(Range &range) {
  return Enumerate<Range>(range);
}

/// Whether `range` holds an element equal to `value`.
template <typename Range, typename T>
bool isContained(const Range &range, const T &value) {
  return std::find(std::begin(range), std::end(range), value) !=
         std::end(range);
}

} // namespace hcq

#endif // HCQ_BASE_RANGES_H
