#include "train/trainer.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "decode/strategies.h"
#include "io/checkpoint.h"
#include "train/rollout_baseline.h"
#include "util/atomic_path.h"
#include "util/progress.h"

namespace eie {

namespace {

constexpr const char* kLogHeader =
    "epoch,mean_train_cost,val_greedy_cost,baseline_replaced,p_value,lr,seconds,seconds_per_step";

// Mutable training state that a checkpoint carries besides the networks.
struct Progression {
  int64_t epoch = 0;     // epochs completed
  double lr = 0;         // current learning rate
  double ema = 0;        // exponential baseline value
  bool ema_set = false;  // ema holds a value
};

torch::Tensor bytes_of(const std::string& data) {
  return torch::from_blob(const_cast<char*>(data.data()), {static_cast<int64_t>(data.size())},
                          torch::kByte)
      .clone();
}

void set_lr(torch::optim::Adam& optimizer, double lr) {
  for (auto& group : optimizer.param_groups()) {
    static_cast<torch::optim::AdamOptions&>(group.options()).lr(lr);
  }
}

void save_checkpoint(const TrainerOptions& o, Agent& agent, RolloutBaseline& baseline,
                     torch::optim::Adam& optimizer, torch::Generator& generator,
                     const Progression& progress) {
  h5::Writer writer(o.out_dir / "checkpoint.h5");
  write_spec(writer, agent.spec(), "checkpoint");
  write_module(writer, "model", agent.network());
  write_module(writer, "baseline", baseline.agent().network());
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
  writer.attribute("baseline_generation", baseline.generation());
  writer.attribute("seed", static_cast<int64_t>(o.seed));
  writer.attribute("batch", o.batch);
  writer.attribute("steps", o.steps);
  writer.commit();
}

Progression load_checkpoint(const TrainerOptions& o, Agent& agent, RolloutBaseline& baseline,
                            torch::optim::Adam& optimizer, torch::Generator& generator) {
  const h5::Reader reader(o.out_dir / "checkpoint.h5");
  check_format(reader);
  if (reader.string_attribute("problem") != agent.problem().name() ||
      reader.int_attribute("train_n") != o.n) {
    throw std::invalid_argument(reader.path().string() + ": checkpoint is for " +
                                reader.string_attribute("problem") +
                                " with n = " + std::to_string(reader.int_attribute("train_n")) +
                                ", not this run's problem and size");
  }
  read_module(reader, "model", agent.network());
  read_module(reader, "baseline", baseline.agent().network());
  const auto bytes = reader.read("optimizer");
  torch::serialize::InputArchive archive;
  archive.load_from(reinterpret_cast<const char*>(bytes.data_ptr<uint8_t>()), bytes.numel());
  optimizer.load(archive);
  generator.set_state(reader.read("generator"));
  baseline.restore(reader.int_attribute("baseline_generation"));
  Progression p;
  p.epoch = reader.int_attribute("epoch");
  p.lr = reader.double_attribute("lr");
  p.ema = reader.double_attribute("ema");
  p.ema_set = reader.int_attribute("ema_set") != 0;
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
  AtomicPath out(path);
  {
    std::ofstream file(out.temporary());
    file << kLogHeader << '\n';
    for (const auto& row : rows) file << row << '\n';
  }
  out.commit();
}

// The loss of one step: REINFORCE against `reference` costs, or the mean
// per-step cross-entropy of the teacher's solutions.
struct StepLoss {
  torch::Tensor loss;  // to minimise
  double mean_cost;    // of the sampled (or the teacher's) solutions
};

StepLoss reinforce_loss(Agent& agent, RolloutBaseline& baseline, const Instances& batch,
                        bool warmup, double exp_beta, Progression& progress,
                        torch::Generator& generator) {
  torch::Tensor reference;
  if (!warmup) reference = baseline.costs(batch);
  const auto t = agent.rollout(batch, Selection::sample, generator);
  const double mean_cost = t.cost.mean().item<double>();
  if (warmup) {
    progress.ema =
        progress.ema_set ? exp_beta * progress.ema + (1 - exp_beta) * mean_cost : mean_cost;
    progress.ema_set = true;
    reference = torch::full_like(t.cost, progress.ema);
  }
  return {((t.cost - reference).detach() * t.log_likelihood).mean(), mean_cost};
}

StepLoss imitation_loss(Agent& agent, const std::string& teacher, const Instances& batch) {
  const auto t = agent.replay(batch, agent.problem().heuristic(teacher, batch));
  return {-t.step_log_probs.mean(), t.cost.mean().item<double>()};
}

}  // namespace

void train(Agent& agent, const TrainerOptions& o) {
  std::filesystem::create_directories(o.out_dir);
  auto generator = at::make_generator<at::CPUGeneratorImpl>(o.seed);
  auto val_generator = at::make_generator<at::CPUGeneratorImpl>(o.seed * 7919 + 1);
  const auto val_set = agent.problem().generate(o.val_size, o.n, val_generator);

  torch::optim::Adam optimizer(agent.network().parameters(), torch::optim::AdamOptions(o.lr));
  RolloutBaseline baseline(agent, o.n, o.baseline_eval_size, o.seed, o.alpha);
  Progression progress;
  progress.lr = o.lr;
  std::vector<std::string> rows;
  if (o.resume) {
    progress = load_checkpoint(o, agent, baseline, optimizer, generator);
    if (o.resume_with_lr) progress.lr = o.lr;
    rows = kept_log_rows(o.out_dir / "log.csv", progress.epoch);
    std::fprintf(stderr, "resuming %s after epoch %lld\n", o.out_dir.c_str(),
                 static_cast<long long>(progress.epoch));
  }
  set_lr(optimizer, progress.lr);
  if (!o.teacher.empty()) {  // an unknown heuristic fails now, not after the first epoch
    auto probe = at::make_generator<at::CPUGeneratorImpl>(o.seed);
    (void)agent.problem().heuristic(o.teacher, agent.problem().generate(2, o.n, probe));
  }

  const auto run_start = std::chrono::steady_clock::now();
  const auto budget_left = [&] {  // fraction of the time budget not yet spent
    if (o.time_budget <= 0) return 1.0;
    const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - run_start;
    return std::max(0.0, 1.0 - spent.count() / o.time_budget);
  };
  Progress bar("train", (o.epochs - progress.epoch) * o.steps);
  for (int64_t epoch = progress.epoch; epoch < o.epochs && budget_left() > 0; ++epoch) {
    const auto start = std::chrono::steady_clock::now();
    const bool warmup = epoch < o.warmup_epochs;
    agent.network().train();
    double cost_sum = 0;
    int64_t steps_done = 0;
    const auto steps_start = std::chrono::steady_clock::now();
    for (; steps_done < o.steps; ++steps_done) {
      const double left = budget_left();
      if (left <= 0 && steps_done > 0) break;
      if (o.time_budget > 0) set_lr(optimizer, progress.lr * left);
      const auto batch = agent.problem().generate(o.batch, o.n, generator);
      const auto step_loss = o.teacher.empty() ? reinforce_loss(agent, baseline, batch, warmup,
                                                                o.exp_beta, progress, generator)
                                               : imitation_loss(agent, o.teacher, batch);
      optimizer.zero_grad();
      step_loss.loss.backward();
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
    const auto verdict = baseline.update(agent);
    const double val_cost =
        solve(agent, val_set, Decoding{}, 256, generator).cost.mean().item<double>();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    char row[256];
    std::snprintf(row, sizeof row, "%lld,%.5f,%.5f,%d,%.4g,%.6g,%.2f,%.3f",
                  static_cast<long long>(epoch), cost_sum / static_cast<double>(steps_done),
                  val_cost, verdict.replaced ? 1 : 0, verdict.p_value, progress.lr * budget_left(),
                  seconds, step_seconds);
    rows.emplace_back(row);
    progress.lr *= o.lr_decay;
    if (o.paper_lr_rule && verdict.p_value > 0.95) progress.lr *= 0.95;
    set_lr(optimizer, progress.lr);
    progress.epoch = epoch + 1;
    save_checkpoint(o, agent, baseline, optimizer, generator, progress);
    save_model(agent, o.out_dir / "model.h5");
    // The policy that won the last t-test: usually the one to ship.
    if (verdict.replaced) save_model(baseline.agent(), o.out_dir / "baseline.h5");
    write_log(o.out_dir / "log.csv", rows);
    if (!::isatty(2)) std::fprintf(stderr, "%s\n", row);
  }
}

}  // namespace eie
