#include "src/train/train_settings.h"

#include <stdexcept>

#include "src/attention/bias_policy.h"
#include "src/util/parse.h"

namespace eie {

namespace {

// --bias-init BETA[@PARTS], read as the inference spelling "fixed:BETA[@PARTS]".
nn::TrainedBiasOptions trained_bias_options(const std::string& text, bool learn) {
  BiasSpec spec;
  try {
    spec = parse_bias_spec("fixed:" + text);
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument("--bias-init '" + text +
                                "': expected BETA[@PARTS], BETA finite and >= 0, PARTS all "
                                "or a comma list of encoder, glimpse, pointer (e.g. "
                                "8@glimpse,pointer)");
  }
  if (!spec.beta) throw std::invalid_argument("--bias-init '" + text + "': no BETA");
  const auto at = [&](bool applies) { return applies ? *spec.beta : 0.0; };
  nn::TrainedBiasOptions bias;
  bias.enabled = true;
  bias.encoder_init = at(spec.parts.encoder);
  bias.glimpse_init = at(spec.parts.glimpse);
  bias.pointer_init = at(spec.parts.pointer);
  bias.learn = learn;
  return bias;
}

TrainerOptions trainer_options(const TrainSettings& s, const ProblemDescriptor& problem,
                               const ProblemOptions& options, uint64_t seed) {
  TrainerOptions t;
  t.n = flag_at_least(s.n, "size", 3);
  if (!s.sizes.empty()) t.sizes = parse_size_range(s.sizes);
  t.epochs = flag_at_least(s.epochs, "epochs", 1);
  t.steps = flag_at_least(s.steps, "steps", 1);
  t.batch = flag_at_least(s.batch, "batch", 2);
  t.lr = s.lr ? flag_positive(*s.lr, "lr") : problem.default_lr(with_defaults(problem, options));
  t.lr_decay = flag_positive(s.lr_decay, "lr-decay");
  t.paper_lr_rule = s.paper_lr;
  if (s.time_budget) t.time_budget = flag_positive(*s.time_budget, "time-budget");
  if (s.cpu_budget) t.cpu_budget = flag_positive(*s.cpu_budget, "cpu-budget");
  if (s.run_budget) t.run_budget = flag_positive(*s.run_budget, "run-budget");
  if (s.stop_after) t.stop_after = flag_positive(*s.stop_after, "stop-after");
  if (s.time_budget && s.run_budget) {
    throw std::invalid_argument(
        "--time-budget and --run-budget both set the learning rate's fall to 0: give one");
  }
  t.val_size = flag_at_least(s.val_size, "val-size", 2);
  t.baseline_eval_size = flag_at_least(s.baseline_eval_size, "baseline-eval-size", 2);
  t.warmup_epochs = flag_at_least(s.warmup_epochs, "warmup-epochs", 0);
  t.seed = seed;
  t.out_dir = s.out;
  t.resume = s.resume;
  t.resume_from = s.out / "checkpoint.h5";
  t.resume_with_lr = s.resume && s.lr;
  t.teacher = s.teacher;
  t.baseline = parse_baseline(s.baseline);
  if (s.starts) t.starts = flag_at_least(*s.starts, "starts", 1);
  t.augment = s.augment;
  t.learn_first = s.learn_first;
  if (s.bias_lr) t.bias_lr = flag_positive(*s.bias_lr, "bias-lr");
  return t;
}

NetworkOptions network_options(const TrainSettings& s) {
  NetworkOptions network;
  auto& encoder = network.encoder;
  encoder.embed_dim = flag_at_least(s.embed_dim, "embed-dim", 1);
  encoder.heads = flag_at_least(s.heads, "heads", 1);
  if (encoder.embed_dim % encoder.heads != 0) {
    throw std::invalid_argument("--embed-dim must be a multiple of --heads");
  }
  encoder.layers = flag_at_least(s.layers, "layers", 1);
  encoder.ff_hidden = flag_at_least(s.ff_hidden, "ff-hidden", 1);
  encoder.normalization = nn::parse_normalization(s.normalization);
  if (s.cosine) encoder.cosine_scale = flag_positive(*s.cosine, "cosine");
  if (!s.bias_init.empty()) {
    encoder.trained_bias = trained_bias_options(s.bias_init, s.bias_learn);
    if (!s.bias_growth.empty()) {
      encoder.trained_bias.growth = checked_bias_growth(s.bias_growth, "--bias-growth");
    }
  }
  return network;
}

// The rules between the flags that the options' values do not show (a flag of the
// rollout baseline counts as given when it differs from its default).
void check_together(const TrainSettings& s, const TrainerOptions& t,
                    const ProblemDescriptor& problem, bool run_directory) {
  if (t.baseline == BaselineKind::multistart) {
    const TrainSettings defaults;
    for (const auto& [given, flag] :
         {std::pair{s.baseline_eval_size != defaults.baseline_eval_size, "baseline-eval-size"},
          std::pair{s.paper_lr, "paper-lr"},
          std::pair{s.warmup_epochs != defaults.warmup_epochs, "warmup-epochs"}}) {
      if (given) {
        throw std::invalid_argument(std::string("--") + flag +
                                    " belongs to the rollout baseline: not with --baseline "
                                    "multistart");
      }
    }
  }
  if (run_directory && t.resume && !std::filesystem::exists(t.resume_from)) {
    throw std::invalid_argument("--resume: no checkpoint.h5 in " + t.out_dir.string());
  }
  if (!s.bias_init.empty()) {
    if (!problem.node_positions) {
      throw std::invalid_argument("--bias-init needs node positions (" + problem.name +
                                  " has none)");
    }
  } else if (s.bias_learn || !s.bias_growth.empty()) {
    throw std::invalid_argument(std::string(s.bias_learn ? "--bias-learn" : "--bias-growth") +
                                " needs --bias-init");
  }
  if (t.resume && (!s.init.empty() || !s.bias_init.empty())) {
    throw std::invalid_argument(
        "--resume continues the checkpoint's network: no --init or "
        "--bias-init");
  }
}

}  // namespace

TrainSetup train_setup(const TrainSettings& settings, const std::string& problem,
                       const ProblemOptions& options, uint64_t seed, bool run_directory) {
  if (settings.out.empty()) throw std::invalid_argument("--out is required");
  const auto& described = problem_descriptor(problem);
  TrainSetup setup{trainer_options(settings, described, options, seed), network_options(settings),
                   settings.init};
  check_together(settings, setup.trainer, described, run_directory);
  return setup;
}

}  // namespace eie
