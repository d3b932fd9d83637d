#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/attention/setting.h"

namespace eie {

// The sizes a scale policy maps to lambda: n and N count the nodes a problem is
// sized by (cities, customers without the depot, boxes).
struct ScaleQuery {
  int64_t n;         // token count at inference
  int64_t head_dim;  // d
  int64_t train_n;   // N, the training length
};

// lambda(n, d, N) for every attention layer.
class ScalePolicy {
 public:
  virtual ~ScalePolicy() = default;
  [[nodiscard]] virtual std::string name() const = 0;
  [[nodiscard]] virtual double lambda(const ScaleQuery& query) const = 0;
};

// "name" or "name:FILE" (policies that need a fitted table); throws std::invalid_argument
// listing the known names.
[[nodiscard]] std::unique_ptr<ScalePolicy> make_scale_policy(const std::string& spec);
[[nodiscard]] std::vector<std::string> scale_policy_names();

// Where a scale policy applies: the encoder only, or the encoder and the decoder glimpse.
enum class ScaleScope { encoder, all };
[[nodiscard]] ScaleScope parse_scale_scope(const std::string& text);
// "all" (encoder, glimpse, pointer) or a comma list of encoder, glimpse, pointer, view.
[[nodiscard]] WindowParts parse_window_parts(const std::string& text);

// The plan for one instance size: layers outside `scope` keep 1/sqrt(d).
[[nodiscard]] AttentionPlan plan_attention(const ScalePolicy& policy, ScaleScope scope,
                                           const ScaleQuery& query, int64_t encoder_layers);

}  // namespace eie
