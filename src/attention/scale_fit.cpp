#include "src/attention/scale_fit.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "src/io/h5_file.h"
#include "src/io/model_format.h"

namespace eie {

std::vector<int64_t> scale_grid(int64_t train_n, int64_t max_n) {
  std::set<int64_t> sizes;
  for (int64_t n = train_n; n <= max_n; n *= 2) sizes.insert(n);
  constexpr int kSteps = 24;
  for (int i = 0; i <= kSteps; ++i) {
    const double x = std::log(train_n) + (std::log(max_n) - std::log(train_n)) * i / kSteps;
    sizes.insert(std::clamp<int64_t>(std::llround(std::exp(x)), train_n, max_n));
  }
  return {sizes.begin(), sizes.end()};
}

std::vector<double> exact_scales(const EntropyEstimator& estimator, int64_t train_n,
                                 const std::vector<int64_t>& grid) {
  const double target =
      estimator.expected(train_n, 1.0 / std::sqrt(static_cast<double>(estimator.head_dim())));
  std::vector<double> scales;
  for (const auto n : grid) scales.push_back(solve_scale(estimator, n, target));
  return scales;
}

void fit_scale_network(ScaleNetwork& network, const EntropyEstimator& estimator,
                       const ScaleFitOptions& o, const std::vector<int64_t>& grid,
                       const std::vector<double>& exact,
                       const std::function<void(int64_t, double)>& on_epoch) {
  const auto& net = network->options();
  const double target =
      estimator.expected(net.train_n, 1.0 / std::sqrt(static_cast<double>(net.head_dim)));
  auto gen = at::make_generator<at::CPUGeneratorImpl>(o.seed);
  torch::optim::Adam optimizer(network->parameters(), torch::optim::AdamOptions(o.lr));
  const auto grid_n = torch::tensor(grid, torch::kDouble);
  const auto grid_exact = torch::tensor(exact, torch::kDouble);
  const int64_t queries = o.queries_per_size;
  double lr = o.lr;
  for (int64_t epoch = 0; epoch < o.epochs; ++epoch) {
    torch::Tensor loss;
    if (o.regress_roots) {
      loss = (network(grid_n) - grid_exact).square().mean();
    } else {
      // Integers in (N, N_max], log-uniform: lambda changes fastest just above N.
      const double span = std::log(static_cast<double>(net.max_n) / net.train_n);
      const auto sizes =
          (net.train_n * torch::exp(torch::rand({o.batch}, gen, torch::kDouble) * span))
              .ceil()
              .clamp(net.train_n + 1, net.max_n)
              .to(torch::kLong);
      const auto lambdas = network(sizes);
      const auto rows =
          torch::randint(0, estimator.queries(), {o.batch, queries}, gen, torch::kLong);
      std::vector<torch::Tensor> errors;
      for (int64_t i = 0; i < o.batch; ++i) {
        errors.push_back(estimator.expected_rows(sizes[i].item<int64_t>(), rows[i], lambdas[i]) -
                         target);
      }
      loss = torch::stack(errors).square().mean();
    }
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    lr *= o.lr_decay;
    for (auto& group : optimizer.param_groups()) {
      static_cast<torch::optim::AdamOptions&>(group.options()).lr(lr);
    }
    if (on_epoch) on_epoch(epoch, loss.item<double>());
  }
}

void write_scale_file(const std::filesystem::path& path, ScaleNetwork& network,
                      const std::vector<int64_t>& grid, const std::vector<double>& exact) {
  const auto& o = network->options();
  h5::Writer writer(path);
  write_spec(writer,
             {{"head_dim", o.head_dim},
              {"train_n", o.train_n},
              {"max_n", o.max_n},
              {"width", o.width},
              {"blocks", o.blocks}},
             "scale");
  write_module(writer, "network", *network);
  torch::NoGradGuard no_grad;
  const auto n = torch::tensor(grid, torch::kLong);
  writer.write("table/n", n);
  writer.write("table/eie", network->forward(n.to(torch::kDouble)));
  writer.write("table/eie_exact", torch::tensor(exact, torch::kDouble));
  writer.commit();
}

ScaleFile read_scale_file(const std::filesystem::path& path) {
  const h5::Reader reader(path);
  check_format(reader);
  if (reader.string_attribute("kind") != "scale") {
    throw std::invalid_argument(path.string() + ": not a scale file (made by eie fit-scale)");
  }
  ScaleNetworkOptions o;
  o.head_dim = reader.int_attribute("head_dim");
  o.train_n = reader.int_attribute("train_n");
  o.max_n = reader.int_attribute("max_n");
  o.width = reader.int_attribute("width");
  o.blocks = reader.int_attribute("blocks");
  ScaleFile file;
  file.network = ScaleNetwork(o);
  read_module(reader, "network", *file.network);
  const auto n = reader.read("table/n").to(torch::kLong);
  const auto exact = reader.read("table/eie_exact").to(torch::kDouble);
  file.grid.assign(n.data_ptr<int64_t>(), n.data_ptr<int64_t>() + n.numel());
  file.exact.assign(exact.data_ptr<double>(), exact.data_ptr<double>() + exact.numel());
  return file;
}

}  // namespace eie
