#pragma once

// CVRPLIB instances (.vrp) and solutions (.sol). Supported: TYPE CVRP with
// EDGE_WEIGHT_TYPE EUC_2D, CAPACITY, NODE_COORD_SECTION, DEMAND_SECTION and a
// DEPOT_SECTION naming one depot. VEHICLES and DISTANCE are read and ignored
// (noted in `notes`); every other edge-weight type, section or keyword is
// rejected by name.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "problems/cvrp/routes.h"

namespace eie::cvrp {

struct CvrplibInstance {
  std::string name;                // NAME field (file stem when absent)
  CvrpData data;                   // depot moved out; customers in file order
  std::vector<int64_t> file_ids;   // file node id of customer i (data.customers[i])
  std::vector<std::string> notes;  // what was read but ignored, e.g. "VEHICLES ignored"
};

// Throws std::invalid_argument as "FILE:LINE: what is wrong" (node ids as in the file).
[[nodiscard]] CvrplibInstance read_cvrplib(const std::filesystem::path& path);
[[nodiscard]] CvrplibInstance parse_cvrplib(const std::string& text, const std::string& origin);

// nint of the Euclidean distance (TSPLIB EUC_2D, as CVRPLIB set X uses).
[[nodiscard]] int64_t cvrplib_length(const CvrpData& data, const Routes& routes);

// "Route #k: c1 c2 ..." per route, customers numbered 1..n in file order (depot
// omitted), then "Cost C"; written atomically.
void write_sol(const std::filesystem::path& path, const Routes& routes, int64_t cost);
// Routes and the stated cost; throws std::invalid_argument as "FILE:LINE: ...".
struct SolFile {
  Routes routes;     // customer ids as written (1..n)
  int64_t cost = 0;  // the "Cost" line
};
[[nodiscard]] SolFile read_sol(const std::filesystem::path& path);
// The same from a .sol file's text; `origin` names it in errors.
[[nodiscard]] SolFile parse_sol(const std::string& text, const std::string& origin);

}  // namespace eie::cvrp
