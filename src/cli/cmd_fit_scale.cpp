// eie fit-scale: the EIE lambda-network and the exact entropy-matching roots.
#include <fstream>
#include <sstream>

#include "src/attention/entropy.h"
#include "src/attention/scale_fit.h"
#include "src/attention/scale_policy.h"
#include "src/cli/commands.h"
#include "src/cli/common.h"
#include "src/util/atomic_path.h"
#include "src/util/gnuplot.h"
#include "src/util/progress.h"

namespace eie::cli {

namespace {

// The entropy panel draws a subset of the policies, to stay readable (logn-sqrt's
// entropies, for one, fall far below the others').
constexpr const char* kEntropyPanel[] = {"sqrt", "logn-d", "infoscale", "eie", "eie-exact"};

// n,policy,lambda,entropy for every policy on the grid.
std::string table_csv(const std::filesystem::path& scale_file, const EntropyEstimator& estimator,
                      const ScaleNetworkOptions& o, const std::vector<int64_t>& grid) {
  std::ostringstream csv;
  csv << "n,policy,lambda,entropy\n";
  for (const auto& name : scale_policy_names()) {
    const std::string spec =
        name == "eie" || name == "eie-exact" ? name + ":" + scale_file.string() : name;
    const auto policy = make_scale_policy(spec);
    for (const auto n : grid) {
      const double lambda = policy->lambda({n, o.head_dim, o.train_n});
      csv << n << ',' << name << ',' << lambda << ',' << estimator.expected(n, lambda) << '\n';
    }
  }
  return csv.str();
}

// Plots the datablock $scales (the CSV).
std::string plot_script(const ScaleNetworkOptions& o) {
  std::ostringstream s;
  s << "set datafile separator ','\nset multiplot layout 1,2 title 'd = " << o.head_dim
    << ", N = " << o.train_n << "'\nset logscale x 2\nset grid\nset key top left\nset xlabel 'n'\n"
    << "set ylabel 'lambda'\nplot ";
  const auto series = [&](const std::string& policy) {
    return std::string("$scales using 1:(strcol(2) eq '") + policy +
           "' ? $3 : 1/0) with linespoints title '" + policy + "'";
  };
  bool first = true;
  for (const auto& p : scale_policy_names()) s << (first ? "" : ", ") << series(p), first = false;
  s << "\nset ylabel 'expected entropy (nats)'\nplot ";
  first = true;
  for (const auto* p : kEntropyPanel) {
    s << (first ? "" : ", ") << "$scales using 1:(strcol(2) eq '" << p
      << "' ? $4 : 1/0) with linespoints title '" << p << "'";
    first = false;
  }
  s << "\nunset multiplot\n";
  return s.str();
}

}  // namespace

int run_fit_scale(int argc, char** argv) {
  cxxopts::Options options("eie fit-scale",
                           "Fit lambda(n) keeping the expected attention entropy of length N");
  options.add_options()("head-dim", "head size d", cxxopts::value<int64_t>()->default_value("16"))(
      "train-n", "training length N", cxxopts::value<int64_t>()->default_value("100"))(
      "max-n", "largest length N_max", cxxopts::value<int64_t>()->default_value("1600"))(
      "epochs", "network training epochs", cxxopts::value<int64_t>()->default_value("500"))(
      "batch", "sizes per epoch", cxxopts::value<int64_t>()->default_value("256"))(
      "lr", "Adam learning rate, x 0.99 per epoch (paper: 1e-3; 1e-2 fits better here)",
      cxxopts::value<double>()->default_value("1e-2"))(
      "width", "hidden width d'", cxxopts::value<int64_t>()->default_value("10"))(
      "blocks", "residual blocks N_r", cxxopts::value<int64_t>()->default_value("3"))(
      "queries", "sampled queries of the entropy estimator",
      cxxopts::value<int64_t>()->default_value("16384"))(
      "fit", "loss: the paper's entropy loss; roots: regression on the exact roots",
      cxxopts::value<std::string>()->default_value("loss"))(
      "out", "scale file FILE.h5 (FILE.csv and FILE.png are written beside it)",
      cxxopts::value<std::string>());
  add_common_flags(options);
  cxxopts::ParseResult args;
  Common common{0, torch::kCPU};
  if (!parse(options, argc, argv, args, common)) return 0;
  if (!args.count("out")) throw std::invalid_argument("--out is required");
  const std::filesystem::path out = args["out"].as<std::string>();
  if (out.extension() != ".h5")
    throw std::invalid_argument("--out must end in .h5, got " + out.string());

  ScaleNetworkOptions net;
  net.head_dim = at_least(args, "head-dim", 1);
  net.train_n = at_least(args, "train-n", 2);
  net.max_n = at_least(args, "max-n", net.train_n + 1);
  net.width = at_least(args, "width", 1);
  net.blocks = at_least(args, "blocks", 0);
  ScaleFitOptions fit;
  fit.epochs = at_least(args, "epochs", 1);
  fit.batch = at_least(args, "batch", 1);
  fit.lr = positive(args, "lr");
  fit.seed = common.seed;
  const auto mode = args["fit"].as<std::string>();
  if (mode != "loss" && mode != "roots")
    throw std::invalid_argument("--fit: expected loss or roots, got '" + mode + "'");
  fit.regress_roots = mode == "roots";
  const int64_t queries = at_least(args, "queries", fit.queries_per_size);

  torch::manual_seed(common.seed);
  const EntropyEstimator estimator(net.head_dim, net.max_n, queries, common.seed);
  const auto grid = scale_grid(net.train_n, net.max_n);
  std::fprintf(stderr, "solving eie-exact on %zu sizes\n", grid.size());
  const auto exact = exact_scales(estimator, net.train_n, grid);

  ScaleNetwork network(net);
  Progress bar("fit-scale", fit.epochs);
  fit_scale_network(network, estimator, fit, grid, exact, [&](int64_t, double loss) {
    char status[48];
    std::snprintf(status, sizeof status, "loss %.3g", loss);
    bar.advance(1, status);
  });

  AtomicPath h5(out), csv(std::filesystem::path(out).replace_extension(".csv")),
      png(std::filesystem::path(out).replace_extension(".png"));
  write_scale_file(h5.temporary(), network, grid, exact);
  const EntropyEstimator evaluation(net.head_dim, net.max_n, queries, common.seed + 1);
  const auto table = table_csv(h5.temporary(), evaluation, net, grid);
  csv.write(table);
  gnuplot_png(png.temporary(), plot_script(net), {{"scales", table}});
  h5.commit();
  csv.commit();
  png.commit();

  double worst = 0;
  torch::NoGradGuard no_grad;
  const auto fitted = network(torch::tensor(grid, torch::kDouble));
  for (size_t i = 0; i < grid.size(); ++i) {
    worst = std::max(worst, std::abs(fitted[i].item<double>() - exact[i]));
  }
  std::printf("wrote %s (+ .csv, .png); max |eie - eie-exact| on the grid = %.4f\n", out.c_str(),
              worst);
  return 0;
}

}  // namespace eie::cli
