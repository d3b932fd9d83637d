#pragma once

#include <string>

#include "problems/cvrp/routes.h"
#include "src/problem/picture.h"

namespace eie::cvrp {

// The depot (a black square), the customers (dots sized by demand) and each route
// in a colour of its own; `title` on top.
[[nodiscard]] Picture routes_picture(const CvrpData& data, const Routes& routes,
                                     const std::string& title);

// "R routes, largest load L / Q": what a title says about the routes' loads.
[[nodiscard]] std::string loads_text(const CvrpData& data, const Routes& routes);

}  // namespace eie::cvrp
