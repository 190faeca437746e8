//===- Error.h - Errors and expected values without LLVM --------*- C++ -*-===//
//
// The runtime's error type: a failure carries a code (what kind of failure,
// for programs to act on) and a message that names the problem (for
// people); success is a null pointer. Modelled on llvm::Error / Expected (the
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

/// What kind of failure an Error is. The C API's hcq_status_code_t has the
/// same numbers (include/hcq-c/runtime.h); tests check codes, not messages.
enum class ErrorCode : uint32_t {
  /// A call was given something it cannot take: a null handle, a value out
  /// of range, an argument the executable does not have.
  InvalidArgument = 1,
  /// A failure that is none of the others: a bug, or a system call that
  /// failed for a reason the runtime cannot name better.
  Internal = 2,
  /// A wait did not finish within its timeout: a hang.
  DeadlineExceeded = 3,
  /// A device faulted (a packet it cannot execute, a page fault, a kernel
  /// that crashed): its queues are stopped.
  DeviceFault = 4,
  /// A file (or bytes given as one) is not what it claims: truncated,
  /// corrupt, foreign or too large.
  InvalidFile = 5,
  /// Memory (host or device) could not be had.
  OutOfMemory = 6,
  /// What was asked for is not here: no such device, driver or library.
  Unavailable = 7,
  /// The call is valid, but not in the state things are in: a device
  /// opened with other options, an executable still running.
  FailedPrecondition = 8,
};

/// "invalid argument", "hang", ...
const char *getErrorCodeName(ErrorCode code);

/// Success, or a failure with a code and a message. Testing it (`if (e)`) is
/// true for a failure, as for llvm::Error.
class [[nodiscard]] Error {
public:
  static Error success() { return Error(); }
  /// A failure of code Internal.
  static Error failure(std::string message) {
    return failure(ErrorCode::Internal, std::move(message));
  }
  static Error failure(ErrorCode code, std::string message) {
    Error e;
    e.failed = std::make_unique<Failed>(Failed{code, std::move(message)});
    return e;
  }

  Error(Error &&) noexcept = default;
  Error &operator=(Error &&) noexcept = default;
  Error(const Error &) = delete;
  Error &operator=(const Error &) = delete;

  explicit operator bool() const { return failed != nullptr; }
  /// The failure's message; empty on success.
  const std::string &message() const {
    static const std::string none;
    return failed ? failed->message : none;
  }
  /// The failure's code. Only for a failure.
  ErrorCode code() const {
    assert(failed && "success has no code");
    return failed->code;
  }

private:
  Error() = default;
  struct Failed {
    ErrorCode code;
    std::string message;
  };
  std::unique_ptr<Failed> failed;
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

/// A failure (code Internal) whose message is the concatenation of `parts`.
template <typename... Parts> Error makeError(const Parts &...parts) {
  return Error::failure(concat(parts...));
}
/// A failure of `code` whose message is the concatenation of `parts`.
template <typename... Parts>
Error makeError(ErrorCode code, const Parts &...parts) {
  return Error::failure(code, concat(parts...));
}

/// `e` (a failure) with `prefix` before its message, its code kept: for
/// adding where a failure happened ("AMD:0: ").
inline Error prependContext(std::string_view prefix, Error e) {
  assert(e && "only a failure has a message to prepend to");
  return Error::failure(e.code(), std::string(prefix) + e.message());
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
