#pragma once

#include <string>
#include <vector>

#include "problems/common/point.h"
#include "problems/tsp/tour.h"
#include "src/problem/picture.h"

namespace eie::tsp {

// The cities and the closed tour through them, its first city marked; `title` on top.
[[nodiscard]] Picture tour_picture(const std::vector<Point>& cities, const Tour& tour,
                                   const std::string& title);

}  // namespace eie::tsp
