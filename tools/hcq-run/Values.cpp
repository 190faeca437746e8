//===- Values.cpp - hcq-run's typed inputs and outputs --------------------===//
//
// The NumPy .npy layout is NumPy's "format" module's (NEP 1): the magic
// "\x93NUMPY", a major and minor version byte, the header's length (u16 in
// version 1, u32 in 2 and 3, little-endian), then the header, a Python dict
// literal with 'descr', 'fortran_order' and 'shape', padded with spaces and
// a newline so the data starts at a multiple of 64 bytes.
//
//===----------------------------------------------------------------------===//

#include "Values.h"

#include "HCQ/Base/Bytes.h"
#include "HCQ/Base/File.h"
#include "HCQ/Base/Strings.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace hcq::run {

namespace {

constexpr char NPY_MAGIC[] = "\x93NUMPY";
constexpr size_t NPY_MAGIC_BYTES = 6;
/// The most bytes of header a .npy input may have beyond its data (NumPy
/// writes at most 64 KiB in version 1, and versions 2 and 3 only for
/// headers longer than that): a file larger than its value by more is
/// refused before it is read.
constexpr uint64_t NPY_MAX_HEADER_BYTES = uint64_t(1) << 20;

/// NumPy's descr for `type` (little-endian).
std::string_view npyDescr(std::string_view type) {
  if (type == "f32")
    return "<f4";
  if (type == "f64")
    return "<f8";
  if (type == "i32")
    return "<i4";
  if (type == "i64")
    return "<i8";
  return "";
}

/// Writes `v` as an element of `type` at `out`.
void storeElement(std::string_view type, double v, uint8_t *out) {
  if (type == "f32") {
    float f = float(v);
    std::memcpy(out, &f, 4);
  } else if (type == "f64") {
    std::memcpy(out, &v, 8);
  } else if (type == "i32") {
    int32_t n = int32_t(v);
    std::memcpy(out, &n, 4);
  } else {
    int64_t n = int64_t(v);
    std::memcpy(out, &n, 8);
  }
}

double loadElement(std::string_view type, const uint8_t *data, uint64_t i) {
  if (type == "f32") {
    float f;
    std::memcpy(&f, data + 4 * i, 4);
    return f;
  }
  if (type == "f64") {
    double d;
    std::memcpy(&d, data + 8 * i, 8);
    return d;
  }
  if (type == "i32") {
    int32_t n;
    std::memcpy(&n, data + 4 * i, 4);
    return n;
  }
  int64_t n;
  std::memcpy(&n, data + 8 * i, 8);
  return double(n);
}

/// An integer element must be a whole number in its type's range.
Error checkInteger(std::string_view type, double v, std::string_view text) {
  if (type != "i32" && type != "i64")
    return Error::success();
  double limit = type == "i32" ? 2147483648.0 : 9223372036854775808.0;
  if (v != std::floor(v) || v < -limit || v >= limit)
    return makeError(ErrorCode::InvalidArgument, "'", text, "' is not an ",
                     type);
  return Error::success();
}

/// `s` without leading blanks.
std::string_view trimFront(std::string_view s) {
  size_t first = s.find_first_not_of(" \t\r\n");
  return first == std::string_view::npos ? std::string_view() : s.substr(first);
}

/// `s` up to (not including) the first `c`.
std::string_view takeUntil(std::string_view s, char c) {
  return s.substr(0, s.find(c));
}

/// The .npy file in `file`: its elements into `value`, whose type and
/// shape the spec gave and the file must match.
Error readNpy(std::string_view path, std::string_view file, TypedValue &value) {
  auto bad = [&](const std::string &why) {
    return makeError(ErrorCode::InvalidFile, path, " is a .npy file ", why);
  };
  if (file.size() < NPY_MAGIC_BYTES + 4)
    return bad("cut short in its header");
  uint8_t major = file[NPY_MAGIC_BYTES];
  size_t lengthBytes = major == 1 ? 2 : 4;
  if (major < 1 || major > 3)
    return bad(concat("of version ", unsigned(major),
                      ", which hcq-run does not read"));
  size_t at = NPY_MAGIC_BYTES + 2;
  if (file.size() < at + lengthBytes)
    return bad("cut short in its header");
  uint64_t headerBytes =
      lengthBytes == 2
          ? uint64_t(uint8_t(file[at])) | uint64_t(uint8_t(file[at + 1])) << 8
          : read32le(file.data() + at);
  at += lengthBytes;
  if (file.size() - at < headerBytes)
    return bad("cut short in its header");
  std::string_view header = file.substr(at, headerBytes);
  at += headerBytes;
  // The dict's three keys, as NumPy writes them.
  auto field = [&](std::string_view key) -> std::string_view {
    size_t k = header.find(concat("'", key, "'"));
    if (k == std::string_view::npos)
      return "";
    std::string_view rest = trimFront(header.substr(k + key.size() + 2));
    if (!consumeFront(rest, ":"))
      return "";
    return trimFront(rest);
  };
  std::string_view descr = field("descr");
  if (!consumeFront(descr, "'"))
    return bad("without a 'descr'");
  descr = takeUntil(descr, '\'');
  std::string_view want = npyDescr(value.type);
  // '|' and '=' say the byte order does not matter or is the machine's,
  // little-endian here.
  if (descr.size() == 3 && (descr[0] == '|' || descr[0] == '='))
    descr.remove_prefix(1);
  if (descr != want && descr != want.substr(1))
    return bad(
        concat("of dtype '", descr, "', not ", value.type, " ('", want, "')"));
  if (startsWith(field("fortran_order"), "True")) {
    bool matrix = std::count_if(value.shape.begin(), value.shape.end(),
                                [](uint64_t d) { return d > 1; }) > 1;
    if (matrix)
      return bad("in Fortran order; hcq-run reads C order");
  }
  std::string_view shapeText = field("shape");
  if (!consumeFront(shapeText, "("))
    return bad("without a 'shape'");
  shapeText = takeUntil(shapeText, ')');
  std::vector<uint64_t> shape;
  for (std::string_view d : splitAll(shapeText, ',')) {
    std::optional<uint64_t> n = parseUnsigned(trim(d));
    if (!n)
      return bad(concat("with shape '(", shapeText, ")'"));
    shape.push_back(*n);
  }
  if (shape != value.shape) {
    std::string got, expected;
    for (uint64_t d : shape)
      got += (got.empty() ? "" : "x") + std::to_string(d);
    for (uint64_t d : value.shape)
      expected += (expected.empty() ? "" : "x") + std::to_string(d);
    return bad("of shape " + (got.empty() ? "()" : got) + ", not " + expected);
  }
  if (file.size() - at != value.bytes.size())
    return bad(concat("of ", file.size() - at, " data bytes, not ",
                      value.bytes.size()));
  std::memcpy(value.bytes.data(), file.data() + at, value.bytes.size());
  return Error::success();
}

/// `v` as printf's %g writes it.
std::string formatG(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

} // namespace

std::optional<double> parseNumber(std::string_view text) {
  if (text.empty() || text.front() == ' ' || text.front() == '\t')
    return std::nullopt;
  std::string copy(text);
  char *end = nullptr;
  double v = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size())
    return std::nullopt;
  return v;
}

