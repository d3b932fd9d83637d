#include "src/attention/bias_policy.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "src/util/parse.h"

namespace eie {

std::vector<std::string> bias_policy_names() { return {"none", "fixed", "logn", "sqrtn", "entropy"}; }

namespace {
BiasParts parse_parts(const std::string& text, const std::string& spec) {
  if (text == "all") return {};
  const auto refuse = [&] {
    return std::invalid_argument("--bias '" + spec + "': where it applies is all or a comma list "
                                 "of encoder, glimpse, pointer; got '" + text + "'");
  };
  BiasParts parts{false, false, false};
  std::stringstream list(text);
  for (std::string part; std::getline(list, part, ',');) {
    if (part == "encoder") parts.encoder = true;
    else if (part == "glimpse") parts.glimpse = true;
    else if (part == "pointer") parts.pointer = true;
    else throw refuse();
  }
  if (!parts.encoder && !parts.glimpse && !parts.pointer) throw refuse();
  return parts;
}
}  // namespace

BiasSpec parse_bias_spec(const std::string& whole) {
  const auto at = whole.rfind('@');
  const std::string text = whole.substr(0, at);
  const auto colon = text.find(':');
  BiasSpec spec{text.substr(0, colon), std::nullopt, ""};
  if (at != std::string::npos) spec.parts = parse_parts(whole.substr(at + 1), whole);
  const std::string argument = colon == std::string::npos ? "" : text.substr(colon + 1);
  if (spec.name.empty() && whole.empty()) return spec;
  if (spec.name == "none" || spec.name == "entropy") {
    if (spec.name == "none" && colon != std::string::npos) {
      throw std::invalid_argument("--bias none takes no argument: '" + text + "'");
    }
    spec.file = argument;
    return spec;
  }
  if (spec.name == "fixed" || spec.name == "logn" || spec.name == "sqrtn") {
    if (colon != std::string::npos) {
      spec.beta = parse_double(argument, "beta of --bias '" + text + "'");
      if (!std::isfinite(*spec.beta) || *spec.beta < 0) {
        throw std::invalid_argument("--bias '" + text + "': beta must be finite and >= 0");
      }
    }
    return spec;
  }
  std::string known;
  for (const auto& name : bias_policy_names()) known += (known.empty() ? "" : ", ") + name;
  throw std::invalid_argument("unknown bias policy '" + spec.name + "' (known: " + known + ")");
}

double bias_growth(const std::string& name, int64_t n, int64_t train_n) {
  if (name == "logn") {
    if (train_n < 2) throw std::invalid_argument("--bias logn needs a training size N >= 2");
    return std::log(static_cast<double>(n)) / std::log(static_cast<double>(train_n));
  }
  if (name == "sqrtn") return std::sqrt(static_cast<double>(n) / static_cast<double>(train_n));
  if (name == "fixed") return 1.0;
  throw std::logic_error("bias_growth: '" + name + "' has no closed form");
}

std::string checked_bias_growth(const std::string& name, const std::string& what) {
  if (name == "fixed" || name == "logn" || name == "sqrtn") return name;
  throw std::invalid_argument(what + " '" + excerpt(name) + "': expected fixed, logn or sqrtn");
}

std::string bias_label(const BiasSpec& spec) {
  if (spec.as_trained()) return "bias as trained";
  const auto& p = spec.parts;
  const auto parts =
      names_of_enabled({{p.encoder, "encoder"}, {p.glimpse, "glimpse"}, {p.pointer, "pointer"}});
  const bool everywhere = p.encoder && p.glimpse && p.pointer;
  return "bias " + spec.name + (spec.beta ? " " + shortest_text(*spec.beta) : "") +
         (everywhere ? "" : " (" + parts + ")");
}

}  // namespace eie
