#include "problems/cvrp/cvrplib.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "problems/common/point.h"
#include "src/util/atomic_path.h"
#include "src/util/parse.h"

namespace eie::cvrp {

namespace {

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// A section name such as "DEMAND_SECTION" (a COMMENT may mention one after its colon).
bool is_section_line(std::string_view line) {
  return ends_with(line, "_SECTION") && line.find(':') == std::string_view::npos;
}

// Header keywords, section names and EOF, as opposed to data lines: a data line
// with a bad token must be reported as such, not as the end of a section.
bool is_keyword_line(std::string_view line) {
  return line == "EOF" || is_section_line(line) || line.find(':') != std::string_view::npos;
}

// What a node section collects, per node (index = file id - 1).
struct NodeSection {
  bool present = false;      // the section header was seen
  int header_line = 0;       // where the section starts, for messages
  int64_t count = 0;         // data lines read so far
  std::vector<bool> seen;    // node ids already given
  std::vector<int> line_of;  // line of each node's entry, for later checks
};

}  // namespace

CvrplibInstance parse_cvrplib(const std::string& text, const std::string& origin) {
  CvrplibInstance instance;
  instance.name = std::filesystem::path(origin).stem().string();
  int64_t dimension = -1;
  double capacity = 0;
  bool has_capacity = false, has_weight = false;
  std::vector<Point> coords;
  std::vector<double> demands;
  NodeSection coord_section, demand_section;
  bool depot_present = false, depot_done = false;
  int depot_header_line = 0;
  int64_t depot = -1;        // file id of the depot
  std::string current;       // section being read ("" in the header)
  std::string last_section;  // the section that ended last, for "has more than" messages
  std::istringstream lines(text);
  std::string raw;
  int line_no = 0;
  const auto where = [&] { return origin + ":" + std::to_string(line_no); };
  const auto fail = [&](const std::string& what) {
    throw std::invalid_argument(where() + ": " + what);
  };
  const auto short_section = [&](const std::string& name, const NodeSection& section) {
    return origin + ":" + std::to_string(section.header_line) + ": " + name + " has " +
           std::to_string(section.count) + " of " + std::to_string(dimension) + " nodes";
  };
  const auto node_id = [&](std::string_view token, NodeSection& section) {
    const int64_t id = parse_int(token, where() + ": node id");
    if (id < 1 || id > dimension) {
      fail("node id " + std::to_string(id) + " outside 1.." + std::to_string(dimension));
    }
    if (section.seen[id - 1]) fail("duplicate node id " + std::to_string(id));
    section.seen[id - 1] = true;
    section.line_of[id - 1] = line_no;
    ++section.count;
    return id;
  };
  while (std::getline(lines, raw)) {
    ++line_no;
    const auto line = trim(raw);
    if (line.empty()) continue;
    const bool keyword = is_keyword_line(line);
    if (current == "NODE_COORD_SECTION" || current == "DEMAND_SECTION") {
      auto& section = current == "NODE_COORD_SECTION" ? coord_section : demand_section;
      if (keyword) throw std::invalid_argument(short_section(current, section));
      const auto tokens = split_blanks(line);
      if (current == "NODE_COORD_SECTION") {
        if (tokens.size() != 3) fail("expected 'id x y' in NODE_COORD_SECTION");
        const int64_t id = node_id(tokens[0], section);
        const std::string node = "node " + std::to_string(id);
        const Point p{parse_double(tokens[1], where() + ": x of " + node),
                      parse_double(tokens[2], where() + ": y of " + node)};
        if (!within_coordinate_range(p)) {
          fail("coordinates of " + node + " must be finite and within +-" +
               shortest_text(kMaxCoordinate) + ", got " + shortest_text(p.x) + " " +
               shortest_text(p.y));
        }
        coords[id - 1] = p;
      } else {
        if (tokens.size() != 2) fail("expected 'id demand' in DEMAND_SECTION");
        const int64_t id = node_id(tokens[0], section);
        demands[id - 1] =
            parse_double(tokens[1], where() + ": demand of node " + std::to_string(id));
      }
      if (section.count == dimension) last_section = current, current.clear();
      continue;
    }
    if (current == "DEPOT_SECTION") {
      if (keyword) fail("DEPOT_SECTION does not end with -1");
      for (const auto token : split_blanks(line)) {
        if (depot_done) {
          fail("unexpected '" + excerpt(token) + "' after the -1 of DEPOT_SECTION");
        }
        const int64_t id = parse_int(token, where() + ": depot id");
        if (id == -1) {
          if (depot < 0) fail("DEPOT_SECTION names no depot");
          depot_done = true;
          continue;
        }
        if (id < 1 || id > dimension) {
          fail("depot id " + std::to_string(id) + " outside 1.." + std::to_string(dimension));
        }
        if (depot >= 0) {
          fail("more than one depot (nodes " + std::to_string(depot) + " and " +
               std::to_string(id) + "); only one is supported");
        }
        depot = id;
      }
      if (depot_done) last_section = current, current.clear();
      continue;
    }
    if (line == "EOF") break;
    if (!keyword) {
      if (!last_section.empty() && last_section != "DEPOT_SECTION") {
        fail(last_section + " has more than " + std::to_string(dimension) + " nodes");
      }
      fail("unexpected line '" + excerpt(line) + "'");
    }
    if (is_section_line(line)) {
      const std::string name(line);
      if (name != "NODE_COORD_SECTION" && name != "DEMAND_SECTION" && name != "DEPOT_SECTION") {
        fail("section " + name + " is not supported");
      }
      if (dimension < 0) fail(name + " before DIMENSION");
      NodeSection* section = name == "NODE_COORD_SECTION" ? &coord_section
                             : name == "DEMAND_SECTION"   ? &demand_section
                                                          : nullptr;
      if (section != nullptr) {
        if (section->present) fail(name + " given twice");
        section->present = true;
        section->header_line = line_no;
      } else {
        if (depot_present) fail(name + " given twice");
        depot_present = true;
        depot_header_line = line_no;
      }
      current = name;
      continue;
    }
    const auto colon = line.find(':');
    const std::string key(trim(line.substr(0, colon)));
    const std::string value(trim(line.substr(colon + 1)));
    if (key == "NAME") {
      instance.name = value;
    } else if (key == "COMMENT") {
      // informational only
    } else if (key == "TYPE") {
      if (value != "CVRP") fail("TYPE " + excerpt(value) + " is not supported (CVRP only)");
    } else if (key == "DIMENSION") {
      if (dimension >= 0) fail("DIMENSION given twice");
      dimension = parse_int(value, where() + ": DIMENSION");
      check_count_fits(dimension, text.size(), 6, where() + ": DIMENSION");  // "i x y\n" a node
      if (dimension < 2) {
        fail("DIMENSION must be at least 2 (a depot and a customer), got " + excerpt(value));
      }
      coords.assign(dimension, Point{});
      demands.assign(dimension, 0.0);
      for (auto* section : {&coord_section, &demand_section}) {
        section->seen.assign(dimension, false);
        section->line_of.assign(dimension, 0);
      }
    } else if (key == "EDGE_WEIGHT_TYPE") {
      if (value != "EUC_2D") fail("EDGE_WEIGHT_TYPE " + excerpt(value) + " is not supported (EUC_2D only)");
      has_weight = true;
    } else if (key == "CAPACITY") {
      if (has_capacity) fail("CAPACITY given twice");
      capacity = parse_double(value, where() + ": CAPACITY");
      if (!std::isfinite(capacity) || !(capacity > 0)) {
        fail("CAPACITY must be positive and finite, got " + excerpt(value));
      }
      has_capacity = true;
    } else if (key == "VEHICLES") {
      (void)parse_int(value, where() + ": VEHICLES");
      instance.notes.push_back("VEHICLES " + excerpt(value) + " ignored (any number of vehicles)");
    } else if (key == "DISTANCE") {
      (void)parse_double(value, where() + ": DISTANCE");
      instance.notes.push_back("DISTANCE " + excerpt(value) + " ignored (routes of any length)");
    } else {
      fail("field " + key + " is not supported");
    }
  }
  // A section cut short by the end of the file.
  if (current == "NODE_COORD_SECTION")
    throw std::invalid_argument(short_section(current, coord_section));
  if (current == "DEMAND_SECTION")
    throw std::invalid_argument(short_section(current, demand_section));
  if (current == "DEPOT_SECTION") {
    throw std::invalid_argument(origin + ":" + std::to_string(depot_header_line) +
                                ": DEPOT_SECTION does not end with -1");
  }
  const auto missing = [&](const std::string& what) {
    throw std::invalid_argument(origin + ": no " + what);
  };
  if (dimension < 0) missing("DIMENSION");
  if (!has_weight) missing("EDGE_WEIGHT_TYPE");
  if (!has_capacity) missing("CAPACITY");
  if (!coord_section.present) missing("NODE_COORD_SECTION");
  if (!demand_section.present) missing("DEMAND_SECTION");
  if (!depot_present) missing("DEPOT_SECTION");

  // Demands are checked once the depot and the capacity are both known.
  for (int64_t id = 1; id <= dimension; ++id) {
    const auto at = origin + ":" + std::to_string(demand_section.line_of[id - 1]) + ": ";
    const double d = demands[id - 1];
    const std::string node = std::to_string(id);
    if (id == depot) {
      if (d != 0) {
        throw std::invalid_argument(at + "demand of the depot (node " + node + ") is " +
                                    shortest_text(d) + ", must be 0");
      }
      continue;
    }
    if (!std::isfinite(d) || !(d > 0)) {
      throw std::invalid_argument(at + "demand of node " + node + " is " + shortest_text(d) +
                                  ", must be positive and finite");
    }
    if (d > capacity) {
      throw std::invalid_argument(at + "demand of node " + node + " is " + shortest_text(d) +
                                  ", above the capacity " + shortest_text(capacity));
    }
  }

  auto& data = instance.data;
  data.capacity = capacity;
  data.depot = coords[depot - 1];
  for (int64_t id = 1; id <= dimension; ++id) {
    if (id == depot) continue;
    data.customers.push_back(coords[id - 1]);
    data.demands.push_back(demands[id - 1]);
    instance.file_ids.push_back(id);
  }
  try {
    data.validate();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(origin + ": " + e.what());
  }
  return instance;
}

CvrplibInstance read_cvrplib(const std::filesystem::path& path) {
  return parse_cvrplib(read_text(path), path.string());
}

int64_t cvrplib_length(const CvrpData& data, const Routes& routes) {
  check_routes(data, routes);
  const auto nint = [](const Point& a, const Point& b) {
    return static_cast<int64_t>(distance(a, b) + 0.5);
  };
  int64_t length = 0;
  for (const auto& route : routes) {
    if (route.empty()) continue;
    length += nint(data.depot, data.customers[route.front() - 1]);
    for (size_t i = 0; i + 1 < route.size(); ++i) {
      length += nint(data.customers[route[i] - 1], data.customers[route[i + 1] - 1]);
    }
    length += nint(data.customers[route.back() - 1], data.depot);
  }
  return length;
}

void write_sol(const std::filesystem::path& path, const Routes& routes, int64_t cost) {
  std::ostringstream file;
  int64_t k = 0;
  for (const auto& route : routes) {
    if (route.empty()) continue;  // the format has no empty routes
    file << "Route #" << ++k << ":";
    for (const auto c : route) file << ' ' << c;
    file << '\n';
  }
  file << "Cost " << cost << '\n';
  write_file(path, file.str());
}

SolFile read_sol(const std::filesystem::path& path) {
  return parse_sol(read_text(path), path.string());
}

SolFile parse_sol(const std::string& text, const std::string& origin) {
  std::istringstream lines(text);
  std::string raw;
  SolFile sol;
  bool has_cost = false;
  int line_no = 0;
  const auto where = [&] { return origin + ":" + std::to_string(line_no); };
  const auto fail = [&](const std::string& what) {
    throw std::invalid_argument(where() + ": " + what);
  };
  while (std::getline(lines, raw)) {
    ++line_no;
    const auto line = trim(raw);
    if (line.empty()) continue;
    if (has_cost) fail("unexpected '" + excerpt(line) + "' after the Cost line");
    const auto tokens = split_blanks(line);
    if (tokens[0] == "Cost") {
      if (tokens.size() != 2) fail("expected 'Cost C'");
      sol.cost = parse_int(tokens[1], where() + ": Cost");
      has_cost = true;
      continue;
    }
    const std::string_view prefix = "Route #";
    const auto colon = line.find(':');
    if (line.substr(0, prefix.size()) != prefix || colon == std::string_view::npos) {
      fail("expected 'Route #k: customers' or 'Cost C', got '" + excerpt(line) + "'");
    }
    const auto k =
        parse_int(line.substr(prefix.size(), colon - prefix.size()), where() + ": route number");
    const auto expected = static_cast<int64_t>(sol.routes.size()) + 1;
    if (k != expected) {
      fail("expected Route #" + std::to_string(expected) + ", got Route #" + std::to_string(k));
    }
    Route route;
    for (const auto token : split_blanks(line.substr(colon + 1))) {
      const auto c = parse_int(token, where() + ": customer");
      if (c < 1) fail("customer ids start at 1, got " + std::to_string(c));
      route.push_back(c);
    }
    if (route.empty()) fail("route " + std::to_string(k) + " is empty");
    sol.routes.push_back(std::move(route));
  }
  if (!has_cost) throw std::invalid_argument(origin + ": no Cost line");
  if (sol.routes.empty()) throw std::invalid_argument(origin + ": no routes");
  return sol;
}

}  // namespace eie::cvrp