uint64_t TypedValue::count() const {
  uint64_t n = 1;
  for (uint64_t d : shape)
    n *= d;
  return n;
}

std::optional<unsigned> elementBytes(std::string_view type) {
  if (type == "f32" || type == "i32")
    return 4;
  if (type == "f64" || type == "i64")
    return 8;
  return std::nullopt;
}

Expected<TypedValue> parseTypedValue(std::string_view spec, uint64_t maxBytes) {
  if (spec.find('=') == std::string_view::npos)
    return makeError(ErrorCode::InvalidArgument, "bad value '", spec,
                     "' (expected [DIMSx]TYPE=VALUE, as in 4x64xf32=@x.npy, "
                     "64xf32=0.5 or i32=7)");
  auto [typeText, valueText] = splitOnce(spec, '=');
  TypedValue value;
  // DIMSx...xTYPE: the pieces between 'x's, the last the type.
  std::vector<std::string_view> parts;
  for (std::string_view rest = typeText;;) {
    auto [part, tail] = splitOnce(rest, 'x');
    parts.push_back(part);
    if (part.size() == rest.size())
      break;
    rest = tail;
  }
  value.type = std::string(parts.back());
  parts.pop_back();
  std::optional<unsigned> size = elementBytes(value.type);
  if (!size)
    return makeError(ErrorCode::InvalidArgument, "bad value '", spec,
                     "': element type '", value.type,
                     "' (hcq-run reads f32, f64, i32 and i64)");
  uint64_t count = 1;
  for (std::string_view d : parts) {
    std::optional<uint64_t> n = parseUnsigned(d);
    if (!n || *n == 0)
      return makeError(ErrorCode::InvalidArgument, "bad value '", spec,
                       "': dimension '", d, "'");
    value.shape.push_back(*n);
    if (count > maxBytes / *size / *n)
      return makeError(ErrorCode::InvalidArgument, "value '", spec,
                       "' is more than ", maxBytes,
                       " bytes (--max-buffer-bytes)");
    count *= *n;
  }
  value.bytes.assign(count * *size, 0);
  if (consumeFront(valueText, "@")) {
    // Read only what the value can need: its bytes, and a .npy header.
    Expected<RegularFile> file = RegularFile::open(std::string(valueText));
    if (!file)
      return file.takeError();
    auto wrongSize = [&, path = valueText, type = typeText](uint64_t size) {
      return makeError(ErrorCode::InvalidFile, path, " holds ", size,
                       " bytes; ", type, " is ", value.bytes.size(),
                       " (raw little-endian elements, or a .npy file)");
    };
    if (file->size() > value.bytes.size() + NPY_MAX_HEADER_BYTES)
      return wrongSize(file->size());
    std::vector<uint8_t> bytes(file->size());
    if (Error e = file->read(0, bytes))
      return std::move(e);
    std::string_view contents(reinterpret_cast<const char *>(bytes.data()),
                              bytes.size());
    // The content decides: NumPy's magic, else raw elements.
    if (startsWith(contents, std::string_view(NPY_MAGIC, NPY_MAGIC_BYTES))) {
      if (Error e = readNpy(valueText, contents, value))
        return std::move(e);
      return value;
    }
    if (contents.size() != value.bytes.size())
      return wrongSize(contents.size());
    std::memcpy(value.bytes.data(), contents.data(), contents.size());
    return value;
  }
  // Numbers separated by spaces or commas.
  std::vector<std::string_view> numbers;
  for (std::string_view rest = trim(valueText); !rest.empty();) {
    size_t end = rest.find_first_of(" ,");
    std::string_view number = rest.substr(0, end);
    if (!number.empty())
      numbers.push_back(number);
    rest = end == std::string_view::npos ? std::string_view()
                                         : rest.substr(end + 1);
  }
  if (numbers.size() != 1 && numbers.size() != count)
    return makeError(ErrorCode::InvalidArgument, "value '", spec, "' gives ",
                     numbers.size(), " numbers for ", count,
                     " elements (give one, for all, or every one)");
  for (uint64_t i = 0; i < count; ++i) {
    std::string_view text = numbers[numbers.size() == 1 ? 0 : i];
    std::optional<double> v = parseNumber(text);
    if (!v)
      return makeError(ErrorCode::InvalidArgument, "bad value '", spec, "': '",
                       text, "' is not a number");
    if (Error e = checkInteger(value.type, *v, text))
      return makeError(ErrorCode::InvalidArgument, "bad value '", spec,
                       "': ", toString(std::move(e)));
    storeElement(value.type, *v, value.bytes.data() + i * *size);
  }
  return value;
}

