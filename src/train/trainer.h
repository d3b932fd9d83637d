#pragma once

#include "src/agent/agent.h"
#include "src/parallel/collective.h"
#include "src/train/trainer_options.h"

namespace eie {

// Trains `agent` with the algorithm `options` choose (train/algorithm.h): REINFORCE
// with Kool et al.'s greedy rollout baseline, the multi-start shared baseline
// (train/multistart.h), or with `teacher`, imitation of a heuristic (train/imitation.h),
// a cheap warm start that REINFORCE then continues (`--resume`). Writes
// out_dir/checkpoint.h5 (everything to resume) and out_dir/model.h5 after every
// epoch, out_dir/baseline.h5 whenever the rollout baseline is replaced, and
// appends a row per epoch to out_dir/log.csv. With a time budget the run stops
// when it is spent (mid-epoch: that epoch is evaluated and saved) and the
// learning rate falls linearly to 0 over it, so a fixed wall-clock budget ends
// at a low-noise policy however fast the machine is (not reproducible step for
// step: the schedule follows the clock). The log's cpu_seconds is the process CPU
// time the run's training has taken so far, across resumes (validation and saving
// left out: they are the same work for every recipe); a CPU budget ends the run when
// it reaches the budget, the learning rate unchanged (learning curves at equal cost). An
// on_epoch hook sees each row once it is saved and may end the run there. Throws
// std::invalid_argument for options that do not go together before writing anything.
//
// With a collective, this process is one rank of a data-parallel job
// (DESIGN.md): it trains on its share of each batch of `options.batch` instances
// (drawn from its own seed), gradients and batch-normalisation statistics are
// taken over the whole batch, every decision (baseline, budgets, learning rate)
// is agreed, and rank 0 alone writes. A lost rank makes every other throw.
void train(Agent& agent, const TrainerOptions& options, Collective* collective = nullptr);

}  // namespace eie
