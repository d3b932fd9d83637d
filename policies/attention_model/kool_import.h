#pragma once

#include <filesystem>
#include <memory>

#include "src/agent/agent.h"

namespace eie::policy {

// The pretrained attention model of Kool et al. (reference HDF5 export of a
// PyTorch state dict, layout in ../shared/reference/kool-am/README.md), bound to
// `problem`. Every reference tensor must map to exactly one of ours.
[[nodiscard]] std::unique_ptr<Agent> import_kool(const std::filesystem::path& path,
                                                 std::shared_ptr<const Problem> problem);

}  // namespace eie::policy
