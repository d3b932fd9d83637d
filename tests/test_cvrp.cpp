#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <numeric>
#include <random>
#include <set>

#include "problems/cvrp/cvrplib.h"
#include "problems/cvrp/heuristics.h"
#include "problems/cvrp/local_search.h"
#include "problems/cvrp/routes.h"
#include "tests/test_support.h"

namespace eie::cvrp {
namespace {

// Expects `body` to throw E with a message containing `part`.
template <class E, class Body>
void expect_message(const Body& body, const std::string& part) {
  try {
    body();
    ADD_FAILURE() << "no exception; expected one containing '" << part << "'";
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

// Depot at the origin; customers (3,4), (3,0), (0,4) with demands 2, 3, 4.
CvrpData small() {
  CvrpData data;
  data.customers = {{3, 4}, {3, 0}, {0, 4}};
  data.demands = {2, 3, 4};
  data.capacity = 6;
  return data;
}

CvrpData random_instance(int n, double capacity, int max_demand, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::uniform_int_distribution<int> demand(1, max_demand);
  CvrpData data;
  data.depot = {u(rng), u(rng)};
  for (int i = 0; i < n; ++i) {
    data.customers.push_back({u(rng), u(rng)});
    data.demands.push_back(demand(rng));
  }
  data.capacity = capacity;
  return data;
}

Routes one_route_per_customer(const CvrpData& data) {
  Routes routes;
  for (size_t c = 1; c <= data.customers.size(); ++c) routes.push_back({static_cast<int64_t>(c)});
  return routes;
}

// Customers in random order, a new route whenever the next one does not fit.
Routes random_routes(const CvrpData& data, unsigned seed) {
  std::vector<int64_t> order(data.customers.size());
  std::iota(order.begin(), order.end(), 1);
  std::mt19937 rng(seed);
  std::shuffle(order.begin(), order.end(), rng);
  Routes routes(1);
  double load = 0;
  for (const auto c : order) {
    if (load + data.demands[c - 1] > data.capacity) routes.emplace_back(), load = 0;
    routes.back().push_back(c);
    load += data.demands[c - 1];
  }
  return routes;
}

double load_of(const CvrpData& data, const Route& route) {
  double load = 0;
  for (const auto c : route) load += data.demands[c - 1];
  return load;
}

// Largest decrease of routes_length by any single relocate (any customer to any
// position of any route, its own included), swap (two customers of different
// routes) or 2-opt (reversal of a segment of one route) that keeps every load
// within the capacity; found by trying them all.
double best_move_gain(const CvrpData& data, const Routes& routes) {
  const double base = routes_length(data, routes);
  double best = 0;
  const auto consider = [&](const Routes& changed) {
    for (const auto& route : changed) {
      if (load_of(data, route) > data.capacity * (1 + 1e-9)) return;
    }
    best = std::max(best, base - routes_length(data, changed));
  };
  for (size_t r = 0; r < routes.size(); ++r) {
    for (size_t i = 0; i < routes[r].size(); ++i) {
      // Relocate routes[r][i].
      auto without = routes;
      const auto c = without[r][i];
      without[r].erase(without[r].begin() + static_cast<int64_t>(i));
      for (size_t t = 0; t < without.size(); ++t) {
        for (size_t at = 0; at <= without[t].size(); ++at) {
          auto changed = without;
          changed[t].insert(changed[t].begin() + static_cast<int64_t>(at), c);
          consider(changed);
        }
      }
      // Swap it with a customer of a later route.
      for (size_t t = r + 1; t < routes.size(); ++t) {
        for (size_t j = 0; j < routes[t].size(); ++j) {
          auto changed = routes;
          std::swap(changed[r][i], changed[t][j]);
          consider(changed);
        }
      }
      // 2-opt: reverse routes[r][i..j].
      for (size_t j = i + 1; j < routes[r].size(); ++j) {
        auto changed = routes;
        std::reverse(changed[r].begin() + static_cast<int64_t>(i),
                     changed[r].begin() + static_cast<int64_t>(j) + 1);
        consider(changed);
      }
    }
  }
  return best;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// --- CvrpData::validate ---

TEST(CvrpData, ValidateAcceptsAConsistentInstance) { EXPECT_NO_THROW(small().validate()); }

TEST(CvrpData, ValidateRejectsNoCustomers) {
  CvrpData data;
  data.capacity = 1;
  expect_message<std::invalid_argument>([&] { data.validate(); }, "customers");
}

TEST(CvrpData, ValidateRejectsNonFiniteCoordinates) {
  auto data = small();
  data.depot.y = std::nan("");
  expect_message<std::invalid_argument>([&] { data.validate(); }, "depot coordinates");
  data = small();
  data.customers[1].x = INFINITY;
  expect_message<std::invalid_argument>([&] { data.validate(); },
                                        "coordinates of customer 2 must be finite, got (inf, 0)");
}

TEST(CvrpData, ValidateRejectsADemandCountMismatch) {
  auto data = small();
  data.demands.pop_back();
  expect_message<std::invalid_argument>([&] { data.validate(); },
                                        "demands has 2 entries for 3 customers");
}

TEST(CvrpData, ValidateRejectsBadCapacities) {
  for (const double capacity : {0.0, -5.0, double(INFINITY), std::nan("")}) {
    auto data = small();
    data.capacity = capacity;
    expect_message<std::invalid_argument>([&] { data.validate(); }, "capacity must be positive");
  }
}

TEST(CvrpData, ValidateRejectsBadDemands) {
  auto data = small();
  data.demands[2] = 0;
  expect_message<std::invalid_argument>([&] { data.validate(); },
                                        "demand of customer 3 is 0, must be positive");
  data.demands[2] = -1;
  expect_message<std::invalid_argument>([&] { data.validate(); }, "demand of customer 3 is -1");
  data.demands[2] = std::nan("");
  expect_message<std::invalid_argument>([&] { data.validate(); }, "demand of customer 3 is nan");
  data.demands[2] = 7;
  expect_message<std::invalid_argument>([&] { data.validate(); },
                                        "demand of customer 3 is 7, above the capacity 6");
}

// --- routes ---

TEST(CvrpRoutes, ActionsRoundTrip) {
  const Routes routes{{3, 5}, {2}, {1, 4}};
  EXPECT_EQ(actions_of_routes(routes), (std::vector<int64_t>{3, 5, 0, 2, 0, 1, 4, 0}));
  EXPECT_EQ(routes_of_actions(actions_of_routes(routes)), routes);
  // Trailing padding, a leading depot and empty routes (depot twice) are dropped.
  EXPECT_EQ(routes_of_actions({0, 3, 5, 0, 0, 2, 0, 1, 4, 0, 0, 0, 0}), routes);
  // An unterminated last route still returns to the depot.
  EXPECT_EQ(routes_of_actions({3, 5, 0, 2, 0, 1, 4}), routes);
  EXPECT_TRUE(routes_of_actions({0, 0, 0}).empty());
  EXPECT_EQ(actions_of_routes({{1}, {}, {2}}), (std::vector<int64_t>{1, 0, 2, 0}));
}

TEST(CvrpRoutes, CheckAcceptsAFeasibleSolution) {
  EXPECT_NO_THROW(check_routes(small(), {{3}, {1, 2}}));
  // 0.1 + 0.2 exceeds 0.3 by rounding only.
  CvrpData data = small();
  data.demands = {0.1, 0.2, 0.3};
  data.capacity = 0.3;
  EXPECT_NO_THROW(check_routes(data, {{1, 2}, {3}}));
}

// Expects check_routes on small() to fail with a message containing `part`.
void expect_check_fails(const Routes& routes, const std::string& part) {
  expect_message<std::logic_error>([&] { check_routes(small(), routes); }, part);
}

TEST(CvrpRoutes, CheckRejectsAMissingCustomer) {
  expect_check_fails({{3}, {1}}, "customer 2 is not visited (1 of 3 customers missing)");
}

TEST(CvrpRoutes, CheckRejectsADuplicate) {
  expect_check_fails({{3}, {1, 2}, {1}}, "customer 1 is visited twice (routes 2 and 3)");
}

TEST(CvrpRoutes, CheckRejectsAnOverCapacityRoute) {
  expect_check_fails({{1}, {2, 3}}, "route 2 carries 7, above the capacity 6");
}

TEST(CvrpRoutes, CheckRejectsAnOutOfRangeId) {
  expect_check_fails({{1, 2}, {3, 4}}, "route 2 visits 4, outside the customers 1..3");
  expect_check_fails({{1, 0, 2}, {3}}, "route 1 visits 0");
  expect_check_fails({{1, 2}, {-3}}, "route 2 visits -3");
}

TEST(CvrpRoutes, LengthOfAHandExample) {
  // 0 -> (3,4) -> (3,0) -> 0 is 5 + 4 + 3; 0 -> (0,4) -> 0 is 8.
  EXPECT_DOUBLE_EQ(routes_length(small(), {{1, 2}, {3}}), 20);
  EXPECT_DOUBLE_EQ(routes_length(small(), {{1, 2}, {}, {3}}), 20);
  EXPECT_THROW((void)routes_length(small(), {{1, 9}}), std::logic_error);
}

// --- CVRPLIB files ---

TEST(Cvrplib, ReadsXn101k25FromShared) {
  EIE_REQUIRE_SHARED();
  const auto instance = read_cvrplib(test::shared_dir() / "instances/X-n101-k25.vrp");
  EXPECT_EQ(instance.name, "X-n101-k25");
  const auto& data = instance.data;
  ASSERT_EQ(data.customers.size(), 100u);
  ASSERT_EQ(data.demands.size(), 100u);
  EXPECT_EQ(data.capacity, 206);
  EXPECT_EQ(data.depot.x, 365);  // node 1, moved out of the customers
  EXPECT_EQ(data.depot.y, 689);
  EXPECT_EQ(data.customers[0].x, 146);  // node 2
  EXPECT_EQ(data.customers[0].y, 180);
  EXPECT_EQ(data.demands[0], 38);
  EXPECT_EQ(data.customers[99].x, 615);  // node 101
  EXPECT_EQ(data.demands[99], 35);
  ASSERT_EQ(instance.file_ids.size(), 100u);
  EXPECT_EQ(instance.file_ids.front(), 2);
  EXPECT_EQ(instance.file_ids.back(), 101);
  EXPECT_TRUE(instance.notes.empty());
}

TEST(Cvrplib, BestKnownSolutionOfXn101k25FromShared) {
  EIE_REQUIRE_SHARED();
  const auto instance = read_cvrplib(test::shared_dir() / "instances/X-n101-k25.vrp");
  const auto sol = read_sol(test::shared_dir() / "instances/X-n101-k25.sol");
  EXPECT_EQ(sol.routes.size(), 26u);
  EXPECT_EQ(sol.routes[0], (Route{31, 46, 35}));
  EXPECT_EQ(sol.cost, 27591);
  EXPECT_NO_THROW(check_routes(instance.data, sol.routes));
  EXPECT_EQ(cvrplib_length(instance.data, sol.routes), 27591);
}

TEST(Cvrplib, ParsesInlineTextWithTheDepotInTheMiddle) {
  const auto instance = parse_cvrplib(
      "NAME:tiny\nCOMMENT : a: b\nTYPE\t:\tCVRP\nDIMENSION :4\nEDGE_WEIGHT_TYPE: EUC_2D\n"
      "CAPACITY : 10\nVEHICLES : 2\nDISTANCE : 100\n"
      "NODE_COORD_SECTION\n 1 1 0\n2\t2 0\n\n4 0 2\n3 0 0\n"
      "DEMAND_SECTION\n1 4\n2 5\n3 0\n4 6\nDEPOT_SECTION\n 3\n -1\n",
      "inline.vrp");
  EXPECT_EQ(instance.name, "tiny");
  EXPECT_EQ(instance.data.depot.x, 0);
  EXPECT_EQ(instance.data.depot.y, 0);
  EXPECT_EQ(instance.file_ids, (std::vector<int64_t>{1, 2, 4}));
  EXPECT_EQ(instance.data.demands, (std::vector<double>{4, 5, 6}));
  EXPECT_EQ(instance.data.customers[2].y, 2);
  EXPECT_EQ(instance.notes.size(), 2u);
  // Each edge is rounded: 0 -> (1,0) -> (2,0) -> 0 is 1 + 1 + 2; 0 -> (0,2) -> 0 is 4.
  EXPECT_EQ(cvrplib_length(instance.data, {{1, 2}, {3}}), 8);
}

TEST(Cvrplib, LengthRoundsEachEdge) {
  CvrpData data;
  data.customers = {{1, 1}};
  data.demands = {1};
  data.capacity = 1;
  // nint(1.414) twice is 2; the unrounded length 2.83 would round to 3.
  EXPECT_EQ(cvrplib_length(data, {{1}}), 2);
  EXPECT_THROW((void)cvrplib_length(data, {}), std::logic_error);
}

TEST(Cvrplib, SolRoundTrip) {
  const auto dir = test::scratch_dir("sol");
  const Routes routes{{3, 5}, {2}, {1, 4}};
  write_sol(dir / "a.sol", routes, 1234);
  EXPECT_EQ(read_file(dir / "a.sol"), "Route #1: 3 5\nRoute #2: 2\nRoute #3: 1 4\nCost 1234\n");
  const auto sol = read_sol(dir / "a.sol");
  EXPECT_EQ(sol.routes, routes);
  EXPECT_EQ(sol.cost, 1234);
  // Nothing but the target is left behind.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
}

TEST(Cvrplib, ReadSolRejectsMalformedFiles) {
  const auto dir = test::scratch_dir("bad-sol");
  const auto expect_rejected = [&](const std::string& text, const std::string& part) {
    const auto path = dir / "bad.sol";
    std::ofstream(path) << text;
    expect_message<std::invalid_argument>([&] { (void)read_sol(path); }, path.string() + part);
  };
  expect_rejected("Route #2: 1\nCost 3\n", ":1: expected Route #1, got Route #2");
  expect_rejected("Route #1: 1 x\nCost 3\n", ":1: customer: expected an integer, got 'x'");
  expect_rejected("Route #1: 1 0\nCost 3\n", ":1: customer ids start at 1, got 0");
  expect_rejected("Route #1:\nCost 3\n", ":1: route 1 is empty");
  expect_rejected("Route #1: 1\n\nCost 3.5\n", ":3: Cost: expected an integer, got '3.5'");
  expect_rejected("Route #1: 1\nRoute 2: 2\nCost 3\n", ":2: expected 'Route #k: customers'");
  expect_rejected("Route #1: 1\nCost 3\nRoute #2: 2\n", ":3: unexpected 'Route #2: 2'");
  expect_rejected("Route #1: 1\n", ": no Cost line");
  expect_rejected("Cost 3\n", ": no routes");
}

// Expects the broken file to be rejected with a message naming it and containing `part`.
void expect_broken(const std::string& file, const std::string& part) {
  const auto path = std::filesystem::path(EIE_TEST_DATA) / "broken" / file;
  ASSERT_TRUE(std::filesystem::exists(path)) << path;
  try {
    (void)read_cvrplib(path);
    ADD_FAILURE() << "accepted " << path;
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(path.string() + part), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
  }
}

TEST(CvrplibBroken, DemandAboveCapacity) {
  expect_broken("cvrp_demand_over_capacity.vrp",
                ":17: demand of node 4 is 60, above the capacity 50");
}
TEST(CvrplibBroken, ZeroCapacity) {
  expect_broken("cvrp_zero_capacity.vrp", ":6: CAPACITY must be positive and finite, got 0");
}
TEST(CvrplibBroken, NegativeCapacity) {
  expect_broken("cvrp_negative_capacity.vrp", ":6: CAPACITY must be positive and finite, got -50");
}
TEST(CvrplibBroken, MissingDepotSection) {
  expect_broken("cvrp_no_depot_section.vrp", ": no DEPOT_SECTION");
}
TEST(CvrplibBroken, DepotIdOutOfRange) {
  expect_broken("cvrp_depot_out_of_range.vrp", ":20: depot id 6 outside 1..5");
}
TEST(CvrplibBroken, TwoDepots) {
  expect_broken("cvrp_two_depots.vrp", ":21: more than one depot (nodes 1 and 2)");
}
TEST(CvrplibBroken, NanCoordinate) {
  expect_broken("cvrp_nan_coordinate.vrp",
                ":10: coordinates of node 3 must be finite and within +-1e+12, got nan 10");
}
TEST(CvrplibBroken, NonNumericCoordinate) {
  expect_broken("cvrp_non_numeric.vrp", ":9: x of node 2: expected a number, got 'ten'");
}
TEST(CvrplibBroken, ShortDemandSection) {
  expect_broken("cvrp_short_demand_section.vrp", ":13: DEMAND_SECTION has 4 of 5 nodes");
}
TEST(CvrplibBroken, LongDemandSection) {
  expect_broken("cvrp_long_demand_section.vrp", ":19: DEMAND_SECTION has more than 5 nodes");
}
TEST(CvrplibBroken, NegativeDemand) {
  expect_broken("cvrp_negative_demand.vrp", ":16: demand of node 3 is -20, must be positive");
}
TEST(CvrplibBroken, ZeroDemand) {
  expect_broken("cvrp_zero_demand.vrp", ":15: demand of node 2 is 0, must be positive");
}
TEST(CvrplibBroken, DepotWithDemand) {
  expect_broken("cvrp_depot_demand.vrp", ":14: demand of the depot (node 1) is 5, must be 0");
}
TEST(CvrplibBroken, TruncatedNodeCoordSection) {
  expect_broken("cvrp_truncated_coords.vrp", ":7: NODE_COORD_SECTION has 3 of 5 nodes");
}
TEST(CvrplibBroken, DuplicateNodeId) {
  expect_broken("cvrp_duplicate_id.vrp", ":11: duplicate node id 3");
}
TEST(CvrplibBroken, NodeIdOutOfRange) {
  expect_broken("cvrp_node_out_of_range.vrp", ":12: node id 6 outside 1..5");
}
TEST(CvrplibBroken, UnsupportedEdgeWeightGeo) {
  expect_broken("cvrp_geo.vrp", ":5: EDGE_WEIGHT_TYPE GEO is not supported (EUC_2D only)");
}
TEST(CvrplibBroken, UnsupportedEdgeWeightExplicit) {
  expect_broken("cvrp_explicit.vrp", ":5: EDGE_WEIGHT_TYPE EXPLICIT is not supported");
}
TEST(CvrplibBroken, WrongType) {
  expect_broken("cvrp_wrong_type.vrp", ":3: TYPE TSP is not supported (CVRP only)");
}
TEST(CvrplibBroken, MissingCapacity) { expect_broken("cvrp_no_capacity.vrp", ": no CAPACITY"); }
TEST(CvrplibBroken, MissingDimension) {
  expect_broken("cvrp_no_dimension.vrp", ":6: NODE_COORD_SECTION before DIMENSION");
}

TEST(CvrplibBroken, EveryBrokenFileIsRejected) {
  int count = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(EIE_TEST_DATA) / "broken")) {
    const auto name = entry.path().filename().string();
    if (name.rfind("cvrp_", 0) != 0 || entry.path().extension() != ".vrp") continue;
    ++count;
    expect_message<std::invalid_argument>([&] { (void)read_cvrplib(entry.path()); },
                                          entry.path().string() + ":");
  }
  EXPECT_GE(count, 10);
}

// --- heuristics ---

TEST(CvrpHeuristics, SavingsIsFeasibleAndBeatsOneRoutePerCustomer) {
  for (unsigned seed = 0; seed < 4; ++seed) {
    for (const int n : {1, 2, 20, 200}) {
      const auto data = random_instance(n, 30, 9, seed);
      const auto routes = savings(data);
      EXPECT_NO_THROW(check_routes(data, routes));
      for (const auto& route : routes) EXPECT_FALSE(route.empty());
      const double trivial = routes_length(data, one_route_per_customer(data));
      if (n > 2) {
        EXPECT_LT(routes_length(data, routes), 0.8 * trivial) << n << " " << seed;
      }
    }
  }
}

TEST(CvrpHeuristics, SavingsOnAnObviousInstance) {
  // Two clusters on either side of the depot; a vehicle holds exactly one cluster.
  CvrpData data;
  data.customers = {{10, 0}, {-10, 0}, {11, 1}, {-11, -1}, {12, 0}, {-12, 0}};
  data.demands = {1, 1, 1, 1, 1, 1};
  data.capacity = 3;
  auto routes = savings(data);
  ASSERT_EQ(routes.size(), 2u);
  std::set<std::set<int64_t>> groups;
  for (const auto& route : routes) groups.insert(std::set<int64_t>(route.begin(), route.end()));
  EXPECT_EQ(groups, (std::set<std::set<int64_t>>{{1, 3, 5}, {2, 4, 6}}));
  // Customers on a ray with room for all: one route out and back.
  data.customers = {{2, 0}, {1, 0}, {3, 0}};
  data.demands = {1, 1, 1};
  routes = savings(data);
  ASSERT_EQ(routes.size(), 1u);
  EXPECT_DOUBLE_EQ(routes_length(data, routes), 6);
}

TEST(CvrpHeuristics, LocalSearchNeverWorsensAndStaysFeasible) {
  for (unsigned seed = 0; seed < 6; ++seed) {
    const auto data = random_instance(60, 20 + 10 * seed, 9, seed);
    for (const auto& start :
         {savings(data), random_routes(data, seed), one_route_per_customer(data)}) {
      const auto improved = local_search(data, start, 10);
      EXPECT_NO_THROW(check_routes(data, improved));
      for (const auto& route : improved) EXPECT_FALSE(route.empty());
      EXPECT_LE(routes_length(data, improved), routes_length(data, start) + 1e-12);
    }
  }
}

TEST(CvrpHeuristics, LocalSearchEndsInALocalOptimum) {
  for (unsigned seed = 0; seed < 8; ++seed) {
    const auto data = random_instance(30, 15 + 5 * (seed % 3), 9, 100 + seed);
    for (const auto& start : {random_routes(data, seed), savings(data)}) {
      const auto improved = local_search(data, start, 30);
      EXPECT_NO_THROW(check_routes(data, improved));
      EXPECT_LE(routes_length(data, improved), routes_length(data, start) + 1e-12);
      EXPECT_LT(best_move_gain(data, improved), 1e-9) << "seed " << seed;
    }
  }
}

TEST(CvrpHeuristics, LocalSearchRejectsAnInfeasibleStart) {
  EXPECT_THROW((void)local_search(small(), {{1, 2, 3}}), std::logic_error);
  EXPECT_THROW((void)local_search(small(), {{1, 2}, {3}}, 0), std::invalid_argument);
}

TEST(CvrpHeuristics, SavingsAndLocalSearchOnXn101k25FromShared) {
  EIE_REQUIRE_SHARED();
  const auto data = read_cvrplib(test::shared_dir() / "instances/X-n101-k25.vrp").data;
  const auto built = savings(data);
  const auto improved = local_search(data, built);
  const auto cost_built = cvrplib_length(data, built);
  const auto cost_improved = cvrplib_length(data, improved);
  std::cout << "X-n101-k25: savings " << cost_built << " (" << built.size()
            << " routes), savings+local " << cost_improved << " (" << improved.size()
            << " routes), best known 27591\n";
  EXPECT_LE(cost_improved, cost_built);
  EXPECT_LT(cost_improved, 1.08 * 27591);
}

TEST(CvrpHeuristics, IteratedSearchIsNoWorseThanItsDescentAndBetterGivenTime) {
  for (const int n : {1, 3, 80}) {
    const auto data = random_instance(n, 30, 9, 11);
    const auto start = savings(data);
    const double descent = routes_length(data, local_search(data, start));
    const auto at_once = iterated_search(data, start, 0, 2);
    EXPECT_NO_THROW(check_routes(data, at_once));
    EXPECT_NEAR(routes_length(data, at_once), descent, 1e-9) << n;  // no time: the descent
    const auto searched = iterated_search(data, start, 0.5, 2);
    EXPECT_NO_THROW(check_routes(data, searched));
    for (const auto& route : searched) EXPECT_FALSE(route.empty());
    EXPECT_LE(routes_length(data, searched), descent + 1e-9) << n;
    if (n == 80) {
      EXPECT_LT(routes_length(data, searched), 0.98 * descent);
    }
  }
}

// Customers that each fill most of a vehicle: the search keeps three out-and-back routes
// whatever kicks it tries (a recreate that finds no room opens a route of its own).
TEST(CvrpHeuristics, IteratedSearchKeepsFullVehiclesFeasible) {
  CvrpData data;
  data.customers = {{1, 0}, {0, 1}, {-1, 0}};
  data.demands = {3, 3, 3};
  data.capacity = 4;
  const auto searched = iterated_search(data, savings(data), 0.05, 1);
  EXPECT_NO_THROW(check_routes(data, searched));
  EXPECT_EQ(searched.size(), 3u);
  EXPECT_DOUBLE_EQ(routes_length(data, searched), 6);
}

TEST(CvrpHeuristics, ThousandsOfCustomersInSeconds) {
  const auto data = random_instance(1600, 50, 9, 7);
  const auto t0 = std::chrono::steady_clock::now();
  const auto built = savings(data);
  const auto t1 = std::chrono::steady_clock::now();
  const auto improved = local_search(data, built);
  const auto t2 = std::chrono::steady_clock::now();
  const auto seconds = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
  std::cout << "n = 1600: savings " << routes_length(data, built) << " in " << seconds(t0, t1)
            << " s, local " << routes_length(data, improved) << " in " << seconds(t1, t2) << " s, "
            << improved.size() << " routes\n";
  EXPECT_NO_THROW(check_routes(data, improved));
  EXPECT_LT(routes_length(data, improved), routes_length(data, built));
  EXPECT_LT(seconds(t0, t2), 30);  // guards against a quadratic pass, not a benchmark
}

TEST(CvrpHeuristics, BatchedMethods) {
  std::vector<CvrpData> instances;
  for (unsigned seed = 0; seed < 5; ++seed) instances.push_back(random_instance(40, 25, 9, seed));
  auto routes = construct_all("savings", instances);
  ASSERT_EQ(routes.size(), instances.size());
  for (size_t i = 0; i < instances.size(); ++i) EXPECT_EQ(routes[i], savings(instances[i]));
  improve_all("local", instances, routes);
  for (size_t i = 0; i < instances.size(); ++i) {
    EXPECT_EQ(routes[i], local_search(instances[i], savings(instances[i])));
  }
  expect_message<std::invalid_argument>([&] { (void)construct_all("nn", instances); },
                                        "unknown CVRP construction 'nn' (savings)");
  expect_message<std::invalid_argument>([&] { improve_all("2opt", instances, routes); },
                                        "unknown CVRP improvement '2opt' (local)");
  routes.pop_back();
  EXPECT_THROW(improve_all("local", instances, routes), std::invalid_argument);
  // A failure inside the parallel loop reaches the caller.
  instances[2].capacity = 0;
  EXPECT_THROW((void)construct_all("savings", instances), std::invalid_argument);
}

}  // namespace
}  // namespace eie::cvrp