Error writeValue(const std::string &path, std::string_view type,
                 Span<const uint8_t *const> lanes, uint64_t count) {
  uint64_t bytes = count * elementBytes(type).value_or(0);
  std::string file;
  if (endsWith(path, ".npy")) {
    std::string shape = lanes.size() == 1
                            ? concat("(", count, ",)")
                            : concat("(", lanes.size(), ", ", count, ")");
    std::string header =
        concat("{'descr': '", npyDescr(type),
               "', 'fortran_order': False, 'shape': ", shape, ", }");
    // Version 1: magic, 2 version bytes, u16 length, then the header padded
    // so the data starts at a multiple of 64 bytes, ending in a newline.
    size_t total = NPY_MAGIC_BYTES + 4 + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    header += '\n';
    file.append(NPY_MAGIC, NPY_MAGIC_BYTES);
    file += char(1);
    file += char(0);
    file += char(header.size() & 0xff);
    file += char(header.size() >> 8);
    file += header;
  }
  for (const uint8_t *lane : lanes)
    file.append(reinterpret_cast<const char *>(lane), bytes);
  return writeFile(path, file.data(), file.size());
}

std::optional<std::string> compareValues(std::string_view type,
                                         const uint8_t *actual, uint64_t count,
                                         const TypedValue &expected,
                                         double threshold) {
  uint64_t given = expected.count();
  if (given != 1 && given != count)
    return "it has " + std::to_string(count) + " elements, the expected " +
           "value " + std::to_string(given);
  for (uint64_t i = 0; i < count; ++i) {
    double got = loadElement(type, actual, i),
           want = loadElement(expected.type, expected.bytes.data(),
                              given == 1 ? 0 : i);
    bool floating = type == "f32" || type == "f64";
    bool same = floating ? std::fabs(got - want) <= threshold ||
                               (std::isnan(got) && std::isnan(want))
                         : got == want;
    if (!same)
      return "element " + std::to_string(i) + " is " +
             formatElement(type, actual, i) + ", expected " +
             formatElement(expected.type, expected.bytes.data(),
                           given == 1 ? 0 : i) +
             (floating ? " (threshold " + formatG(threshold) + ")" : "");
  }
  return std::nullopt;
}

std::string formatElement(std::string_view type, const uint8_t *data,
                          uint64_t i) {
  double v = loadElement(type, data, i);
  if (type == "f32" || type == "f64")
    return formatG(v);
  return std::to_string(int64_t(v));
}

} // namespace hcq::run
