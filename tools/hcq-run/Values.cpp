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

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>

using namespace llvm;

namespace hcq::run {

namespace {

Error failure(const Twine &why) {
  return createStringError(inconvertibleErrorCode(), why);
}

constexpr char NPY_MAGIC[] = "\x93NUMPY";
constexpr size_t NPY_MAGIC_BYTES = 6;

/// NumPy's descr for `type` (little-endian).
StringRef npyDescr(StringRef type) {
  return StringSwitch<StringRef>(type)
      .Case("f32", "<f4")
      .Case("f64", "<f8")
      .Case("i32", "<i4")
      .Case("i64", "<i8")
      .Default("");
}

/// Writes `v` as an element of `type` at `out`.
void storeElement(StringRef type, double v, uint8_t *out) {
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

double loadElement(StringRef type, const uint8_t *data, uint64_t i) {
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
Error checkInteger(StringRef type, double v, StringRef text) {
  if (type != "i32" && type != "i64")
    return Error::success();
  double limit = type == "i32" ? 2147483648.0 : 9223372036854775808.0;
  if (v != std::floor(v) || v < -limit || v >= limit)
    return failure("'" + text + "' is not an " + type);
  return Error::success();
}

/// The .npy file in `file`: its elements into `value`, whose type and
/// shape the spec gave and the file must match.
Error readNpy(StringRef path, StringRef file, TypedValue &value) {
  auto bad = [&](const Twine &why) {
    return failure(path + " is a .npy file " + why);
  };
  if (file.size() < NPY_MAGIC_BYTES + 4)
    return bad("cut short in its header");
  uint8_t major = file[NPY_MAGIC_BYTES];
  size_t lengthBytes = major == 1 ? 2 : 4;
  if (major < 1 || major > 3)
    return bad("of version " + Twine(unsigned(major)) +
               ", which hcq-run does not read");
  size_t at = NPY_MAGIC_BYTES + 2;
  if (file.size() < at + lengthBytes)
    return bad("cut short in its header");
  uint64_t headerBytes = lengthBytes == 2
                             ? support::endian::read16le(file.data() + at)
                             : support::endian::read32le(file.data() + at);
  at += lengthBytes;
  if (file.size() - at < headerBytes)
    return bad("cut short in its header");
  StringRef header = file.substr(at, headerBytes);
  at += headerBytes;
  // The dict's three keys, as NumPy writes them.
  auto field = [&](StringRef key) -> StringRef {
    size_t k = header.find("'" + key.str() + "'");
    if (k == StringRef::npos)
      return "";
    StringRef rest = header.drop_front(k + key.size() + 2).ltrim();
    if (!rest.consume_front(":"))
      return "";
    return rest.ltrim();
  };
  StringRef descr = field("descr");
  if (!descr.consume_front("'"))
    return bad("without a 'descr'");
  descr = descr.take_until([](char c) { return c == '\''; });
  StringRef want = npyDescr(value.type);
  // '|' and '=' say the byte order does not matter or is the machine's,
  // little-endian here.
  if (descr.size() == 3 && (descr[0] == '|' || descr[0] == '='))
    descr = descr.drop_front();
  if (descr != want && descr != want.drop_front())
    return bad("of dtype '" + descr + "', not " + value.type + " ('" + want +
               "')");
  if (field("fortran_order").starts_with("True")) {
    bool matrix =
        llvm::count_if(value.shape, [](uint64_t d) { return d > 1; }) > 1;
    if (matrix)
      return bad("in Fortran order; hcq-run reads C order");
  }
  StringRef shapeText = field("shape");
  if (!shapeText.consume_front("("))
    return bad("without a 'shape'");
  shapeText = shapeText.take_until([](char c) { return c == ')'; });
  SmallVector<StringRef> dims;
  shapeText.split(dims, ',', -1, /*KeepEmpty=*/false);
  std::vector<uint64_t> shape;
  for (StringRef d : dims) {
    uint64_t n;
    if (d.trim().getAsInteger(10, n))
      return bad("with shape '(" + shapeText + ")'");
    shape.push_back(n);
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
    return bad("of " + Twine(file.size() - at) + " data bytes, not " +
               Twine(value.bytes.size()));
  std::memcpy(value.bytes.data(), file.data() + at, value.bytes.size());
  return Error::success();
}

} // namespace

uint64_t TypedValue::count() const {
  uint64_t n = 1;
  for (uint64_t d : shape)
    n *= d;
  return n;
}

std::optional<unsigned> elementBytes(StringRef type) {
  if (type == "f32" || type == "i32")
    return 4;
  if (type == "f64" || type == "i64")
    return 8;
  return std::nullopt;
}

Expected<std::unique_ptr<MemoryBuffer>> readRegularFile(StringRef path) {
  sys::fs::file_status status;
  if (!sys::fs::status(path, status) && !sys::fs::is_regular_file(status))
    return failure("cannot read '" + path + "': not a regular file");
  auto file = MemoryBuffer::getFile(path, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
  if (!file)
    return failure("cannot read '" + path + "': " + file.getError().message());
  return std::move(*file);
}

Expected<TypedValue> parseTypedValue(StringRef spec, uint64_t maxBytes) {
  auto [typeText, valueText] = spec.split('=');
  if (valueText.empty() && !spec.contains('='))
    return failure("bad value '" + spec +
                   "' (expected [DIMSx]TYPE=VALUE, as in 4x64xf32=@x.npy, "
                   "64xf32=0.5 or i32=7)");
  TypedValue value;
  SmallVector<StringRef> parts;
  typeText.split(parts, 'x');
  value.type = parts.pop_back_val().str();
  std::optional<unsigned> size = elementBytes(value.type);
  if (!size)
    return failure("bad value '" + spec + "': element type '" + value.type +
                   "' (hcq-run reads f32, f64, i32 and i64)");
  uint64_t count = 1;
  for (StringRef d : parts) {
    uint64_t n;
    if (d.getAsInteger(10, n) || n == 0)
      return failure("bad value '" + spec + "': dimension '" + d + "'");
    value.shape.push_back(n);
    if (count > maxBytes / *size / n)
      return failure("value '" + spec + "' is more than " + Twine(maxBytes) +
                     " bytes (--max-buffer-bytes)");
    count *= n;
  }
  value.bytes.assign(count * *size, 0);
  if (valueText.consume_front("@")) {
    Expected<std::unique_ptr<MemoryBuffer>> file = readRegularFile(valueText);
    if (!file)
      return file.takeError();
    StringRef contents = (*file)->getBuffer();
    // The content decides: NumPy's magic, else raw elements.
    if (contents.starts_with(StringRef(NPY_MAGIC, NPY_MAGIC_BYTES))) {
      if (Error e = readNpy(valueText, contents, value))
        return std::move(e);
      return value;
    }
    if (contents.size() != value.bytes.size())
      return failure(valueText + " holds " + Twine(contents.size()) +
                     " bytes; " + typeText + " is " +
                     Twine(value.bytes.size()) +
                     " (raw little-endian elements, or a .npy file)");
    std::memcpy(value.bytes.data(), contents.data(), contents.size());
    return value;
  }
  // Numbers separated by spaces or commas.
  SmallVector<StringRef> numbers;
  for (StringRef rest = valueText.trim(); !rest.empty();) {
    size_t end = rest.find_first_of(" ,");
    StringRef number = rest.take_front(end);
    if (!number.empty())
      numbers.push_back(number);
    rest = end == StringRef::npos ? StringRef() : rest.drop_front(end + 1);
  }
  if (numbers.size() != 1 && numbers.size() != count)
    return failure("value '" + spec + "' gives " + Twine(numbers.size()) +
                   " numbers for " + Twine(count) +
                   " elements (give one, "
                   "for all, or every one)");
  for (uint64_t i = 0; i < count; ++i) {
    StringRef text = numbers[numbers.size() == 1 ? 0 : i];
    double v;
    if (text.getAsDouble(v))
      return failure("bad value '" + spec + "': '" + text +
                     "' is not a number");
    if (Error e = checkInteger(value.type, v, text))
      return failure("bad value '" + spec + "': " + toString(std::move(e)));
    storeElement(value.type, v, value.bytes.data() + i * *size);
  }
  return value;
}

Error writeValue(StringRef path, StringRef type, const uint8_t *data,
                 uint64_t count) {
  std::error_code ec;
  raw_fd_ostream os(path, ec, sys::fs::OF_None);
  if (ec)
    return failure("cannot write '" + path + "': " + ec.message());
  uint64_t bytes = count * elementBytes(type).value_or(0);
  if (path.ends_with(".npy")) {
    std::string header = "{'descr': '" + npyDescr(type).str() +
                         "', 'fortran_order': False, 'shape': (" +
                         std::to_string(count) + ",), }";
    // Version 1: magic, 2 version bytes, u16 length, then the header padded
    // so the data starts at a multiple of 64 bytes, ending in a newline.
    size_t total = NPY_MAGIC_BYTES + 4 + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    header += '\n';
    os.write(NPY_MAGIC, NPY_MAGIC_BYTES);
    os << char(1) << char(0);
    char length[2];
    support::endian::write16le(length, uint16_t(header.size()));
    os.write(length, 2);
    os << header;
  }
  os.write(reinterpret_cast<const char *>(data), bytes);
  os.close();
  if (os.has_error())
    return failure("cannot write '" + path + "': " + os.error().message());
  return Error::success();
}

std::optional<std::string> compareValues(StringRef type, const uint8_t *actual,
                                         uint64_t count,
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
             (floating ? " (threshold " +
                             formatv("{0}", format("%g", threshold)).str() + ")"
                       : "");
  }
  return std::nullopt;
}

std::string formatElement(StringRef type, const uint8_t *data, uint64_t i) {
  double v = loadElement(type, data, i);
  if (type == "f32" || type == "f64")
    return formatv("{0}", format("%g", v)).str();
  return std::to_string(int64_t(v));
}

} // namespace hcq::run
