#include "src/util/peak_memory.h"

#include <malloc.h>

#include <cmath>
#include <fstream>
#include <string>

namespace eie {
namespace {

// A "Vm...:" line of /proc/self/status in MiB, NaN if absent.
double status_mib(const std::string& key) {
  std::ifstream status("/proc/self/status");
  std::string name;
  double kib = 0;
  while (status >> name) {
    if (name == key && status >> kib) return kib / 1024;
    status.ignore(1 << 12, '\n');
  }
  return NAN;
}

}  // namespace

void PeakMemory::reset() {
  malloc_trim(0);
  std::ofstream clear_refs("/proc/self/clear_refs");
  clear_refs << "5" << std::flush;  // 5: reset the high-water mark (Linux >= 4.0)
  const double resident = status_mib("VmRSS:");
  baseline_mib_ = clear_refs.good() && !std::isnan(resident) ? resident : -1;
}

double PeakMemory::mib() const {
  if (baseline_mib_ < 0) return NAN;
  return std::fmax(0.0, status_mib("VmHWM:") - baseline_mib_);
}

}  // namespace eie
