//===- CommandLine.cpp - hcq-run's options, without LLVM ------------------===//

#include "CommandLine.h"

#include "HCQ/Base/Strings.h"

namespace hcq::run {

Expected<CommandLine> CommandLine::parse(int argc, char **argv,
                                         Span<const OptionInfo> options) {
  CommandLine result;
  bool optionsEnded = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (optionsEnded || arg.size() < 2 || arg[0] != '-') {
      result.positionals.push_back({std::string(arg), unsigned(i)});
      continue;
    }
    if (arg == "--") {
      optionsEnded = true;
      continue;
    }
    std::string_view body = arg.substr(arg[1] == '-' ? 2 : 1);
    auto [name, value] = splitOnce(body, '=');
    bool hasValue = name.size() != body.size();
    const OptionInfo *info = nullptr;
    for (const OptionInfo &option : options)
      if (name == option.name)
        info = &option;
    if (!info)
      return makeError("unknown option '", arg, "' (see --help)");
    std::string text(value);
    if (!info->valueName) {
      // A flag: alone, or =true/=false.
      if (hasValue && value != "true" && value != "false")
        return makeError("option '--", name,
                         "' is a flag: give it alone, or =true or =false");
      if (value == "false") {
        result.occurrences[std::string(name)].clear();
        continue;
      }
      text = "true";
    } else if (!hasValue) {
      if (i + 1 >= argc)
        return makeError("option '--", name, "' needs a value (--", name, "=",
                         info->valueName, ")");
      text = argv[++i];
    }
    result.occurrences[std::string(name)].push_back(
        {std::move(text), unsigned(i)});
  }
  return result;
}

const std::vector<Occurrence> &CommandLine::all(const std::string &name) const {
  static const std::vector<Occurrence> none;
  auto it = occurrences.find(name);
  return it == occurrences.end() ? none : it->second;
}

std::optional<std::string> CommandLine::last(const std::string &name) const {
  const std::vector<Occurrence> &found = all(name);
  if (found.empty())
    return std::nullopt;
  return found.back().value;
}

std::string formatHelp(const std::string &usage,
                       Span<const OptionInfo> options) {
  std::string out = "USAGE: " + usage + "\n\nhcq-run options:\n";
  for (const OptionInfo &option : options) {
    std::string spelling = concat("  --", option.name);
    if (option.valueName)
      spelling += concat("=<", option.valueName, ">");
    out += spelling;
    // The help starts in column 32, or on the next line for a long name.
    if (spelling.size() + 2 > 32)
      out += "\n" + std::string(32, ' ');
    else
      out += std::string(32 - spelling.size(), ' ');
    out += concat(option.help, "\n");
  }
  return out;
}

} // namespace hcq::run
