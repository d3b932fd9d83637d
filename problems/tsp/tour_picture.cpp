#include "problems/tsp/tour_picture.h"

#include <sstream>

#include "problems/common/picture_style.h"
#include "src/util/gnuplot.h"

namespace eie::tsp {

Picture tour_picture(const std::vector<Point>& cities, const Tour& tour, const std::string& title) {
  std::ostringstream points, path;
  for (const auto& c : cities) points << number(c.x) << ' ' << number(c.y) << '\n';
  for (const auto city : tour) path << number(cities[city].x) << ' ' << number(cities[city].y) << '\n';
  if (!tour.empty()) {
    path << number(cities[tour.front()].x) << ' ' << number(cities[tour.front()].y) << '\n';
  }
  const auto s = strokes_for(static_cast<int64_t>(cities.size()));
  std::ostringstream script;
  script << kMapPreamble << "set title " << gnuplot_quote(title) << '\n'
         << "plot $tour using 1:2 with lines lw " << s.line << " lc rgb '#1f77b4', "
         << "$cities using 1:2 with points pt 7 ps " << s.point << " lc rgb '#222222', "
         << "$tour every ::0::0 using 1:2 with points pt 7 ps " << 2.5 * s.point
         << " lc rgb '#d62728'\n";
  return map_picture(script.str(), {{"cities", points.str()}, {"tour", path.str()}}, cities);
}

}  // namespace eie::tsp
