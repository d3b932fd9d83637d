#include "problems/tsp/tsplib.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "src/util/atomic_path.h"
#include "src/util/parse.h"

namespace eie::tsp {

namespace {

EdgeWeight parse_edge_weight(const std::string& value, const std::string& where) {
  if (value == "EUC_2D") return EdgeWeight::euc_2d;
  if (value == "CEIL_2D") return EdgeWeight::ceil_2d;
  if (value == "ATT") return EdgeWeight::att;
  throw std::invalid_argument(where + ": EDGE_WEIGHT_TYPE " + value +
                              " is not supported (EUC_2D, CEIL_2D or ATT)");
}

}  // namespace

TsplibInstance parse_tsplib(const std::string& text, const std::string& origin) {
  TsplibInstance instance;
  instance.name = std::filesystem::path(origin).stem().string();
  int64_t dimension = -1;
  bool has_weight = false, in_coords = false;
  std::vector<bool> seen;
  int64_t coords_read = 0;
  std::istringstream lines(text);
  std::string raw;
  int line_no = 0;
  const auto where = [&] { return origin + ":" + std::to_string(line_no); };
  while (std::getline(lines, raw)) {
    ++line_no;
    const auto line = trim(raw);
    if (line.empty()) continue;
    if (line == "EOF") break;
    if (in_coords && coords_read < dimension) {
      const auto tokens = split_blanks(line);
      if (tokens.size() != 3) throw std::invalid_argument(where() + ": expected 'id x y'");
      const int64_t id = parse_int(tokens[0], where() + ": node id");
      if (id < 1 || id > dimension) {
        throw std::invalid_argument(where() + ": node id " + std::to_string(id) + " outside 1.." +
                                    std::to_string(dimension));
      }
      if (seen[id - 1])
        throw std::invalid_argument(where() + ": duplicate node id " + std::to_string(id));
      seen[id - 1] = true;
      const Point p{parse_double(tokens[1], where() + ": x"),
                    parse_double(tokens[2], where() + ": y")};
      if (!within_coordinate_range(p)) {
        throw std::invalid_argument(where() + ": coordinates must be finite and within +-" +
                                    shortest_text(kMaxCoordinate));
      }
      instance.cities[id - 1] = p;
      ++coords_read;
      continue;
    }
    if (line == "NODE_COORD_SECTION") {
      if (dimension < 0)
        throw std::invalid_argument(where() + ": NODE_COORD_SECTION before DIMENSION");
      if (!has_weight)
        throw std::invalid_argument(where() + ": NODE_COORD_SECTION before EDGE_WEIGHT_TYPE");
      in_coords = true;
      continue;
    }
    if (in_coords)
      throw std::invalid_argument(where() + ": unexpected '" + excerpt(line) +
                                  "' after the coordinates");
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) {
      throw std::invalid_argument(where() + ": section '" + excerpt(line) +
                                  "' is not supported");
    }
    const std::string key(trim(line.substr(0, colon)));
    const std::string value(trim(line.substr(colon + 1)));
    if (key == "NAME") {
      instance.name = value;
    } else if (key == "TYPE") {
      if (value != "TSP")
        throw std::invalid_argument(where() + ": TYPE " + excerpt(value) + " is not supported (TSP only)");
    } else if (key == "DIMENSION") {
      dimension = parse_int(value, where() + ": DIMENSION");
      if (dimension < 3)
        throw std::invalid_argument(where() + ": DIMENSION must be at least 3, got " +
                                    excerpt(value));
      check_count_fits(dimension, text.size(), 6, where() + ": DIMENSION");  // "i x y\n" a city
      instance.cities.assign(dimension, Point{});
      seen.assign(dimension, false);
    } else if (key == "EDGE_WEIGHT_TYPE") {
      instance.edge_weight = parse_edge_weight(value, where());
      has_weight = true;
    } else if (key == "COMMENT" || key == "DISPLAY_DATA_TYPE" || key == "NODE_COORD_TYPE") {
      // informational only
    } else {
      throw std::invalid_argument(where() + ": field " + key + " is not supported");
    }
  }
  if (dimension < 0) throw std::invalid_argument(origin + ": no DIMENSION");
  if (!in_coords) throw std::invalid_argument(origin + ": no NODE_COORD_SECTION");
  if (coords_read < dimension) {
    throw std::invalid_argument(origin + ": truncated: " + std::to_string(coords_read) + " of " +
                                std::to_string(dimension) + " coordinates");
  }
  return instance;
}

TsplibInstance read_tsplib(const std::filesystem::path& path) {
  return parse_tsplib(read_text(path), path.string());
}

int64_t tsplib_distance(EdgeWeight weight, const Point& a, const Point& b) {
  const double dx = a.x - b.x, dy = a.y - b.y;
  switch (weight) {
    case EdgeWeight::euc_2d:
      return static_cast<int64_t>(std::sqrt(dx * dx + dy * dy) + 0.5);
    case EdgeWeight::ceil_2d:
      return static_cast<int64_t>(std::ceil(std::sqrt(dx * dx + dy * dy)));
    case EdgeWeight::att: {
      const double r = std::sqrt((dx * dx + dy * dy) / 10.0);
      const auto t = static_cast<int64_t>(r + 0.5);
      return t < r ? t + 1 : t;
    }
  }
  return 0;
}

int64_t tsplib_length(const TsplibInstance& instance, const Tour& tour) {
  check_tour(tour, static_cast<int64_t>(instance.cities.size()));
  int64_t length = 0;
  for (size_t i = 0; i < tour.size(); ++i) {
    length += tsplib_distance(instance.edge_weight, instance.cities[tour[i]],
                              instance.cities[tour[(i + 1) % tour.size()]]);
  }
  return length;
}

void write_tour(const std::filesystem::path& path, const std::string& name, const Tour& tour,
                int64_t length) {
  std::ostringstream file;
  file << "NAME : " << name << ".tour\n"
       << "COMMENT : Length " << length << " (eie)\n"
       << "TYPE : TOUR\nDIMENSION : " << tour.size() << "\nTOUR_SECTION\n";
  for (const auto city : tour) file << city + 1 << '\n';
  file << "-1\nEOF\n";
  write_file(path, file.str());
}

Tour read_tour(const std::filesystem::path& path) {
  return parse_tour(read_text(path), path.string());
}

Tour parse_tour(const std::string& text, const std::string& origin) {
  std::istringstream lines(text);
  std::string raw;
  bool in_tour = false;
  Tour tour;
  int line_no = 0;
  while (std::getline(lines, raw)) {
    ++line_no;
    const auto line = trim(raw);
    if (line == "TOUR_SECTION") {
      in_tour = true;
    } else if (in_tour && !line.empty()) {
      const auto id = parse_int(line, origin + ":" + std::to_string(line_no));
      if (id == -1) return tour;
      tour.push_back(id - 1);
    }
  }
  throw std::invalid_argument(origin + ": no TOUR_SECTION ending in -1");
}

}  // namespace eie::tsp
