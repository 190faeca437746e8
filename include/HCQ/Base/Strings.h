//===- Strings.h - The string helpers the runtime needs ---------*- C++ -*-===//
//
// Hexadecimal, trimming, splitting and number parsing on std::string_view,
// without LLVM (C++17's string_view has no starts_with).
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_BASE_STRINGS_H
#define HCQ_BASE_STRINGS_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hcq {

/// `value` in hexadecimal digits, no prefix (lower case unless `upper`).
std::string toHex(uint64_t value, bool upper = false);

inline bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}
inline bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.substr(s.size() - suffix.size()) == suffix;
}
/// Drops `prefix` from the front of `s` if it is there; says whether it was.
inline bool consumeFront(std::string_view &s, std::string_view prefix) {
  if (!startsWith(s, prefix))
    return false;
  s.remove_prefix(prefix.size());
  return true;
}

/// `s` without leading and trailing blanks (space, tab, CR, LF, VT, FF).
std::string_view trim(std::string_view s);

/// `s` cut at the first `separator`: (before, after); (s, "") without one.
std::pair<std::string_view, std::string_view> splitOnce(std::string_view s,
                                                        char separator);
/// `s` cut at every `separator`, empty pieces dropped.
std::vector<std::string_view> splitAll(std::string_view s, char separator);

/// `s` as an unsigned number in `radix` (10 or 16; "0x" allowed with 16):
/// all of it, nothing else, no overflow.
std::optional<uint64_t> parseUnsigned(std::string_view s, unsigned radix = 10);
/// As parseUnsigned, with an optional leading '-'.
std::optional<int64_t> parseSigned(std::string_view s);

} // namespace hcq

#endif // HCQ_BASE_STRINGS_H
