#pragma once

// Calibration tables: per-layer values by size n as CSV, stamped with what they were
// measured on.

#include <filesystem>
#include <string>

#include "src/agent/layer_values.h"

namespace eie {

// What a calibration table was measured on: a cached table is used for that model and
// setting only. In the file as comment lines before the header: "# model: ..." and
// "# setting: ...".
struct CalibrationStamp {
  std::string model;    // nn::module_fingerprint of the network
  std::string setting;  // the rest of the attention config the values depend on
};

// Calibration tables as CSV (`n,layer,lambda`, layer an encoder index or "glimpse");
// read throws std::invalid_argument naming the file and line, and gives the file's
// stamp (empty fields where it has none).
[[nodiscard]] LayerScaleTable read_layer_scales(const std::filesystem::path& path,
                                                CalibrationStamp* stamp = nullptr);
void write_layer_scales(const std::filesystem::path& path, const LayerScaleTable& table,
                        const CalibrationStamp& stamp = {});
// The same for biases (`n,layer,beta`, with a pointer row).
[[nodiscard]] LayerTable read_layer_biases(const std::filesystem::path& path,
                                           CalibrationStamp* stamp = nullptr);
void write_layer_biases(const std::filesystem::path& path, const LayerTable& table,
                        const CalibrationStamp& stamp = {});

// Throws std::invalid_argument naming `file` unless its stamp `found` is `wanted`.
void check_stamp(const std::filesystem::path& file, const CalibrationStamp& found,
                 const CalibrationStamp& wanted);

}  // namespace eie
