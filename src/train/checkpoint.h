#pragma once

// out_dir/checkpoint.h5: everything a run needs to continue where it stopped.

#include <torch/torch.h>

#include <cstdint>

#include "src/agent/agent.h"
#include "src/train/rollout_baseline.h"
#include "src/train/trainer_options.h"

namespace eie {

// Mutable training state that a checkpoint carries besides the networks.
struct Progression {
  int64_t epoch = 0;        // epochs completed
  double lr = 0;            // current learning rate
  ExponentialBaseline ema;  // the warm-up epochs' baseline
  double cpu_seconds = 0;   // process CPU time spent on the run up to the checkpoint
  double train_seconds = 0;  // wall clock of its training up to the checkpoint
  double beta_ratio = 100;  // the learned betas' rate over the weights' rate
};

// Writes the policy, the rollout `baseline` (when there is one), the optimiser, the
// generator and `progress` to out_dir/checkpoint.h5.
void save_checkpoint(const TrainerOptions& options, Agent& agent, RolloutBaseline* baseline,
                     torch::optim::Adam& optimizer, torch::Generator& generator,
                     const Progression& progress);

// Reads back what save_checkpoint() wrote (from options.resume_from, or out_dir's):
// `progress` holds the state a fresh run would start from; the checkpoint's replaces
// it. Throws std::invalid_argument for a checkpoint of another problem, size or baseline.
[[nodiscard]] Progression load_checkpoint(const TrainerOptions& options, Agent& agent,
                                          RolloutBaseline* baseline, torch::optim::Adam& optimizer,
                                          torch::Generator& generator, Progression progress);

}  // namespace eie
