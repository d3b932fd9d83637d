#include "src/agent/entropy_report.h"

#include <utility>

#include "src/util/gnuplot.h"

namespace eie {

EntropyReport::EntropyReport(bool per_head) : per_head_(per_head) {
  csv_ << "n,layer,head,mean,std\n";
}

void EntropyReport::add_rows(int64_t n, const std::string& layer, const nn::EntropyProbe& probe) {
  const auto mean = probe.mean(), spread = probe.std();
  series_[layer] += std::to_string(n) + ' ' + std::to_string(mean.mean().item<double>()) + '\n';
  if (!per_head_) {
    csv_ << n << ',' << layer << ",all," << mean.mean().item<double>() << ','
         << spread.mean().item<double>() << '\n';
    return;
  }
  for (int64_t h = 0; h < mean.size(0); ++h) {
    csv_ << n << ',' << layer << ',' << h << ',' << mean[h].item<double>() << ','
         << spread[h].item<double>() << '\n';
  }
}

void EntropyReport::add(int64_t n, const nn::EntropyProbes& probes, const std::string& tag) {
  auto& layers = tag.empty() ? layers_ : reference_;
  layers.clear();  // every size has the same layers
  for (size_t l = 0; l < probes.encoder.size(); ++l) {
    layers.push_back("encoder" + std::to_string(l + 1) + tag);
    add_rows(n, layers.back(), probes.encoder[l]);
  }
  for (const auto& [name, probe] :
       {std::pair{"glimpse", &probes.glimpse}, std::pair{"pointer", &probes.pointer}}) {
    if (probe->rows() == 0) continue;
    layers.push_back(name + tag);
    add_rows(n, layers.back(), *probe);
  }
}

void EntropyReport::plot(const std::filesystem::path& png, const std::string& title) const {
  std::ostringstream s, data;
  s << "set termoption noenhanced\nset logscale x 2\nset grid\nset key outside right\n"
    << "set xlabel 'n'\nset ylabel 'mean attention entropy (nats)'\nset title "
    << gnuplot_quote(title) << "\nplot ";
  int64_t index = 0;  // one data set per layer, in plotting order
  const auto line = [&](const std::string& layer, size_t colour, bool dashed) {
    data << series_.at(layer) << "\n\n";
    return "$entropy index " + std::to_string(index++) + " using 1:2 with linespoints linecolor " +
           std::to_string(colour + 1) + (dashed ? " dashtype 3 pointtype 6" : " pointtype 7") +
           " title " + gnuplot_quote(layer);
  };
  for (size_t l = 0; l < layers_.size(); ++l) s << (l ? ", " : "") << line(layers_[l], l, false);
  for (size_t l = 0; l < reference_.size(); ++l) s << ", " << line(reference_[l], l, true);
  s << ", log(x) with lines dashtype 2 lc rgb 'gray' title 'ln n (uniform)'\n";
  gnuplot_png(png, s.str(), {{"entropy", data.str()}});
}

}  // namespace eie
