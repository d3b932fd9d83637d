#pragma once

// Every scale policy in both scopes, for tests that must hold under all of them.

#include <string>
#include <utility>
#include <vector>

#include "src/agent/agent.h"
#include "src/attention/scale_policy.h"

namespace eie::test {

// (name, config) for each scale policy (eie and eie-exact read the shipped
// d = 16, N = 100 scale file) in the encoder-only and encoder-and-glimpse scopes.
inline std::vector<std::pair<std::string, AttentionConfig>> every_scale_setting() {
  const auto scale_file = std::string(EIE_SOURCE_DIR) + "/results/scales/d16-N100-N1600.h5";
  std::vector<std::pair<std::string, AttentionConfig>> out;
  for (auto name : scale_policy_names()) {
    if (name == "eie" || name == "eie-exact") name += ":" + scale_file;
    for (const auto scope : {ScaleScope::encoder, ScaleScope::all}) {
      out.emplace_back(name, AttentionConfig{make_scale_policy(name), scope});
    }
  }
  return out;
}

}  // namespace eie::test
