#include "src/bench/bench_picture.h"

#include <algorithm>
#include <numeric>
#include <sstream>

#include "src/problem/registry.h"
#include "src/util/gnuplot.h"

namespace eie {

namespace {
double mean_cost(const BenchCell& cell) {
  return std::accumulate(cell.costs.begin(), cell.costs.end(), 0.0) /
         static_cast<double>(cell.costs.size());
}
}  // namespace

Picture bench_picture(const BenchConfig& c, const BenchResult& r) {
  const auto objective = make_problem(c.problem, c.options)->objective();
  // The bound row of a row's block, if the block has one.
  const auto bound_of = [&](const std::string& row) -> const std::string* {
    for (const auto& bound : r.bounds) {
      const auto block = bound.substr(0, bound.size() - std::string("bound").size());
      if (row.rfind(block, 0) == 0) return &bound;
    }
    return nullptr;
  };
  const bool gaps = !r.reference.empty() || !r.bounds.empty();
  std::ostringstream data, script;
  std::vector<std::string> drawn;  // rows, in data-set order
  for (const auto& row : r.rows) {
    if (gaps && r.reference.empty() && std::find(r.bounds.begin(), r.bounds.end(), row) != r.bounds.end())
      continue;  // a bound's gap to itself
    for (const auto n : c.sizes) {
      const auto& cell = r.cells.at({row, n});
      const double shown = objective.shown(mean_cost(cell));
      double value = shown;
      if (const auto ref = r.reference.find(n); ref != r.reference.end()) {
        value = 100 * (mean_cost(cell) - ref->second) / ref->second;
      } else if (const auto* bound = bound_of(row); bound && gaps) {
        const double limit = objective.shown(mean_cost(r.cells.at({*bound, n})));
        value = 100 * (shown - limit) / limit;
      }
      data << n << ' ' << value << ' ' << cell.seconds / static_cast<double>(cell.costs.size())
           << '\n';
    }
    data << "\n\n";  // the next row is the next data set
    drawn.push_back(row);
  }
  const std::string y_label = !r.reference.empty() ? "gap to the reference (%)"
                              : gaps               ? "relative to the bound (%)"
                                                   : "mean " + objective.name;
  const auto plot_rows = [&](const std::string& columns) {
    std::string clauses;
    for (size_t i = 0; i < drawn.size(); ++i) {
      clauses += (i ? ", " : "") + std::string("$rows index ") + std::to_string(i) + " using " +
                 columns + " with linespoints lw 1.5 title " + gnuplot_quote(drawn[i]);
    }
    return clauses;
  };
  std::string sizes;  // the table's sizes as the x tics
  for (const auto n : c.sizes) sizes += (sizes.empty() ? "" : ", ") + std::to_string(n);
  script << "set termoption noenhanced\nset multiplot layout 1,2 title " << gnuplot_quote(c.name)
         << "\nset logscale x 2\nset xtics (" << sizes << ")\n"
         << (c.sizes.size() > 1 ? std::string("set autoscale xfix\n")  // one size: a range around it
                                : "set xrange [" + std::to_string(c.sizes[0] / 2) + ":" +
                                      std::to_string(c.sizes[0] * 2) + "]\n")
         << "set offsets graph 0.05, graph 0.05, 0, 0\nset format y '%g'\nset grid\n"
         << "set xlabel 'n'\nset key top left font ',9'\n"
         << "set ylabel " << gnuplot_quote(y_label) << "\nplot " << plot_rows("1:2") << '\n'
         << "set logscale y\nset ylabel 'seconds per instance'\nunset key\nplot "
         << plot_rows("1:3") << "\nunset multiplot\n";
  return {script.str(), {{"rows", data.str()}}, 1400, 600};
}

}  // namespace eie
