// eie train: REINFORCE with a greedy rollout or multi-start baseline.
#include <filesystem>
#include <memory>

#include "src/agent/policy_registry.h"
#include "src/attention/bias_policy.h"
#include "src/cli/commands.h"
#include "src/cli/common.h"
#include "src/parallel/job.h"
#include "src/parallel/launcher.h"
#include "src/problem/registry.h"
#include "src/train/data_parallel.h"
#include "src/train/starting_agent.h"
#include "src/train/trainer.h"

namespace eie::cli {
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

// eie train's flags.
cxxopts::Options train_flags() {
  cxxopts::Options options("eie train",
                           "Train a policy (REINFORCE, greedy rollout or multi-start baseline)");
  options.add_options()("n,size",
                        "training instance size N (validation, and where scale and bias "
                        "policies grow from)",
                        cxxopts::value<int64_t>()->default_value("100"))(
      "sizes",
      "a size curriculum: each step's instances have a size drawn uniformly from MIN-MAX, "
      "--batch x (N / n)^2 of them (a step's memory and time about the same at every n)",
      cxxopts::value<std::string>())("epochs", "epochs",
                                     cxxopts::value<int64_t>()->default_value("500"))(
      "steps", "gradient steps per epoch", cxxopts::value<int64_t>()->default_value("10"))(
      "batch", "instances per step", cxxopts::value<int64_t>()->default_value("256"))(
      "lr",
      "Adam learning rate (default: the problem's for its protocol, 1e-4 for most; the EIE "
      "paper's 5e-5 for cvrp --protocol eie --capacity 15|20)",
      cxxopts::value<double>())("lr-decay", "learning rate factor per epoch",
                                cxxopts::value<double>()->default_value("1.0"))(
      "paper-lr", "EIE paper rule: lr x 0.95 when the t-test p-value exceeds 0.95")(
      "time-budget",
      "stop after this many seconds of wall clock (per invocation), the lr falling linearly to 0 "
      "over them",
      cxxopts::value<double>())(
      "cpu-budget",
      "stop when training has taken this many seconds of process CPU time over all resumes "
      "(validation and saving not counted); the lr stays as it is",
      cxxopts::value<double>())("val-size", "held-out instances for the logged greedy cost",
                                cxxopts::value<int64_t>()->default_value("1000"))(
      "baseline-eval-size", "held-out instances for the baseline t-test",
      cxxopts::value<int64_t>()->default_value("1000"))(
      "warmup-epochs",
      "epochs with the exponential baseline (mean of the sampled costs) before the greedy "
      "rollout baseline; more than --epochs keeps it throughout",
      cxxopts::value<int64_t>()->default_value("1"))(
      "embed-dim", "embedding width", cxxopts::value<int64_t>()->default_value("128"))(
      "heads", "attention heads", cxxopts::value<int64_t>()->default_value("8"))(
      "layers", "encoder layers", cxxopts::value<int64_t>()->default_value("3"))(
      "ff-hidden", "feed-forward width", cxxopts::value<int64_t>()->default_value("512"))(
      "normalization", "batch or layer", cxxopts::value<std::string>()->default_value("batch"))(
      "cosine", "cosine attention in the encoder with scale S (CosScale): softmax(S q^.k^)",
      cxxopts::value<double>())(
      "bias-init",
      "train with a distance bias: the attention layers subtract beta * d_ij from their "
      "scores, beta per head starting at BETA in PARTS (all, or a comma list of encoder, "
      "glimpse, pointer) and at 0 elsewhere: BETA[@PARTS] (TSP, CVRP)",
      cxxopts::value<std::string>())("bias-learn",
                                     "with --bias-init: the optimiser moves the betas")(
      "bias-growth",
      "with --bias-init: how the betas follow the instance size n, in training (see --sizes) "
      "and as trained at inference: fixed, logn (beta ln n / ln N) or sqrtn (beta sqrt(n / N))",
      cxxopts::value<std::string>())(
      "bias-lr",
      "with --bias-learn: the betas' learning rate (default: 100 x --lr, or on --resume "
      "the checkpoint's ratio to the weights' rate; Adam moves a parameter by about its "
      "rate per step, and betas live on a scale of 1-10)",
      cxxopts::value<double>())(
      "init", "start from this model's weights (e.g. trained on smaller n); sizes come from it",
      cxxopts::value<std::string>())("out", "run directory (checkpoint.h5, model.h5, log.csv)",
                                     cxxopts::value<std::string>())(
      "resume", "continue from <out>/checkpoint.h5 (with its learning rate unless --lr is given)")(
      "teacher",
      "imitate a heuristic's solutions instead of REINFORCE, as a warm start: METHOD[+IMPROVE] "
      "as in solve's --method/--improve, e.g. farthest+2opt",
      cxxopts::value<std::string>())(
      "baseline",
      "rollout (Kool et al.: greedy rollout of a frozen policy, t-test at each epoch end) or "
      "multistart (POMO: each instance sampled from K forced first actions, the baseline the "
      "mean of its K trajectories)",
      cxxopts::value<std::string>()->default_value("rollout"))(
      "starts",
      "multistart: first actions per instance (default: every city, customer or box, "
      "at most 100)",
      cxxopts::value<int64_t>())(
      "augment",
      "multistart: 8 = each instance also as its 8 symmetric copies of the square, "
      "one shared baseline over all their trajectories (TSP, CVRP)",
      cxxopts::value<int64_t>()->default_value("1"))(
      "learn-first",
      "multistart: also train the policy's own first action (forcing leaves it untrained, and "
      "greedy decoding follows it): REINFORCE over the K starts, each weighted by its "
      "probability");
  add_problem_flags(options);
  add_job_flags(options);
  add_common_flags(options);
  return options;
}

TrainerOptions trainer_options(const cxxopts::ParseResult& args, const Common& common) {
  TrainerOptions t;
  t.n = at_least(args, "size", 3);
  if (args.count("sizes")) t.sizes = parse_size_range(args["sizes"].as<std::string>());
  t.epochs = at_least(args, "epochs", 1);
  t.steps = at_least(args, "steps", 1);
  t.batch = at_least(args, "batch", 2);
  const auto& described = problem_descriptor(problem_name(args));
  t.lr = args.count("lr") ? positive(args, "lr")
                          : described.default_lr(with_defaults(described, problem_options(args)));
  t.lr_decay = positive(args, "lr-decay");
  t.paper_lr_rule = args.count("paper-lr") > 0;
  if (args.count("time-budget")) t.time_budget = positive(args, "time-budget");
  if (args.count("cpu-budget")) t.cpu_budget = positive(args, "cpu-budget");
  t.val_size = at_least(args, "val-size", 2);
  t.baseline_eval_size = at_least(args, "baseline-eval-size", 2);
  t.warmup_epochs = at_least(args, "warmup-epochs", 0);
  t.seed = common.seed;
  t.out_dir = args["out"].as<std::string>();
  t.resume = args.count("resume") > 0;
  t.resume_with_lr = t.resume && args.count("lr") > 0;
  if (args.count("teacher")) t.teacher = args["teacher"].as<std::string>();
  t.baseline = parse_baseline(args["baseline"].as<std::string>());
  if (args.count("starts")) {
    t.starts = args["starts"].as<int64_t>();
    if (t.starts < 1) throw std::invalid_argument("--starts must be at least 1");
  }
  t.augment = args["augment"].as<int64_t>();
  t.learn_first = args.count("learn-first") > 0;
  if (args.count("bias-lr")) t.bias_lr = positive(args, "bias-lr");
  return t;
}

NetworkOptions network_options(const cxxopts::ParseResult& args) {
  NetworkOptions network;
  network.encoder.embed_dim = at_least(args, "embed-dim", 1);
  network.encoder.heads = at_least(args, "heads", 1);
  if (network.encoder.embed_dim % network.encoder.heads != 0) {
    throw std::invalid_argument("--embed-dim must be a multiple of --heads");
  }
  network.encoder.layers = at_least(args, "layers", 1);
  network.encoder.ff_hidden = at_least(args, "ff-hidden", 1);
  network.encoder.normalization = nn::parse_normalization(args["normalization"].as<std::string>());
  if (args.count("cosine")) network.encoder.cosine_scale = positive(args, "cosine");
  if (args.count("bias-init")) {
    auto& bias = network.encoder.trained_bias;
    bias = trained_bias_options(args["bias-init"].as<std::string>(), args.count("bias-learn") > 0);
    if (args.count("bias-growth")) {
      bias.growth = checked_bias_growth(args["bias-growth"].as<std::string>(), "--bias-growth");
    }
  }
  return network;
}

}  // namespace

