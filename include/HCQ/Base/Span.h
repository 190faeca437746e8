//===- Span.h - A view of contiguous elements -------------------*- C++ -*-===//
//
// What std::span is in C++20, for the runtime's C++17 interfaces: a pointer
// and a count, made from any container with data() and size() (a vector, an
// array, an llvm::ArrayRef on the compiler side).
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_BASE_SPAN_H
#define HCQ_BASE_SPAN_H

#include <cassert>
#include <cstddef>
#include <initializer_list>
#include <type_traits>
#include <utility>

namespace hcq {

template <typename T> class Span {
public:
  using value_type = std::remove_cv_t<T>;
  using iterator = T *;

  constexpr Span() = default;
  constexpr Span(T *data, size_t size) : ptr(data), count(size) {}
  template <size_t N> constexpr Span(T (&array)[N]) : ptr(array), count(N) {}
  /// Any container whose data() converts to T* (for Span<const T>, a const
  /// one too).
  template <
      typename C,
      typename = std::enable_if_t<
          !std::is_same_v<std::decay_t<C>, Span> &&
          std::is_convertible_v<decltype(std::declval<C &>().data()), T *>>>
  constexpr Span(C &&container)
      : ptr(container.data()), count(container.size()) {}
  /// A braced list, for arguments: it lives until the call returns.
  template <typename U = T, typename = std::enable_if_t<std::is_const_v<U>>>
  constexpr Span(std::initializer_list<value_type> list)
      : ptr(list.begin()), count(list.size()) {}

  constexpr T *data() const { return ptr; }
  constexpr size_t size() const { return count; }
  constexpr bool empty() const { return count == 0; }
  constexpr T *begin() const { return ptr; }
  constexpr T *end() const { return ptr + count; }
  constexpr T &operator[](size_t i) const {
    assert(i < count && "Span index out of range");
    return ptr[i];
  }
  constexpr T &front() const { return (*this)[0]; }
  constexpr T &back() const { return (*this)[count - 1]; }
  /// The `n` elements from `offset`.
  constexpr Span slice(size_t offset, size_t n) const {
    assert(offset + n <= count && "Span slice out of range");
    return {ptr + offset, n};
  }
  /// All but the first `n` elements.
  constexpr Span dropFront(size_t n = 1) const { return slice(n, count - n); }

private:
  T *ptr = nullptr;
  size_t count = 0;
};

} // namespace hcq

#endif // HCQ_BASE_SPAN_H
