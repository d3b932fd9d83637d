#pragma once

#include <cstdint>
#include <map>
#include <vector>

namespace eie {

// Per-layer values found by entropy calibration at one size n: scales lambda
// (--scale calibrated) or distance betas (--bias entropy).
struct LayerValues {
  std::vector<double> encoder;  // one per encoder layer
  double glimpse = 0;           // the decoder glimpse
  double pointer = 0;           // the pointer (betas only)
};
using LayerScales = LayerValues;
using LayerBiases = LayerValues;
using LayerTable = std::map<int64_t, LayerValues>;  // by size n
using LayerScaleTable = LayerTable;

}  // namespace eie
