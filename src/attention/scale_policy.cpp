#include "src/attention/scale_policy.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>

#include "src/attention/fitted_scales.h"

namespace eie {

namespace {

// A closed-form policy: lambda is a formula of (n, d, N).
class ClosedForm final : public ScalePolicy {
 public:
  ClosedForm(std::string name, std::function<double(const ScaleQuery&)> formula)
      : name_(std::move(name)), formula_(std::move(formula)) {}
  [[nodiscard]] std::string name() const override { return name_; }
  [[nodiscard]] double lambda(const ScaleQuery& q) const override {
    if (q.n < 1 || q.head_dim < 1 || q.train_n < 2) {
      throw std::invalid_argument("scale policy " + name_ + ": sizes must be positive (n=" +
                                  std::to_string(q.n) + ", N=" + std::to_string(q.train_n) + ")");
    }
    return formula_(q);
  }

 private:
  std::string name_;                                  // registry name
  std::function<double(const ScaleQuery&)> formula_;  // lambda(n, d, N)
};

double inv_sqrt_d(const ScaleQuery& q) { return 1.0 / std::sqrt(static_cast<double>(q.head_dim)); }

// InfoScale (Li et al.): sqrt((1 - n^(-2/d)) / (1 - N^(-2/d))) / sqrt(d).
double infoscale(const ScaleQuery& q) {
  const double e = -2.0 / static_cast<double>(q.head_dim);
  const double ratio = (1.0 - std::pow(q.n, e)) / (1.0 - std::pow(q.train_n, e));
  return std::sqrt(ratio) * inv_sqrt_d(q);
}

// In the order of ../shared/DESIGN.md's table (tables and plots list them so).
using ClosedForms = std::vector<std::pair<std::string, std::function<double(const ScaleQuery&)>>>;
const ClosedForms& closed_forms() {
  static const ClosedForms forms = {
      {"sqrt", inv_sqrt_d},
      {"logn-sqrt", [](const ScaleQuery& q) { return std::log(q.n) * inv_sqrt_d(q); }},
      {"logn-d", [](const ScaleQuery& q) { return std::log(q.n) / q.head_dim; }},
      {"logn-base",
       [](const ScaleQuery& q) { return std::log(q.n) / std::log(q.train_n) * inv_sqrt_d(q); }},
      {"infoscale", infoscale},
  };
  return forms;
}

}  // namespace

std::vector<std::string> scale_policy_names() {
  std::vector<std::string> names;
  for (const auto& [name, formula] : closed_forms()) names.push_back(name);
  names.emplace_back("eie");
  names.emplace_back("eie-exact");
  return names;
}

std::unique_ptr<ScalePolicy> make_scale_policy(const std::string& spec) {
  const auto colon = spec.find(':');
  const std::string name = spec.substr(0, colon);
  const std::string file = colon == std::string::npos ? "" : spec.substr(colon + 1);
  if (name == "eie" || name == "eie-exact") return make_fitted_scale_policy(name, file);
  const auto found = std::find_if(closed_forms().begin(), closed_forms().end(),
                                  [&](const auto& form) { return form.first == name; });
  if (found == closed_forms().end()) {
    std::string known;
    for (const auto& n : scale_policy_names()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown scale policy '" + name + "' (known: " + known + ")");
  }
  if (colon != std::string::npos) {
    throw std::invalid_argument("scale policy '" + name + "' takes no file");
  }
  return std::make_unique<ClosedForm>(found->first, found->second);
}

ScaleScope parse_scale_scope(const std::string& text) {
  if (text == "encoder") return ScaleScope::encoder;
  if (text == "all") return ScaleScope::all;
  throw std::invalid_argument("--scale-at: expected 'encoder' or 'all', got '" + text + "'");
}

WindowParts parse_window_parts(const std::string& text) {
  if (text == "all") return WindowParts{};
  WindowParts parts{false, false, false, false, false};
  std::stringstream list(text);
  for (std::string part; std::getline(list, part, ',');) {
    if (part == "encoder") parts.encoder = true;
    else if (part == "glimpse") parts.glimpse = true;
    else if (part == "pointer") parts.pointer = true;
    else if (part == "view") parts.view = true;
    else if (part == "tiles") parts.tiles = true;
    else {
      throw std::invalid_argument("--window-at: expected 'all' or a comma list of encoder, "
                                  "glimpse, pointer, view, tiles; got '" + text + "'");
    }
  }
  return parts;
}

AttentionPlan plan_attention(const ScalePolicy& policy, ScaleScope scope, const ScaleQuery& query,
                             int64_t encoder_layers) {
  const double scaled = policy.lambda(query);
  AttentionPlan plan;
  plan.encoder.assign(encoder_layers, AttentionSetting{scaled, 0});
  plan.glimpse.scale = scope == ScaleScope::all ? scaled : inv_sqrt_d(query);
  return plan;
}

}  // namespace eie
