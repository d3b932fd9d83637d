#pragma once

#include <string>
#include <vector>

#include "problems/bpp3d/box.h"
#include "problems/bpp3d/packing.h"
#include "src/problem/picture.h"

namespace eie::bpp3d {

// The packed boxes in 3D (a fixed oblique view; each box a solid with visible edges,
// coloured by the order of placement, dark first) beside a top view of the final
// height map; `title` above both. The placements must be a checked packing of `data`.
[[nodiscard]] Picture packing_picture(const BppData& data, const std::vector<Placement>& placements,
                                      const std::string& title);

}  // namespace eie::bpp3d
