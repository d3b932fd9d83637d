#pragma once

// What `eie train` is told, for every front end (the CLI's flags, the Python module's
// eie.train keywords): its own flags as values, and how they become a run's options.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "src/agent/policy_registry.h"
#include "src/problem/registry.h"
#include "src/train/trainer_options.h"

namespace eie {

// A field per flag, named as it (--lr-decay: lr_decay); the initialisers are the
// defaults every front end shows, those of TrainerOptions and the encoder. Empty or
// std::nullopt: a flag without a default that was not given.
struct TrainSettings {
  int64_t n = TrainerOptions{}.n;                // training instance size N
  std::string sizes;                             // MIN-MAX: a size curriculum
  int64_t epochs = TrainerOptions{}.epochs;      // epochs to reach
  int64_t steps = TrainerOptions{}.steps;        // gradient steps per epoch
  int64_t batch = TrainerOptions{}.batch;        // instances per step
  std::optional<double> lr;                      // none: the problem's default
  double lr_decay = TrainerOptions{}.lr_decay;   // lr factor per epoch
  bool paper_lr = false;                         // the EIE paper's rule on p-values
  std::optional<double> time_budget;             // seconds of wall clock
  std::optional<double> cpu_budget;              // seconds of training CPU time
  std::optional<double> run_budget;              // seconds of training wall clock, all resumes
  std::optional<double> stop_after;              // seconds of wall clock, this invocation
  int64_t val_size = TrainerOptions{}.val_size;  // held-out instances, logged cost
  int64_t baseline_eval_size = TrainerOptions{}.baseline_eval_size;  // ... for the t-test
  int64_t warmup_epochs = TrainerOptions{}.warmup_epochs;  // with the exponential baseline
  int64_t embed_dim = nn::EncoderOptions{}.embed_dim;      // embedding width
  int64_t heads = nn::EncoderOptions{}.heads;              // attention heads
  int64_t layers = nn::EncoderOptions{}.layers;            // encoder layers
  int64_t ff_hidden = nn::EncoderOptions{}.ff_hidden;      // feed-forward width
  std::string normalization = nn::to_string(nn::EncoderOptions{}.normalization);  // or layer
  std::optional<double> cosine;   // cosine attention's scale S
  std::string bias_init;          // BETA[@PARTS]: train a distance bias
  bool bias_learn = false;        // the optimiser moves the betas
  std::string bias_growth;        // fixed, logn or sqrtn
  std::optional<double> bias_lr;  // the betas' learning rate
  std::filesystem::path init;     // a model to start from
  std::filesystem::path out;      // the run directory (required)
  bool resume = false;            // continue from out/checkpoint.h5
  std::string teacher;            // METHOD[+IMPROVE] to imitate
  std::string baseline = to_string(TrainerOptions{}.baseline);  // rollout or multistart
  std::optional<int64_t> starts;                                // multistart: first actions
  int64_t augment = TrainerOptions{}.augment;                   // multistart: 1 or 8 copies
  bool learn_first = false;  // multistart: train the first action
};

// A run's options, as the settings give them.
struct TrainSetup {
  TrainerOptions trainer;      // the run (resume_from: out/checkpoint.h5)
  NetworkOptions network;      // a fresh network's sizes and trained bias
  std::filesystem::path init;  // the model it starts from ("": fresh, or the checkpoint)
};

// The options of a run of `settings` on `problem` under `options`, drawn from `seed`.
// Checks each value's range and the rules between flags, std::invalid_argument naming
// the flags; `run_directory`: whether this process sees settings.out (a data-parallel
// job's rank 0 alone does), where --resume needs a checkpoint.
[[nodiscard]] TrainSetup train_setup(const TrainSettings& settings, const std::string& problem,
                                     const ProblemOptions& options, uint64_t seed,
                                     bool run_directory = true);

}  // namespace eie
