#pragma once

// Rotated views of point sets, for decoding an instance as the policy sees it turned by
// angles other than the square's own symmetries (augK, K > 8): a policy trained on
// uniform squares decodes a file such as kroA100 better from some angles than from others.

#include <torch/torch.h>

namespace eie {

// Points [B, m, 2] turned by `radians` about the centre of the square [lo, hi]^2, then
// each instance mapped back into it as fit_unit_square() maps a file's cities: the longer
// side of its bounding box spans the square, the shorter one centred. Node labels are
// kept, so a solution of the view is one of the instance; its cost is not (each instance
// is scaled by its own factor).
[[nodiscard]] torch::Tensor rotated_into_square(const torch::Tensor& points, double radians,
                                                double lo, double hi);

}  // namespace eie
