#include "src/agent/calibration_table.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "src/util/atomic_path.h"
#include "src/util/parse.h"

namespace eie {

namespace {

// A table's stamp lines come first, then the header, then the rows.
constexpr char kModelLine[] = "# model: ";
constexpr char kSettingLine[] = "# setting: ";

// A calibration table (`n,layer,VALUE`: an encoder index, glimpse or pointer);
// values must be positive, or >= 0 when `zero_allowed`.

LayerTable read_layer_table(const std::filesystem::path& path, const std::string& value,
                            bool zero_allowed, CalibrationStamp* stamp) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path.string() + ": cannot open calibration table");
  LayerScaleTable table;
  CalibrationStamp read_stamp;
  std::string line;
  int64_t number = 0;
  bool header_seen = false;
  while (std::getline(in, line)) {
    ++number;
    if (!header_seen && line.rfind(kModelLine, 0) == 0) {
      read_stamp.model = line.substr(sizeof kModelLine - 1);
      continue;
    }
    if (!header_seen && line.rfind(kSettingLine, 0) == 0) {
      read_stamp.setting = line.substr(sizeof kSettingLine - 1);
      continue;
    }
    if (!header_seen && table.empty() && line.rfind("n,", 0) == 0) {
      header_seen = true;
      continue;
    }
    if (line.empty()) continue;
    const std::string where = path.string() + ":" + std::to_string(number);
    std::vector<std::string> fields;
    std::stringstream row(line);
    for (std::string field; std::getline(row, field, ',');) fields.push_back(field);
    if (fields.size() != 3) throw std::invalid_argument(where + ": expected n,layer," + value);
    const int64_t n = parse_int(fields[0], where + ": n");
    const double lambda = parse_double(fields[2], where + ": " + value);
    if (!(lambda > 0 || (zero_allowed && lambda == 0)) || !std::isfinite(lambda)) {
      throw std::invalid_argument(where + ": " + value + " must be " +
                                  (zero_allowed ? ">= 0" : "positive") + " and finite");
    }
    auto& scales = table[n];
    if (fields[1] == "glimpse") {
      scales.glimpse = lambda;
    } else if (fields[1] == "pointer" && zero_allowed) {
      scales.pointer = lambda;
    } else {
      const auto layer = static_cast<size_t>(parse_int(fields[1], where + ": layer"));
      if (layer != scales.encoder.size()) {
        throw std::invalid_argument(where + ": encoder layers must be listed in order from 0");
      }
      scales.encoder.push_back(lambda);
    }
  }
  for (const auto& [n, scales] : table) {
    if ((!zero_allowed && scales.glimpse <= 0) || scales.encoder.empty()) {
      throw std::invalid_argument(path.string() + ": n = " + std::to_string(n) +
                                  " lacks encoder layers or the glimpse");
    }
  }
  if (stamp) *stamp = read_stamp;
  return table;
}

void write_layer_table(const std::filesystem::path& path, const LayerTable& table,
                       const std::string& value, bool pointer, const CalibrationStamp& stamp) {
  std::ostringstream file;
  if (!stamp.model.empty()) file << kModelLine << stamp.model << '\n';
  if (!stamp.setting.empty()) file << kSettingLine << stamp.setting << '\n';
  file << "n,layer," << value << "\n";
  file.precision(9);
  for (const auto& [n, values] : table) {
    for (size_t l = 0; l < values.encoder.size(); ++l) {
      file << n << ',' << l << ',' << values.encoder[l] << '\n';
    }
    file << n << ",glimpse," << values.glimpse << '\n';
    if (pointer) file << n << ",pointer," << values.pointer << '\n';
  }
  write_file(path, file.str());
}

}  // namespace

LayerScaleTable read_layer_scales(const std::filesystem::path& path, CalibrationStamp* stamp) {
  return read_layer_table(path, "lambda", false, stamp);
}

void write_layer_scales(const std::filesystem::path& path, const LayerScaleTable& table,
                        const CalibrationStamp& stamp) {
  write_layer_table(path, table, "lambda", false, stamp);
}

LayerTable read_layer_biases(const std::filesystem::path& path, CalibrationStamp* stamp) {
  return read_layer_table(path, "beta", true, stamp);
}

void write_layer_biases(const std::filesystem::path& path, const LayerTable& table,
                        const CalibrationStamp& stamp) {
  write_layer_table(path, table, "beta", true, stamp);
}

void check_stamp(const std::filesystem::path& file, const CalibrationStamp& found,
                 const CalibrationStamp& wanted) {
  if (found.model.empty()) {
    throw std::invalid_argument(file.string() +
                                ": a calibration table without the model it was measured on "
                                "(written before tables recorded it): delete it to measure again");
  }
  if (found.model != wanted.model) {
    throw std::invalid_argument(file.string() + ": calibrated on another model (fingerprint " +
                                found.model + "; this model's is " + wanted.model +
                                "): name another file");
  }
  if (found.setting != wanted.setting) {
    throw std::invalid_argument(file.string() + ": calibrated under another attention setting ('" +
                                found.setting + "'; this one is '" + wanted.setting +
                                "'): name another file");
  }
}

}  // namespace eie
