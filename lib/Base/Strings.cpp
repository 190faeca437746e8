//===- Strings.cpp - The string helpers the runtime needs -----------------===//

#include "HCQ/Base/Strings.h"

#include <limits>

namespace hcq {

std::string toHex(uint64_t value, bool upper) {
  const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  char buffer[16];
  int n = 0;
  do {
    buffer[15 - n++] = digits[value & 15];
    value >>= 4;
  } while (value);
  return std::string(buffer + 16 - n, n);
}

std::string_view trim(std::string_view s) {
  const char *blanks = " \t\r\n\v\f";
  size_t first = s.find_first_not_of(blanks);
  if (first == std::string_view::npos)
    return {};
  return s.substr(first, s.find_last_not_of(blanks) - first + 1);
}

std::pair<std::string_view, std::string_view> splitOnce(std::string_view s,
                                                        char separator) {
  size_t at = s.find(separator);
  if (at == std::string_view::npos)
    return {s, {}};
  return {s.substr(0, at), s.substr(at + 1)};
}

std::vector<std::string_view> splitAll(std::string_view s, char separator) {
  std::vector<std::string_view> pieces;
  size_t start = 0;
  while (start <= s.size()) {
    size_t at = s.find(separator, start);
    if (at == std::string_view::npos)
      at = s.size();
    if (at > start)
      pieces.push_back(s.substr(start, at - start));
    start = at + 1;
  }
  return pieces;
}

std::optional<uint64_t> parseUnsigned(std::string_view s, unsigned radix) {
  if (radix == 16)
    (void)(consumeFront(s, "0x") || consumeFront(s, "0X"));
  if (s.empty())
    return std::nullopt;
  uint64_t value = 0;
  for (char c : s) {
    unsigned digit;
    if (c >= '0' && c <= '9')
      digit = c - '0';
    else if (radix == 16 && c >= 'a' && c <= 'f')
      digit = c - 'a' + 10;
    else if (radix == 16 && c >= 'A' && c <= 'F')
      digit = c - 'A' + 10;
    else
      return std::nullopt;
    if (digit >= radix ||
        value > (std::numeric_limits<uint64_t>::max() - digit) / radix)
      return std::nullopt;
    value = value * radix + digit;
  }
  return value;
}

std::optional<int64_t> parseSigned(std::string_view s) {
  bool negative = consumeFront(s, "-");
  std::optional<uint64_t> magnitude = parseUnsigned(s);
  if (!magnitude)
    return std::nullopt;
  uint64_t limit = uint64_t(std::numeric_limits<int64_t>::max()) + negative;
  if (*magnitude > limit)
    return std::nullopt;
  return negative ? int64_t(0 - *magnitude) : int64_t(*magnitude);
}

} // namespace hcq
