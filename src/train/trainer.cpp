#include "src/train/trainer.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "src/agent/model_file.h"
#include "src/agent/strategies.h"
#include "src/io/model_format.h"
#include "src/nn/batch_statistics.h"
#include "src/nn/distance_bias.h"
#include "src/train/data_parallel.h"
#include "src/train/multistart.h"
#include "src/train/rollout_baseline.h"
#include "src/train/training_curve.h"
#include "src/util/atomic_path.h"
#include "src/util/cpu_time.h"
#include "src/util/gnuplot.h"
#include "src/util/progress.h"

namespace eie {

namespace {

constexpr const char* kLogHeader =
    "epoch,mean_train_cost,val_greedy_cost,baseline_replaced,p_value,lr,seconds,seconds_per_step,"
    "cpu_seconds";

// Mutable training state that a checkpoint carries besides the networks.
struct Progression {
  int64_t epoch = 0;     // epochs completed
  double lr = 0;         // current learning rate
  double ema = 0;        // exponential baseline value
  bool ema_set = false;  // ema holds a value
  double cpu_seconds = 0;  // process CPU time spent on the run up to the checkpoint
  double beta_ratio = 100;  // the learned betas' rate over the weights' rate
};

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

void save_checkpoint(const TrainerOptions& o, Agent& agent, RolloutBaseline* baseline,
                     torch::optim::Adam& optimizer, torch::Generator& generator,
                     const Progression& progress) {
  h5::Writer writer(o.out_dir / "checkpoint.h5");
  write_spec(writer, agent.spec(), "checkpoint");
  write_module(writer, "model", agent.network());
  if (baseline) write_module(writer, "baseline", baseline->agent().network());
  std::ostringstream archive_bytes;
  torch::serialize::OutputArchive archive;
  optimizer.save(archive);
  archive.save_to(archive_bytes);
  writer.write("optimizer", bytes_of(archive_bytes.str()));
  writer.write("generator", generator.get_state());
  writer.attribute("epoch", progress.epoch);
  writer.attribute("lr", progress.lr);
  writer.attribute("ema", progress.ema);
  writer.attribute("ema_set", static_cast<int64_t>(progress.ema_set));
  writer.attribute("baseline", to_string(o.baseline));
  if (baseline) writer.attribute("baseline_generation", baseline->generation());
  writer.attribute("cpu_seconds", progress.cpu_seconds);
  writer.attribute("beta_lr_ratio", progress.beta_ratio);
  writer.attribute("seed", static_cast<int64_t>(o.seed));
  writer.attribute("batch", o.batch);
  writer.attribute("steps", o.steps);
  writer.commit();
}

// `p` holds the state a fresh run would start from; the checkpoint's replaces it.
Progression load_checkpoint(const TrainerOptions& o, Agent& agent, RolloutBaseline* baseline,
                            torch::optim::Adam& optimizer, torch::Generator& generator,
                            Progression p) {
  const h5::Reader reader(o.resume_from.empty() ? o.out_dir / "checkpoint.h5" : o.resume_from);
  check_format(reader);
  if (reader.string_attribute("problem") != agent.problem().name() ||
      reader.int_attribute("train_n") != o.n) {
    throw std::invalid_argument(reader.path().string() + ": checkpoint is for " +
                                reader.string_attribute("problem") +
                                " with n = " + std::to_string(reader.int_attribute("train_n")) +
                                ", not this run's problem and size");
  }
  // Checkpoints from before multi-start training have no baseline attribute: rollout.
  const auto saved_baseline =
      reader.has_attribute("baseline") ? reader.string_attribute("baseline") : "rollout";
  if (saved_baseline != to_string(o.baseline)) {
    throw std::invalid_argument(reader.path().string() + ": checkpoint of a run with --baseline " +
                                saved_baseline + ", not " + to_string(o.baseline));
  }
  read_module(reader, "model", agent.network());
  if (baseline) read_module(reader, "baseline", baseline->agent().network());
  const auto bytes = reader.read("optimizer");
  torch::serialize::InputArchive archive;
  // The optimizer's moments go where the network is, whichever device wrote them.
  archive.load_from(reinterpret_cast<const char*>(bytes.data_ptr<uint8_t>()), bytes.numel(),
                    agent.device());
  optimizer.load(archive);
  generator.set_state(reader.read("generator"));
  if (baseline) baseline->restore(reader.int_attribute("baseline_generation"));
  p.epoch = reader.int_attribute("epoch");
  p.lr = reader.double_attribute("lr");
  p.ema = reader.double_attribute("ema");
  p.ema_set = reader.int_attribute("ema_set") != 0;
  if (reader.has_attribute("cpu_seconds")) p.cpu_seconds = reader.double_attribute("cpu_seconds");
  // --bias-lr wins, as on a fresh run (the same flags resume the same run, rate decay
  // included); checkpoints from before the ratio was kept leave the options' ratio.
  if (o.bias_lr <= 0 && reader.has_attribute("beta_lr_ratio")) {
    p.beta_ratio = reader.double_attribute("beta_lr_ratio");
  }
  return p;
}

// The log's rows for the first `epochs` epochs (a resumed run rewrites the rest).
std::vector<std::string> kept_log_rows(const std::filesystem::path& path, int64_t epochs) {
  std::vector<std::string> rows;
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // header
  while (static_cast<int64_t>(rows.size()) < epochs && std::getline(in, line)) rows.push_back(line);
  return rows;
}

void write_log(const std::filesystem::path& path, const std::vector<std::string>& rows) {
  std::string text = std::string(kLogHeader) + '\n';
  for (const auto& row : rows) text += row + '\n';
  write_file(path, text);
}

// The loss of one step: REINFORCE against `reference` costs, or the mean
// per-step cross-entropy of the teacher's solutions.
struct StepLoss {
  torch::Tensor loss;  // to minimise
  double mean_cost = 0;  // of the sampled (or the teacher's) solutions
};

StepLoss reinforce_loss(Agent& agent, RolloutBaseline& baseline, const Instances& batch,
                        bool warmup, double exp_beta, Progression& progress,
                        torch::Generator& generator, Collective* collective) {
  torch::Tensor reference;
  if (!warmup) reference = baseline.costs(batch);
  const auto t = agent.rollout(batch, Selection::sample, generator, {}, Mode::training);
  const double mean_cost = mean_over_ranks(t.cost.mean().item<double>(), collective);
  if (warmup) {
    progress.ema =
        progress.ema_set ? exp_beta * progress.ema + (1 - exp_beta) * mean_cost : mean_cost;
    progress.ema_set = true;
    reference = torch::full_like(t.cost, progress.ema);
  }
  return {((t.cost - reference).detach() * t.log_likelihood).mean(), mean_cost};
}

StepLoss imitation_loss(Agent& agent, const std::string& teacher, const Instances& batch) {
  const auto actions = agent.problem().heuristic(teacher, batch).to(agent.device());
  const auto t = agent.replay(batch, actions, Mode::training);
  return {-t.step_log_probs.mean(), t.cost.mean().item<double>()};
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

// Options that make no sense together; thrown before anything is written.
void check_options(const Agent& agent, const TrainerOptions& o, const Collective* collective) {
  if (collective) check_world_size(o, collective->size());
  if (!o.sizes.empty() && !o.teacher.empty()) {
    throw std::invalid_argument("--sizes: no --teacher with it (imitation runs at N)");
  }
  if (o.baseline == BaselineKind::rollout) {
    if (o.starts != 0 || o.augment != 1 || o.learn_first) {
      throw std::invalid_argument(
          "--starts, --augment and --learn-first need --baseline multistart");
    }
    return;
  }
  if (!o.teacher.empty()) {
    throw std::invalid_argument("--teacher imitates a heuristic: no --baseline multistart with it");
  }
  const int64_t smallest = o.sizes.empty() ? o.n : o.sizes.min;  // of a step's instances
  if (o.starts < 0 || o.starts > smallest) {
    throw std::invalid_argument(
        "--starts " + std::to_string(o.starts) + ": expected 1.." + std::to_string(smallest) +
        " (first actions of an instance of n = " + std::to_string(smallest) + ")");
  }
  if (o.augment != 1 && o.augment != 8) {
    throw std::invalid_argument("--augment " + std::to_string(o.augment) + ": expected 1 or 8");
  }
  if (o.augment == 8) {
    auto probe = at::make_generator<at::CPUGeneratorImpl>(o.seed);
    const auto& problem = agent.problem();
    if (problem.symmetries(problem.generate(1, o.n, probe)).size() != 8) {
      throw std::invalid_argument("--augment 8: problem '" + problem.name() +
                                  "' has no 8 symmetries (its solutions are not invariant under "
                                  "the square's symmetries)");
    }
  }
}

}  // namespace

void check_world_size(const TrainerOptions& o, int64_t world_size) {
  if (o.batch % world_size != 0) {
    throw std::invalid_argument("--batch " + std::to_string(o.batch) +
                                " is not divisible by the world size " +
                                std::to_string(world_size));
  }
  if (std::min(o.val_size, o.baseline_eval_size) < world_size) {
    throw std::invalid_argument("--val-size and --baseline-eval-size must be at least the world "
                                "size " + std::to_string(world_size) + " (a share each)");
  }
}

BaselineKind parse_baseline(const std::string& text) {
  if (text == "rollout") return BaselineKind::rollout;
  if (text == "multistart") return BaselineKind::multistart;
  throw std::invalid_argument("--baseline: expected rollout or multistart, got '" + text + "'");
}

std::string to_string(BaselineKind kind) {
  return kind == BaselineKind::rollout ? "rollout" : "multistart";
}

void train(Agent& agent, const TrainerOptions& o, Collective* collective) {
  check_options(agent, o, collective);
  auto groups = parameter_groups(agent.network(), o);  // may refuse --bias-lr: before writing
  const int64_t rank = collective ? collective->rank() : 0;
  const bool writer = rank == 0;  // rank 0 alone writes the run directory
  const int64_t world_size = collective ? collective->size() : 1;
  if (collective) broadcast_state(agent.network(), *collective);
  const double cpu_at_start = process_cpu_seconds();
  if (writer) std::filesystem::create_directories(o.out_dir);
  auto generator = at::make_generator<at::CPUGeneratorImpl>(rank_seed(o.seed, rank, 0));
  auto val_generator = at::make_generator<at::CPUGeneratorImpl>(o.seed * 7919 + 1);
  // Instances are drawn on the CPU (its generators: the same data on every device),
  // then moved where the network is.
  const auto device = agent.device();
  const auto val_set = agent.problem().generate(o.val_size, o.n, val_generator).to(device);
  const auto val_share = share_of(o.val_size, collective);

  torch::optim::Adam optimizer(std::move(groups), torch::optim::AdamOptions(o.lr));
  const bool multistart = o.baseline == BaselineKind::multistart;
  std::unique_ptr<RolloutBaseline> baseline;
  if (!multistart) {
    baseline = std::make_unique<RolloutBaseline>(agent, o.n, o.baseline_eval_size, o.seed, o.alpha,
                                                 collective);
  }
  Progression progress;
  progress.lr = o.lr;
  if (o.bias_lr > 0) progress.beta_ratio = o.bias_lr / o.lr;
  std::vector<std::string> rows;
  if (o.resume) {
    if (writer) remove_stale_temporaries(o.out_dir);
    progress = load_checkpoint(o, agent, baseline.get(), optimizer, generator, progress);
    // The checkpoint holds rank 0's generator; the others start fresh streams.
    if (rank > 0) generator.set_current_seed(rank_seed(o.seed, rank, progress.epoch));
    if (o.resume_with_lr) progress.lr = o.lr;
    if (writer) {
      rows = kept_log_rows(o.out_dir / "log.csv", progress.epoch);
      std::fprintf(stderr, "resuming %s after epoch %lld\n", o.out_dir.c_str(),
                   static_cast<long long>(progress.epoch));
    }
  }
  set_lr(optimizer, progress.lr, progress.beta_ratio);
  if (!o.teacher.empty()) {  // an unknown heuristic fails now, not after the first epoch
    auto probe = at::make_generator<at::CPUGeneratorImpl>(o.seed);
    (void)agent.problem().heuristic(o.teacher, agent.problem().generate(2, o.n, probe));
  }

  // The run's clock, the same on every rank: its CPU time is the ranks' process CPU
  // time summed (offset + now on each), the time budget follows rank 0's wall clock.
  double cpu_offset = (writer ? progress.cpu_seconds : 0) - cpu_at_start;
  const auto cpu_spent = [&] {
    return sum_over_ranks(cpu_offset + process_cpu_seconds(), collective);
  };
  const auto cpu_left = [&] { return o.cpu_budget <= 0 || cpu_spent() < o.cpu_budget; };
  auto run_start = std::chrono::steady_clock::now();  // moved on by the time pictures take
  const auto budget_left = [&] {  // fraction of the time budget not yet spent
    if (o.time_budget <= 0) return 1.0;
    const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - run_start;
    return from_rank_zero(std::max(0.0, 1.0 - spent.count() / o.time_budget), collective);
  };
  // Batch normalisation over the global batch while training.
  std::optional<nn::SyncBatchStatistics> global_batch_statistics;
  if (collective) global_batch_statistics.emplace(*collective);
  // curve.png, redrawn after every epoch.
  const std::string curve_title =
      o.out_dir.filename().string() + ": " + agent.problem().name() +
      ", n = " + std::to_string(o.n) +
      (o.sizes.empty() ? std::string()
                       : " (steps at n = " + std::to_string(o.sizes.min) + "-" +
                             std::to_string(o.sizes.max) + ")");
  bool draw_curve = true;
  Progress bar("train", (o.epochs - progress.epoch) * o.steps);
  for (int64_t epoch = progress.epoch; epoch < o.epochs && budget_left() > 0 && cpu_left();
       ++epoch) {
    const auto start = std::chrono::steady_clock::now();
    const bool warmup = epoch < o.warmup_epochs;
    agent.network().train();
    double cost_sum = 0;
    int64_t steps_done = 0;
    const auto steps_start = std::chrono::steady_clock::now();
    for (; steps_done < o.steps; ++steps_done) {
      const double left = budget_left();
      if ((left <= 0 || !cpu_left()) && steps_done > 0) break;
      if (o.time_budget > 0) set_lr(optimizer, progress.lr * left, progress.beta_ratio);
      const int64_t n = o.sizes.empty() ? o.n : step_size(o.sizes, o.seed, epoch, steps_done);
      const int64_t instances = o.sizes.empty() ? o.batch : step_batch(o.batch, o.n, n, world_size);
      const auto batch = agent.problem().generate(instances / world_size, n, generator).to(device);
      StepLoss step_loss;
      if (!o.teacher.empty()) {
        step_loss = imitation_loss(agent, o.teacher, batch);
        step_loss.mean_cost = mean_over_ranks(step_loss.mean_cost, collective);
      } else if (multistart) {
        const int64_t starts = o.starts > 0 ? o.starts : default_starts(n);
        const auto m = multistart_loss(agent, batch, o.augment, starts, generator, o.learn_first);
        step_loss = {m.loss, mean_over_ranks(m.mean_cost, collective)};
      } else {
        step_loss = reinforce_loss(agent, *baseline, batch, warmup, o.exp_beta, progress, generator,
                                   collective);
      }
      optimizer.zero_grad();
      step_loss.loss.backward();
      if (collective) average_gradients(agent.network(), *collective);
      torch::nn::utils::clip_grad_norm_(agent.network().parameters(), o.max_grad_norm);
      optimizer.step();
      const double mean_cost = step_loss.mean_cost;
      cost_sum += mean_cost;
      char status[64];
      std::snprintf(status, sizeof status, "epoch %lld cost %.3f", static_cast<long long>(epoch),
                    mean_cost);
      bar.advance(1, status);
    }
    const double step_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - steps_start).count() /
        static_cast<double>(steps_done);
    const auto verdict = multistart ? RolloutBaseline::Verdict{std::nan(""), false}
                                    : baseline->update(agent);  // the recipe's cost: counted
    progress.cpu_seconds = cpu_spent();
    const auto val_part = val_set.slice(val_share.begin, val_share.end);
    const double val_cost =
        sum_over_ranks(solve(agent, val_part, Decoding{}, device_chunk(agent, o.n, 256), generator)
                           .cost.sum()
                           .item<double>(),
                       collective) /
        static_cast<double>(o.val_size);
    if (collective) check_ranks_agree(agent.network(), *collective);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    char row[256];
    std::snprintf(row, sizeof row, "%lld,%.5f,%.5f,%d,%.4g,%.6g,%.2f,%.3f,%.1f",
                  static_cast<long long>(epoch), cost_sum / static_cast<double>(steps_done),
                  val_cost, verdict.replaced ? 1 : 0, verdict.p_value, progress.lr * budget_left(),
                  seconds, step_seconds, progress.cpu_seconds);
    rows.emplace_back(row);
    progress.lr *= o.lr_decay;
    if (o.paper_lr_rule && verdict.p_value > 0.95) progress.lr *= 0.95;
    set_lr(optimizer, progress.lr, progress.beta_ratio);
    progress.epoch = epoch + 1;
    if (writer) {  // rank 0 alone writes the run directory
      // The log row first: a run killed before its checkpoint lands resumes from the
      // previous one and rewrites the row; never a checkpoint without its row.
      write_log(o.out_dir / "log.csv", rows);
      save_checkpoint(o, agent, baseline.get(), optimizer, generator, progress);
      save_model(agent, o.out_dir / "model.h5");
      // The policy that won the last t-test: usually the one to ship.
      if (verdict.replaced) save_model(baseline->agent(), o.out_dir / "baseline.h5");
      if (draw_curve) {  // not counted against either budget
        const auto drawing = std::chrono::steady_clock::now();
        try {
          const auto curve = training_curve(rows, curve_title);
          gnuplot_png(o.out_dir / "curve.png", curve.script, curve.data, curve.width, curve.height);
        } catch (const std::runtime_error& e) {
          std::fprintf(stderr, "eie train: warning: no curve.png (training goes on): %s\n",
                       e.what());
          draw_curve = false;  // once: the next epoch would fail the same way
        }
        run_start += std::chrono::steady_clock::now() - drawing;
      }
      if (!::isatty(2)) std::fprintf(stderr, "%s\n", row);
    }
    // Validation and saving left out of the CPU time.
    cpu_offset = (writer ? progress.cpu_seconds : 0) - process_cpu_seconds();
  }
}

}  // namespace eie
