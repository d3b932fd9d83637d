// eie train: REINFORCE with a greedy rollout or multi-start baseline.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "src/cli/commands.h"
#include "src/cli/common.h"
#include "src/parallel/job.h"
#include "src/parallel/launcher.h"
#include "src/problem/registry.h"
#include "src/train/data_parallel.h"
#include "src/train/starting_agent.h"
#include "src/train/train_settings.h"
#include "src/train/trainer.h"
#include "src/util/parse.h"

namespace eie::cli {
namespace {

// eie train's flags.
cxxopts::Options train_flags() {
  const TrainSettings d;  // the defaults shown
  cxxopts::Options options("eie train",
                           "Train a policy (REINFORCE, greedy rollout or multi-start baseline)");
  options.add_options()("n,size",
                        "training instance size N (validation, and where scale and bias "
                        "policies grow from)",
                        cxxopts::value<int64_t>()->default_value(std::to_string(d.n)))(
      "sizes",
      "a size curriculum: each step's instances have a size drawn uniformly from MIN-MAX, "
      "--batch x (N / n)^2 of them (a step's memory and time about the same at every n)",
      cxxopts::value<std::string>())(
      "epochs", "epochs", cxxopts::value<int64_t>()->default_value(std::to_string(d.epochs)))(
      "steps", "gradient steps per epoch",
      cxxopts::value<int64_t>()->default_value(std::to_string(d.steps)))(
      "batch", "instances per step",
      cxxopts::value<int64_t>()->default_value(std::to_string(d.batch)))(
      "lr",
      "Adam learning rate (default: the problem's for its protocol, 1e-4 for most; the EIE "
      "paper's 5e-5 for cvrp --protocol eie --capacity 15|20)",
      cxxopts::value<double>())("lr-decay", "learning rate factor per epoch",
                                cxxopts::value<double>()->default_value(shortest_text(d.lr_decay)))(
      "paper-lr", "EIE paper rule: lr x 0.95 when the t-test p-value exceeds 0.95")(
      "time-budget",
      "stop after this many seconds of wall clock (per invocation), the lr falling linearly to 0 "
      "over them",
      cxxopts::value<double>())(
      "cpu-budget",
      "stop when training has taken this many seconds of process CPU time over all resumes "
      "(validation and saving not counted); the lr stays as it is",
      cxxopts::value<double>())(
      "run-budget",
      "stop when training has taken this many seconds of wall clock over all resumes "
      "(validation and saving not counted; the log's train_seconds), the lr falling linearly "
      "to 0 over them: a run trained in bursts (with --stop-after)",
      cxxopts::value<double>())(
      "stop-after",
      "end this invocation after this many seconds of wall clock, the checkpoint ready for "
      "--resume; the lr as it is",
      cxxopts::value<double>())(
      "val-size", "held-out instances for the logged greedy cost",
      cxxopts::value<int64_t>()->default_value(std::to_string(d.val_size)))(
      "baseline-eval-size", "held-out instances for the baseline t-test",
      cxxopts::value<int64_t>()->default_value(std::to_string(d.baseline_eval_size)))(
      "warmup-epochs",
      "epochs with the exponential baseline (mean of the sampled costs) before the greedy "
      "rollout baseline; more than --epochs keeps it throughout",
      cxxopts::value<int64_t>()->default_value(std::to_string(d.warmup_epochs)))(
      "embed-dim", "embedding width",
      cxxopts::value<int64_t>()->default_value(std::to_string(d.embed_dim)))(
      "heads", "attention heads",
      cxxopts::value<int64_t>()->default_value(std::to_string(d.heads)))(
      "layers", "encoder layers",
      cxxopts::value<int64_t>()->default_value(std::to_string(d.layers)))(
      "ff-hidden", "feed-forward width",
      cxxopts::value<int64_t>()->default_value(std::to_string(d.ff_hidden)))(
      "normalization", "batch or layer",
      cxxopts::value<std::string>()->default_value(d.normalization))(
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
      cxxopts::value<std::string>()->default_value(d.baseline))(
      "starts",
      "multistart: first actions per instance (default: every city, customer or box, "
      "at most 100)",
      cxxopts::value<int64_t>())(
      "augment",
      "multistart: 8 = each instance also as its 8 symmetric copies of the square, "
      "one shared baseline over all their trajectories (TSP, CVRP)",
      cxxopts::value<int64_t>()->default_value(std::to_string(d.augment)))(
      "learn-first",
      "multistart: also train the policy's own first action (forcing leaves it untrained, and "
      "greedy decoding follows it): REINFORCE over the K starts, each weighted by its "
      "probability");
  add_problem_flags(options);
  add_job_flags(options);
  add_common_flags(options);
  return options;
}

// A flag's value when it was given (the field keeps its default otherwise).
template <class T>
void take(const cxxopts::ParseResult& args, const std::string& flag, T& field) {
  if (args.count(flag)) field = args[flag].as<T>();
}
template <class T>
void take(const cxxopts::ParseResult& args, const std::string& flag, std::optional<T>& field) {
  if (args.count(flag)) field = args[flag].as<T>();
}

TrainSettings train_settings(const cxxopts::ParseResult& args) {
  TrainSettings s;
  take(args, "size", s.n);
  take(args, "sizes", s.sizes);
  take(args, "epochs", s.epochs);
  take(args, "steps", s.steps);
  take(args, "batch", s.batch);
  take(args, "lr", s.lr);
  take(args, "lr-decay", s.lr_decay);
  s.paper_lr = args.count("paper-lr") > 0;
  take(args, "time-budget", s.time_budget);
  take(args, "cpu-budget", s.cpu_budget);
  take(args, "run-budget", s.run_budget);
  take(args, "stop-after", s.stop_after);
  take(args, "val-size", s.val_size);
  take(args, "baseline-eval-size", s.baseline_eval_size);
  take(args, "warmup-epochs", s.warmup_epochs);
  take(args, "embed-dim", s.embed_dim);
  take(args, "heads", s.heads);
  take(args, "layers", s.layers);
  take(args, "ff-hidden", s.ff_hidden);
  take(args, "normalization", s.normalization);
  take(args, "cosine", s.cosine);
  take(args, "bias-init", s.bias_init);
  s.bias_learn = args.count("bias-learn") > 0;
  take(args, "bias-growth", s.bias_growth);
  take(args, "bias-lr", s.bias_lr);
  if (args.count("init")) s.init = args["init"].as<std::string>();
  if (args.count("out")) s.out = args["out"].as<std::string>();
  s.resume = args.count("resume") > 0;
  take(args, "teacher", s.teacher);
  take(args, "baseline", s.baseline);
  take(args, "starts", s.starts);
  take(args, "augment", s.augment);
  s.learn_first = args.count("learn-first") > 0;
  return s;
}

}  // namespace

int run_train(int argc, char** argv) {
  auto options = train_flags();
  cxxopts::ParseResult args;
  Common common{0, torch::kCPU};
  if (!parse(options, argc, argv, args, common)) return 0;
  const auto ranks = local_ranks(args);
  const auto job = job_address(args);
  const auto timeout = job_timeout(args);
  const int64_t world_size = ranks > 0 ? ranks : job ? job->world_size : 1;
  const bool rank_zero = !job || job->rank == 0;  // has the run directory
  auto setup = train_setup(train_settings(args), problem_name(args), problem_options(args),
                           common.seed, rank_zero);
  auto& t = setup.trainer;
  check_world_size(t, world_size);
  if (ranks > 0) {
    return launch_local_ranks(ranks, arguments_for_ranks(argc, argv), local_job_port(args));
  }

  std::unique_ptr<Collective> collective;
  if (job) collective = join_job(*job, timeout);
  RankZeroFiles files(collective.get());  // what rank 0 reads, wherever this rank runs
  const auto problem = make_problem(problem_name(args), problem_options(args));
  if (t.resume) t.resume_from = files.get(t.resume_from);
  const auto init = setup.init.empty() ? setup.init : files.get(setup.init);
  auto agent = starting_agent(problem, setup.network, t, init);
  agent->network().to(common.device);
  train(*agent, t, collective.get());
  if (rank_zero) std::printf("trained model: %s\n", (t.out_dir / "model.h5").c_str());
  return 0;
}

}  // namespace eie::cli
