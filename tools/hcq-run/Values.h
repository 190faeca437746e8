//===- Values.h - hcq-run's typed inputs and outputs ------------*- C++ -*-===//
//
// The `--input`, `--output` and `--expected_output` values of hcq-run, in
// iree-run-module's spelling: `[DIMSx]TYPE=VALUE` where DIMS is `4x64`,
// TYPE `f32`, `f64`, `i32` or `i64`, and VALUE a number (a scalar, or every
// element of a shaped value), a list of numbers separated by spaces or
// commas, or `@FILE`: a NumPy .npy file when its first bytes say so, raw
// little-endian elements otherwise (decided by the content, not the name).
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_TOOLS_HCQ_RUN_VALUES_H
#define HCQ_TOOLS_HCQ_RUN_VALUES_H

#include "HCQ/Base/Error.h"
#include "HCQ/Base/Span.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hcq::run {

/// A parsed value: its element type, its shape (empty for a scalar) and
/// its elements' bytes.
struct TypedValue {
  std::string type;
  std::vector<uint64_t> shape;
  std::vector<uint8_t> bytes;
  bool isScalar() const { return shape.empty(); }
  uint64_t count() const;
};

/// Bytes of one element of `type`, or nothing for a type hcq-run does not
/// read.
std::optional<unsigned> elementBytes(std::string_view type);

/// `text` as a number (decimal, exponent, inf, nan), all of it.
std::optional<double> parseNumber(std::string_view text);

/// Parses `spec`, refusing values of more than `maxBytes`. A file (`@FILE`)
/// is read only if it is no larger than the value and a .npy header can
/// be: a larger one is refused, naming both sizes, before it is read.
Expected<TypedValue> parseTypedValue(std::string_view spec, uint64_t maxBytes);

/// Writes `count` elements of `type` from each of `lanes` to `path`: a
/// .npy file when the name ends in .npy (of shape (count,) for one lane,
/// (lanes, count) for several), raw bytes otherwise (lane after lane).
Error writeValue(const std::string &path, std::string_view type,
                 Span<const uint8_t *const> lanes, uint64_t count);

/// Compares `count` elements of `type` at `actual` with `expected` (one
/// element is every element), floats within `threshold`; the first
/// mismatch, or nothing.
std::optional<std::string> compareValues(std::string_view type,
                                         const uint8_t *actual, uint64_t count,
                                         const TypedValue &expected,
                                         double threshold);

/// Element `i` of `type` at `data`, as printed.
std::string formatElement(std::string_view type, const uint8_t *data,
                          uint64_t i);

} // namespace hcq::run

#endif // HCQ_TOOLS_HCQ_RUN_VALUES_H