int run_train(int argc, char** argv) {
  auto options = train_flags();
  cxxopts::ParseResult args;
  Common common{0, torch::kCPU};
  if (!parse(options, argc, argv, args, common)) return 0;
  if (!args.count("out")) throw std::invalid_argument("--out is required");
  const auto ranks = local_ranks(args);
  const auto job = job_address(args);
  const auto timeout = job_timeout(args);
  const int64_t world_size = ranks > 0 ? ranks : job ? job->world_size : 1;
  const bool rank_zero = !job || job->rank == 0;  // has the run directory
  auto t = trainer_options(args, common);
  const auto network = network_options(args);
  check_flags(
      t, [&](const std::string& flag) { return args.count(flag) > 0; },
      problem_descriptor(problem_name(args)), rank_zero);
  check_world_size(t, world_size);
  if (ranks > 0) {
    return launch_local_ranks(ranks, arguments_for_ranks(argc, argv), local_job_port(args));
  }

  std::unique_ptr<Collective> collective;
  if (job) collective = join_job(*job, timeout);
  RankZeroFiles files(collective.get());  // what rank 0 reads, wherever this rank runs
  const auto problem = make_problem(problem_name(args), problem_options(args));
  if (t.resume) t.resume_from = files.get(t.out_dir / "checkpoint.h5");
  const auto init =
      args.count("init") ? files.get(args["init"].as<std::string>()) : std::filesystem::path();
  auto agent = starting_agent(problem, network, t, init);
  agent->network().to(common.device);
  train(*agent, t, collective.get());
  if (rank_zero) std::printf("trained model: %s\n", (t.out_dir / "model.h5").c_str());
  return 0;
}

}  // namespace eie::cli
