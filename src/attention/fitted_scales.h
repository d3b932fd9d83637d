#pragma once

// Scale policies that need a fit: `eie:FILE` (the lambda-network of a scale file)
// and `eie-exact[:FILE]` (entropy-matching roots: solved on demand, or
// interpolated from a scale file's table). Header free of LibTorch.

#include <memory>
#include <string>

#include "src/attention/scale_policy.h"

namespace eie {

// name is "eie" or "eie-exact"; file may be empty (eie-exact only).
[[nodiscard]] std::unique_ptr<ScalePolicy> make_fitted_scale_policy(const std::string& name,
                                                                    const std::string& file);

}  // namespace eie
