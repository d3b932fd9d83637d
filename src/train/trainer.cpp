#include "src/train/trainer.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "src/agent/model_file.h"
#include "src/agent/strategies.h"
#include "src/nn/batch_statistics.h"
#include "src/nn/distance_bias.h"
#include "src/train/algorithm.h"
#include "src/train/checkpoint.h"
#include "src/train/data_parallel.h"
#include "src/train/run_clock.h"
#include "src/train/training_log.h"
#include "src/util/progress.h"

namespace eie {

namespace {

// The network's weights, then (when it learns them) its distance betas as a group of
// their own: Adam moves a parameter by about its learning rate per step whatever the
// gradient's size, and betas of 1-10 need far more than weights of 0.1.
std::vector<torch::optim::OptimizerParamGroup> parameter_groups(torch::nn::Module& network,
                                                                const TrainerOptions& o) {
  std::vector<torch::Tensor> weights, betas;
  for (const auto& p : network.named_parameters()) {
    const bool beta = p.value().requires_grad() && nn::is_trained_beta(p.key());
    (beta ? betas : weights).push_back(p.value());
  }
  if (o.bias_lr > 0 && betas.empty()) {
    throw std::invalid_argument("--bias-lr: the network has no learned distance betas");
  }
  std::vector<torch::optim::OptimizerParamGroup> groups;
  groups.emplace_back(weights);
  if (!betas.empty()) groups.emplace_back(betas);
  return groups;
}

// The weights' rate `lr`; the betas' (the second group) keeps its ratio to it.
void set_lr(torch::optim::Adam& optimizer, double lr, double beta_ratio) {
  auto& groups = optimizer.param_groups();
  for (size_t i = 0; i < groups.size(); ++i) {
    static_cast<torch::optim::AdamOptions&>(groups[i].options()).lr(i == 0 ? lr : lr * beta_ratio);
  }
}

// Temporary files (AtomicPath's NAME.tmp-PID) that a killed run left in `dir`.
void remove_stale_temporaries(const std::filesystem::path& dir) {
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().filename().string().find(".tmp-") != std::string::npos) {
      std::error_code ignored;
      std::filesystem::remove(entry.path(), ignored);
    }
  }
}

// What every epoch of a run uses.
struct Run {
  const TrainerOptions& o;        // the run's options
  Agent& agent;                   // the policy trained
  Algorithm& algorithm;           // how a batch becomes a loss
  torch::optim::Adam& optimizer;  // of agent's network
  torch::Generator& generator;    // this rank's instances and samples
  const RunClock& clock;          // the budgets
  Collective* collective;         // the job's ranks (or nullptr)
};

// What an epoch's steps did.
struct EpochSteps {
  double mean_cost = 0;         // mean over the steps of their mean cost
  double seconds_per_step = 0;  // wall clock
};

// The gradient steps of `epoch`: o.steps of them, or fewer when a budget or the
// invocation's limit runs out (always one). With a time or run budget, the rate falls
// with it.
EpochSteps train_steps(const Run& run, const Progression& progress, int64_t epoch, Progress& bar) {
  const auto& o = run.o;
  const int64_t world_size = run.collective ? run.collective->size() : 1;
  run.agent.network().train();
  double cost_sum = 0;
  int64_t done = 0;
  const auto start = std::chrono::steady_clock::now();
  for (; done < o.steps; ++done) {
    const double left = run.clock.budget_left();
    if ((left <= 0 || !run.clock.cpu_left() || !run.clock.invocation_left()) && done > 0) break;
    if (o.time_budget > 0 || o.run_budget > 0) {
      set_lr(run.optimizer, progress.lr * left, progress.beta_ratio);
    }
    const int64_t n = o.sizes.empty() ? o.n : step_size(o.sizes, o.seed, epoch, done);
    const int64_t instances = o.sizes.empty() ? o.batch : step_batch(o.batch, o.n, n, world_size);
    // Drawn on the CPU (its generators: the same data on every device), then moved
    // where the network is.
    const auto batch = run.agent.problem()
                           .generate(instances / world_size, n, run.generator)
                           .to(run.agent.device());
    const auto step = run.algorithm.loss(batch, n, epoch, run.generator);
    run.optimizer.zero_grad();
    step.loss.backward();
    if (run.collective) average_gradients(run.agent.network(), *run.collective);
    torch::nn::utils::clip_grad_norm_(run.agent.network().parameters(), o.max_grad_norm);
    run.optimizer.step();
    cost_sum += step.mean_cost;
    char status[64];
    std::snprintf(status, sizeof status, "epoch %lld cost %.3f", static_cast<long long>(epoch),
                  step.mean_cost);
    bar.advance(1, status);
  }
  const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
  return {cost_sum / static_cast<double>(done), seconds.count() / static_cast<double>(done)};
}

// The mean greedy cost on the held-out set, each rank decoding its share.
double validation_cost(const Run& run, const Instances& val_set) {
  const auto share = share_of(run.o.val_size, run.collective);
  const auto part = val_set.slice(share.begin, share.end);
  const auto chunk = device_chunk(run.agent, run.o.n, 256);
  const auto cost = solve(run.agent, part, Decoding{}, chunk, run.generator).cost.sum();
  return sum_over_ranks(cost.item<double>(), run.collective) / static_cast<double>(run.o.val_size);
}

}  // namespace

