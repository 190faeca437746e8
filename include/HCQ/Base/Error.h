//===- Error.h - Errors and expected values without LLVM --------*- C++ -*-===//
//
// The runtime's error type: a failure carries a message that names the
// problem; success is a null pointer. Modelled on llvm::Error / Expected (the
// same spelling at call sites: `if (Error e = f()) return e;`,
// `if (!x) return x.takeError();`) so the compiler side reads alike, but
// dependency-free: the runtime links no LLVM (docs/runtime.md). The compiler
// converts at its edge (HCQ/Base/LLVMError.h).
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_BASE_ERROR_H
#define HCQ_BASE_ERROR_H

#include <cassert>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace hcq {

/// Success, or a failure with a message. Testing it (`if (e)`) is true for
/// a failure, as for llvm::Error.
class [[nodiscard]] Error {
public:
  static Error success() { return Error(); }
  static Error failure(std::string message) {
    Error e;
    e.text = std::make_unique<std::string>(std::move(message));
    return e;
  }

  Error(Error &&) noexcept = default;
  Error &operator=(Error &&) noexcept = default;
  Error(const Error &) = delete;
  Error &operator=(const Error &) = delete;

  explicit operator bool() const { return text != nullptr; }
  /// The failure's message; empty on success.
  const std::string &message() const {
    static const std::string none;
    return text ? *text : none;
  }

private:
  Error() = default;
  std::unique_ptr<std::string> text;
};

/// Appends `value` to `out`: strings as they are, a char as a character,
/// every other integer (uint8_t too) in decimal.
inline void appendTo(std::string &out, std::string_view s) { out += s; }
inline void appendTo(std::string &out, const char *s) { out += s; }
inline void appendTo(std::string &out, const std::string &s) { out += s; }
inline void appendTo(std::string &out, char c) { out += c; }
inline void appendTo(std::string &out, bool b) { out += b ? "1" : "0"; }
template <typename T, typename = std::enable_if_t<std::is_integral_v<T> &&
                                                  !std::is_same_v<T, char> &&
                                                  !std::is_same_v<T, bool>>>
void appendTo(std::string &out, T value) {
  if constexpr (std::is_signed_v<T>)
    out += std::to_string(static_cast<long long>(value));
  else
    out += std::to_string(static_cast<unsigned long long>(value));
}

/// The concatenation of `parts` (strings, characters, integers).
template <typename... Parts> std::string concat(const Parts &...parts) {
  std::string out;
  (appendTo(out, parts), ...);
  return out;
}

/// A failure whose message is the concatenation of `parts`.
template <typename... Parts> Error makeError(const Parts &...parts) {
  return Error::failure(concat(parts...));
}

/// The message of `e` (empty on success), consuming it.
inline std::string toString(Error e) { return e.message(); }
/// Drops `e`: for failures the caller knowingly ignores (cleanup paths).
inline void consumeError(Error e) { (void)e; }

/// A value of type T, or the Error saying why there is none. T may be a
/// reference (the referred object is not copied).
template <typename T> class [[nodiscard]] Expected {
  using Stored =
      std::conditional_t<std::is_reference_v<T>,
                         std::reference_wrapper<std::remove_reference_t<T>>, T>;
  using Pointer = std::add_pointer_t<std::remove_reference_t<T>>;
  using Reference = std::add_lvalue_reference_t<T>;

public:
  Expected(Error e) : error(std::move(e)) {
    assert(error && "an Expected made from an Error holds a failure");
  }
  template <typename U, typename = std::enable_if_t<
                            !std::is_same_v<std::decay_t<U>, Error> &&
                            !std::is_same_v<std::decay_t<U>, Expected> &&
                            std::is_constructible_v<Stored, U &&>>>
  Expected(U &&value)
      : value(std::in_place, std::forward<U>(value)), error(Error::success()) {}

  /// True when it holds a value.
  explicit operator bool() const { return value.has_value(); }
  Reference get() {
    assert(value && "no value: check the Expected first");
    if constexpr (std::is_reference_v<T>)
      return value->get();
    else
      return *value;
  }
  const std::remove_reference_t<T> &get() const {
    return const_cast<Expected *>(this)->get();
  }
  Reference operator*() { return get(); }
  const std::remove_reference_t<T> &operator*() const { return get(); }
  Pointer operator->() { return &get(); }
  const std::remove_reference_t<T> *operator->() const { return &get(); }
  /// The failure (success when it holds a value), moved out.
  Error takeError() { return std::move(error); }

private:
  std::optional<Stored> value;
  Error error;
};

} // namespace hcq

#endif // HCQ_BASE_ERROR_H
