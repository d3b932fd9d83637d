#include "problems/cvrp/routes_picture.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "problems/common/picture_style.h"
#include "src/util/gnuplot.h"
#include "src/util/parse.h"

namespace eie::cvrp {

Picture routes_picture(const CvrpData& data, const Routes& routes, const std::string& title) {
  // With many routes the legs to and from the depot would hide everything else: they
  // are then drawn underneath in light grey, the routes' other edges in colour.
  const bool grey_legs = routes.size() > 20;
  std::ostringstream paths, legs, customers;
  const auto visit = [](std::ostream& out, const Point& p, double hue) {
    out << number(p.x) << ' ' << number(p.y) << ' ' << hue << '\n';
  };
  for (size_t r = 0; r < routes.size(); ++r) {
    if (routes[r].empty()) continue;
    // Hues a golden ratio apart: neighbouring routes never look alike.
    const double hue = std::fmod(0.618034 * static_cast<double>(r), 1.0);
    const auto& first = data.customers[static_cast<size_t>(routes[r].front() - 1)];
    const auto& last = data.customers[static_cast<size_t>(routes[r].back() - 1)];
    if (grey_legs) {
      for (const auto& end : {first, last}) {
        visit(legs, data.depot, 0);
        visit(legs, end, 0);
        legs << '\n';
      }
    } else {
      visit(paths, data.depot, hue);
    }
    for (const auto id : routes[r]) visit(paths, data.customers[static_cast<size_t>(id - 1)], hue);
    if (!grey_legs) visit(paths, data.depot, hue);
    paths << '\n';  // a blank line ends the route's line
  }
  const auto n = static_cast<int64_t>(data.customers.size());
  const auto s = strokes_for(n);
  const double largest = *std::max_element(data.demands.begin(), data.demands.end());
  for (int64_t i = 0; i < n; ++i) {
    const auto& c = data.customers[i];
    const double size = s.point * (0.4 + 1.2 * std::sqrt(data.demands[i] / largest));
    customers << number(c.x) << ' ' << number(c.y) << ' ' << number(size) << '\n';
  }
  std::ostringstream script;
  script << kMapPreamble << "set title " << gnuplot_quote(title) << '\n'
         << "set palette model HSV functions gray, 0.75, 0.8\nset cbrange [0:1]\nunset colorbox\n"
         << "plot " << (grey_legs ? "$legs using 1:2 with lines lw " + number(0.5 * s.line) +
                                         " lc rgb '#d0d0d0', "
                                   : std::string())
         << "$routes using 1:2:3 with lines lw " << s.line << " lc palette, "
         << "$customers using 1:2:3 with points pt 7 ps variable lc rgb '#333333', "
         << "$depot using 1:2 with points pt 5 ps " << std::max(1.5, 4 * s.point)
         << " lc rgb 'black'\n";
  auto everything = data.customers;
  everything.push_back(data.depot);
  return map_picture(script.str(),
                     {{"routes", paths.str()},
                      {"legs", legs.str()},
                      {"customers", customers.str()},
                      {"depot", number(data.depot.x) + ' ' + number(data.depot.y) + '\n'}},
                     everything);
}

std::string loads_text(const CvrpData& data, const Routes& routes) {
  double largest = 0;
  for (const auto& route : routes) {
    double load = 0;
    for (const auto id : route) load += data.demands[id - 1];
    largest = std::max(largest, load);
  }
  return std::to_string(routes.size()) + " routes, largest load " + shortest_text(largest) +
         " / " + shortest_text(data.capacity);
}

}  // namespace eie::cvrp