void train(Agent& agent, const TrainerOptions& o, Collective* collective) {
  check_options(agent, o, collective);
  auto groups = parameter_groups(agent.network(), o);  // may refuse --bias-lr: before writing
  const int64_t rank = collective ? collective->rank() : 0;
  const bool writer = rank == 0;  // rank 0 alone writes the run directory
  if (collective) broadcast_state(agent.network(), *collective);
  RunClock clock(o, collective);
  if (writer) std::filesystem::create_directories(o.out_dir);
  auto generator = at::make_generator<at::CPUGeneratorImpl>(rank_seed(o.seed, rank, 0));
  auto val_generator = at::make_generator<at::CPUGeneratorImpl>(o.seed * 7919 + 1);
  const auto val_set = agent.problem().generate(o.val_size, o.n, val_generator).to(agent.device());

  torch::optim::Adam optimizer(std::move(groups), torch::optim::AdamOptions(o.lr));
  Progression progress;
  progress.lr = o.lr;
  if (o.bias_lr > 0) progress.beta_ratio = o.bias_lr / o.lr;
  const auto algorithm = make_algorithm(agent, o, progress.ema, collective);
  RolloutBaseline* baseline = algorithm->baseline();
  TrainingLog log(o, agent.problem().name());
  if (o.resume) {
    if (writer) remove_stale_temporaries(o.out_dir);
    progress = load_checkpoint(o, agent, baseline, optimizer, generator, progress);
    // The checkpoint holds rank 0's generator; the others start fresh streams.
    if (rank > 0) generator.set_current_seed(rank_seed(o.seed, rank, progress.epoch));
    if (o.resume_with_lr) progress.lr = o.lr;
    if (writer) {
      log.resume(progress.epoch);
      std::fprintf(stderr, "resuming %s after epoch %lld\n", o.out_dir.c_str(),
                   static_cast<long long>(progress.epoch));
    }
  }
  set_lr(optimizer, progress.lr, progress.beta_ratio);
  clock.start(progress.cpu_seconds, progress.train_seconds);
  // Batch normalisation over the global batch while training.
  std::optional<nn::SyncBatchStatistics> global_batch_statistics;
  if (collective) global_batch_statistics.emplace(*collective);
  const Run run{o, agent, *algorithm, optimizer, generator, clock, collective};
  Progress bar("train", (o.epochs - progress.epoch) * o.steps);
  for (int64_t epoch = progress.epoch;
       epoch < o.epochs && clock.budget_left() > 0 && clock.cpu_left() && clock.invocation_left();
       ++epoch) {
    const auto start = std::chrono::steady_clock::now();
    const auto steps = train_steps(run, progress, epoch, bar);
    const auto verdict = baseline ? baseline->update(agent)  // the recipe's cost: counted
                                  : RolloutBaseline::Verdict{std::nan(""), false};
    clock.stop_steps();
    progress.cpu_seconds = clock.cpu_spent();
    progress.train_seconds = clock.train_spent();
    const double val_cost = validation_cost(run, val_set);
    if (collective) check_ranks_agree(agent.network(), *collective);
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    const EpochRecord record{epoch,
                             steps.mean_cost,
                             val_cost,
                             verdict.replaced,
                             verdict.p_value,
                             progress.lr * clock.budget_left(),
                             seconds.count(),
                             steps.seconds_per_step,
                             progress.cpu_seconds,
                             agent.device().str(),
                             progress.train_seconds};
    const auto row = log.add(record);
    progress.lr *= o.lr_decay;
    if (o.paper_lr_rule && verdict.p_value > 0.95) progress.lr *= 0.95;
    set_lr(optimizer, progress.lr, progress.beta_ratio);
    progress.epoch = epoch + 1;
    bool go_on = true;  // the on_epoch hook lets the run continue
    if (writer) {  // rank 0 alone writes the run directory
      // The log row first: a run killed before its checkpoint lands resumes from the
      // previous one and rewrites the row; never a checkpoint without its row.
      log.write();
      save_checkpoint(o, agent, baseline, optimizer, generator, progress);
      save_model(agent, o.out_dir / "model.h5");
      // The policy that won the last t-test: usually the one to ship.
      if (verdict.replaced) save_model(baseline->agent(), o.out_dir / "baseline.h5");
      clock.exclude(log.draw_curve());  // not counted against either budget
      if (!::isatty(2)) std::fprintf(stderr, "%s\n", row.c_str());
      if (o.on_epoch) {
        const auto called = std::chrono::steady_clock::now();
        go_on = o.on_epoch(record);
        clock.exclude(std::chrono::steady_clock::now() - called);
      }
    }
    // Validation, saving and the hook left out of the CPU time.
    clock.pause_until_now(progress.cpu_seconds);
    if (collective) go_on = sum_over_ranks(go_on ? 0.0 : 1.0, collective) == 0;  // rank 0's word
    if (!go_on) break;
  }
}

}  // namespace eie
