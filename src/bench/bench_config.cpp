#include "src/bench/bench_config.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <type_traits>
#include <set>
#include <stdexcept>

#include "src/attention/bias_policy.h"
#include "src/util/parse.h"

namespace eie {

namespace {

std::string where(const std::filesystem::path& path, const toml::node& node) {
  return path.string() + ":" + std::to_string(node.source().begin.line);
}

// The node's value as T: integers only from integer nodes (toml++ converts an
// out-of-range float to an integer with undefined behaviour; found by scripts/fuzz.sh).
template <class T>
std::optional<T> value_of(const toml::node& node) {
  if constexpr (std::is_integral_v<T>) {
    return node.value_exact<T>();
  } else {
    return node.value<T>();
  }
}

template <class T>
std::vector<T> list(const std::filesystem::path& path, const toml::table& table, const char* key,
                    std::vector<T> fallback) {
  const auto* node = table.get(key);
  if (node == nullptr) return fallback;
  const auto* array = node->as_array();
  if (array == nullptr || array->empty()) {
    throw std::invalid_argument(where(path, *node) + ": '" + key + "' must be a non-empty array");
  }
  std::vector<T> out;
  for (const auto& item : *array) {
    const auto value = value_of<T>(item);
    if (!value) throw std::invalid_argument(where(path, item) + ": wrong type in '" + key + "'");
    out.push_back(*value);
  }
  return out;
}

// A problem option's value as text: TOML strings as they are, numbers as the CLI
// would take them ("20", "0.5").
std::optional<std::string> text_of(const toml::node& node) {
  if (const auto text = node.value_exact<std::string>()) return text;
  if (const auto integer = node.value_exact<int64_t>()) return std::to_string(*integer);
  if (const auto real = node.value_exact<double>()) return shortest_text(*real);
  return std::nullopt;
}

// The problem's options and its sweep (a block of rows per value) from the table.
void read_problem_options(const std::filesystem::path& path, const toml::table& table,
                          const ProblemDescriptor& problem, BenchConfig& c) {
  for (const auto& o : problem.options) {
    if (const auto* node = table.get(o.name)) {
      const auto value = text_of(*node);
      if (!value) throw std::invalid_argument(where(path, *node) + ": wrong type for '" + o.name + "'");
      c.options[o.name] = *value;
    }
    const auto* node = o.sweep_key.empty() ? nullptr : table.get(o.sweep_key);
    if (node == nullptr) continue;
    if (!c.sweep.empty()) {
      throw std::invalid_argument(where(path, *node) + ": one sweep per benchmark ('" +
                                  o.sweep_key + "' and another)");
    }
    const auto* array = node->as_array();
    if (array == nullptr || array->empty()) {
      throw std::invalid_argument(where(path, *node) + ": '" + o.sweep_key +
                                  "' must be a non-empty array");
    }
    c.sweep = o.name;
    for (const auto& item : *array) {
      const auto value = text_of(item);
      if (!value) {
        throw std::invalid_argument(where(path, item) + ": wrong type in '" + o.sweep_key + "'");
      }
      c.sweep_values.push_back(*value);
    }
  }
}

template <class T>
T scalar(const std::filesystem::path& path, const toml::table& table, const char* key, T fallback) {
  const auto* node = table.get(key);
  if (node == nullptr) return fallback;
  const auto value = value_of<T>(*node);
  if (!value) throw std::invalid_argument(where(path, *node) + ": wrong type for '" + key + "'");
  return *value;
}

}  // namespace

BenchConfig read_bench_config(const std::filesystem::path& path) {
  if (!std::filesystem::is_regular_file(path))
    throw std::invalid_argument(path.string() + ": no such file");
  return parse_bench_config(read_text(path), path);
}

BenchConfig parse_bench_config(const std::string& text, const std::filesystem::path& path) {
  // Plain ASCII only: Debian's toml++ (3.3) reaches __builtin_unreachable on some
  // non-ASCII input (found by scripts/fuzz.sh), so such bytes never get to it.
  int line = 1;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte == '\n') ++line;
    if (byte >= 0x80 || (byte < 0x20 && byte != '\n' && byte != '\r' && byte != '\t') ||
        byte == 0x7f) {
      throw std::invalid_argument(path.string() + ":" + std::to_string(line) +
                                  ": a character other than plain ASCII (byte " +
                                  std::to_string(byte) + "); benchmark files are ASCII");
    }
  }
  toml::table table;
  try {
    table = toml::parse(text, path.string());
  } catch (const toml::parse_error& e) {
    throw std::invalid_argument(path.string() + ":" + std::to_string(e.source().begin.line) + ": " +
                                excerpt(e.description(), 200));
  }
  BenchConfig c;
  c.problem = scalar<std::string>(path, table, "problem", default_problem());
  const ProblemDescriptor* problem = nullptr;
  try {
    problem = &problem_descriptor(c.problem);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path.string() + ": " + e.what());
  }
  std::set<std::string> known = {"name",   "problem", "sizes",        "instances", "seeds",
                                 "models", "scales",  "scale_at",     "decodes",   "methods",
                                 "improve", "improve_both", "bound",  "batch",     "reference", "bias"};
  for (const auto& o : problem->options) {
    known.insert(o.name);
    if (!o.sweep_key.empty()) known.insert(o.sweep_key);
  }
  for (const auto& [key, node] : table) {
    if (!known.count(std::string(key.str()))) {
      throw std::invalid_argument(where(path, node) + ": unknown key '" + excerpt(key.str()) +
                                  "' (for problem " + c.problem + ")");
    }
  }
  read_problem_options(path, table, *problem, c);
  c.name = scalar<std::string>(path, table, "name", path.stem().string());
  // The tables are <out>/<name>.md and .csv: a plain name, never a path out of --out.
  const bool plain = !c.name.empty() && c.name.size() <= 100 && c.name[0] != '.' &&
                     std::all_of(c.name.begin(), c.name.end(), [](char ch) {
                       return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' ||
                              ch == '-' || ch == '.';
                     });
  if (!plain) {
    throw std::invalid_argument(path.string() +
                                ": 'name' must be a plain file name (letters, digits, _ - ., at "
                                "most 100, not starting with a dot)");
  }
  c.sizes = list<int64_t>(path, table, "sizes", {});
  if (c.sizes.empty()) throw std::invalid_argument(path.string() + ": 'sizes' is required");
  c.instances = scalar<int64_t>(path, table, "instances", c.instances);
  c.seeds = list<int64_t>(path, table, "seeds", c.seeds);
  c.models = list<std::string>(path, table, "models", {});
  c.scales = list<std::string>(path, table, "scales", c.scales);
  c.scale_at = scalar<std::string>(path, table, "scale_at", c.scale_at);
  c.decodes = list<std::string>(path, table, "decodes", c.decodes);
  c.methods = list<std::string>(path, table, "methods", {});
  // One bias as a string, or several as a list.
  if (const auto* bias = table.get("bias")) {
    c.biases = bias->is_string() ? std::vector<std::string>{scalar<std::string>(path, table, "bias", "")}
                                 : list<std::string>(path, table, "bias", {});
    if (c.biases.empty()) throw std::invalid_argument(where(path, *bias) + ": 'bias' is empty");
    for (const auto& text : c.biases) {
      try {
        (void)parse_bias_spec(text);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(where(path, *bias) + ": " + e.what());
      }
    }
  }
  // One local search as a string, or several as a list.
  if (const auto* improve = table.get("improve")) {
    c.improve = improve->is_string()
                    ? std::vector<std::string>{scalar<std::string>(path, table, "improve", "")}
                    : list<std::string>(path, table, "improve", {});
    const std::set<std::string> distinct(c.improve.begin(), c.improve.end());
    if (distinct.size() != c.improve.size() || distinct.count("") > 0) {
      throw std::invalid_argument(where(path, *improve) +
                                  ": 'improve' needs distinct, non-empty names");
    }
  }
  c.improve_both = scalar<bool>(path, table, "improve_both", false);
  c.bound = scalar<bool>(path, table, "bound", false);
  c.batch = scalar<int64_t>(path, table, "batch", 0);
  c.reference = scalar<std::string>(path, table, "reference", "");
  // Stated limits: beyond them a run would ask for memory no machine has, and LibTorch's
  // allocator would fail with a message that names no key.
  constexpr int64_t kMaxInstances = 10'000'000, kMaxSize = 1'000'000, kMaxNodes = 1'000'000'000;
  const auto in_range = [&](const char* key, int64_t value, int64_t low, int64_t high) {
    if (value < low || value > high) {
      throw std::invalid_argument(path.string() + ": '" + key + "' must be in " +
                                  std::to_string(low) + ".." + std::to_string(high) + ", got " +
                                  std::to_string(value));
    }
  };
  in_range("instances", c.instances, 1, kMaxInstances);
  in_range("batch", c.batch, 0, kMaxInstances);
  for (const auto n : c.sizes) {
    in_range("sizes", n, 1, kMaxSize);
    if (n * c.instances > kMaxNodes) {
      throw std::invalid_argument(
          path.string() + ": 'instances' x 'sizes' asks for " + std::to_string(n * c.instances) +
          " nodes at n = " + std::to_string(n) + ", more than " + std::to_string(kMaxNodes));
    }
  }
  if (c.models.empty() && c.methods.empty()) {
    throw std::invalid_argument(path.string() + ": give 'models' and/or 'methods'");
  }
  return c;
}

}  // namespace eie
