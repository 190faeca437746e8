//===- CommandLine.h - hcq-run's options, without LLVM ----------*- C++ -*-===//
//
// A small parser for `--name=value`, `--name value` (one dash works too) and
// flags, keeping each option's every occurrence with its position among the
// arguments: hcq-run gives each --arg to the executable before it.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_TOOLS_HCQ_RUN_COMMANDLINE_H
#define HCQ_TOOLS_HCQ_RUN_COMMANDLINE_H

#include "HCQ/Base/Error.h"
#include "HCQ/Base/Span.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hcq::run {

struct OptionInfo {
  const char *name;      // "runs"
  const char *valueName; // "N"; null for a flag
  const char *help;
};

/// One appearance on the command line: its value and its position among
/// the arguments (argv index).
struct Occurrence {
  std::string value;
  unsigned position = 0;
};

class CommandLine {
public:
  /// Parses argv[1..]; an unknown option, a missing value or a value given
  /// to a flag is an error naming it. "--" ends the options.
  static Expected<CommandLine> parse(int argc, char **argv,
                                     Span<const OptionInfo> options);

  /// Every occurrence of option `name`, in order.
  const std::vector<Occurrence> &all(const std::string &name) const;
  bool has(const std::string &name) const { return !all(name).empty(); }
  /// The last occurrence's value, if any.
  std::optional<std::string> last(const std::string &name) const;

  std::vector<Occurrence> positionals;

private:
  std::map<std::string, std::vector<Occurrence>, std::less<>> occurrences;
};

/// The --help text: `usage`, then each option with its value and help.
std::string formatHelp(const std::string &usage,
                       Span<const OptionInfo> options);

} // namespace hcq::run

#endif // HCQ_TOOLS_HCQ_RUN_COMMANDLINE_H
