#include "src/train/training_log.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "src/train/training_curve.h"
#include "src/util/atomic_path.h"
#include "src/util/gnuplot.h"

namespace eie {

namespace {

constexpr const char* kLogHeader =
    "epoch,mean_train_cost,val_greedy_cost,baseline_replaced,p_value,lr,seconds,seconds_per_step,"
    "cpu_seconds,device,train_seconds";

}  // namespace

TrainingLog::TrainingLog(const TrainerOptions& o, const std::string& problem)
    : dir_(o.out_dir),
      title_(o.out_dir.filename().string() + ": " + problem + ", n = " + std::to_string(o.n) +
             (o.sizes.empty() ? std::string()
                              : " (steps at n = " + std::to_string(o.sizes.min) + "-" +
                                    std::to_string(o.sizes.max) + ")")) {}

void TrainingLog::resume(int64_t epochs) {
  rows_.clear();
  std::ifstream in(dir_ / "log.csv");
  std::string line;
  std::getline(in, line);  // header
  const auto fields = [](const std::string& text) {
    return std::count(text.begin(), text.end(), ',') + 1;
  };
  const auto columns = fields(kLogHeader);
  while (static_cast<int64_t>(rows_.size()) < epochs && std::getline(in, line)) {
    // Rows of a log from before its last columns existed: those left empty.
    rows_.push_back(line + std::string(std::max<ptrdiff_t>(0, columns - fields(line)), ','));
  }
}

const std::string& TrainingLog::add(const EpochRecord& r) {
  char row[256];
  std::snprintf(row, sizeof row, "%lld,%.5f,%.5f,%d,%.4g,%.6g,%.2f,%.3f,%.1f,%s,%.1f",
                static_cast<long long>(r.epoch), r.mean_train_cost, r.val_greedy_cost,
                r.baseline_replaced ? 1 : 0, r.p_value, r.lr, r.seconds, r.seconds_per_step,
                r.cpu_seconds, r.device.c_str(), r.train_seconds);
  return rows_.emplace_back(row);
}

void TrainingLog::write() const {
  std::string text = std::string(kLogHeader) + '\n';
  for (const auto& row : rows_) text += row + '\n';
  write_file(dir_ / "log.csv", text);
}

std::chrono::steady_clock::duration TrainingLog::draw_curve() {
  const auto start = std::chrono::steady_clock::now();
  if (!draw_) return {};
  try {
    const auto curve = training_curve(rows_, title_);
    gnuplot_png(dir_ / "curve.png", curve.script, curve.data, curve.width, curve.height);
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "eie train: warning: no curve.png (training goes on): %s\n", e.what());
    draw_ = false;  // once: the next epoch would fail the same way
  }
  return std::chrono::steady_clock::now() - start;
}

}  // namespace eie
