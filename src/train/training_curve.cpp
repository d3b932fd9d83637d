#include "src/train/training_curve.h"

#include <algorithm>
#include <sstream>

#include "src/util/gnuplot.h"

namespace eie {

Picture training_curve(const std::vector<std::string>& rows, const std::string& title) {
  std::ostringstream data;
  for (const auto& row : rows) data << row << '\n';
  // Columns of log.csv: 1 epoch, 2 mean training cost, 3 validation cost, 9 CPU seconds,
  // 10 device, 11 training wall-clock seconds.
  const bool on_gpu = std::any_of(rows.begin(), rows.end(), [](const std::string& row) {
    return row.find(",cuda") != std::string::npos;
  });
  std::ostringstream script;
  script << "set termoption noenhanced\nset datafile separator ','\n"
         << "set multiplot layout 1,2 title " << gnuplot_quote(title) << "\nset grid\n"
         << "set key top right\nset ylabel 'mean cost'\nset xlabel 'epoch'\n"
         << "plot $log using 1:2 with lines lw 1.5 title 'sampled (training)', "
         << "$log using 1:3 with lines lw 2 title 'greedy (held-out)'\n"
         << (on_gpu ? "set xlabel 'minutes of training (wall clock, on the GPU)'\n"
                    : "set xlabel 'hours of training (process CPU time)'\n")
         << "plot $log using " << (on_gpu ? "($11 / 60)" : "($9 / 3600)")
         << ":3 with linespoints pt 7 ps 0.4 lw 2 lc 2 "
         << "title 'greedy (held-out)'\nunset multiplot\n";
  return {script.str(), {{"log", data.str()}}, 1200, 480};
}

}  // namespace eie
