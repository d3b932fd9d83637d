#include "src/train/rollout_baseline.h"

#include "src/agent/strategies.h"
#include "src/train/t_test.h"

namespace eie {

namespace {
constexpr int64_t kEvalChunk = 256;  // several chunks: solve() decodes them in parallel

std::vector<double> greedy_costs(Agent& agent, const Instances& instances) {
  torch::Generator unused = at::make_generator<at::CPUGeneratorImpl>(0);
  const auto chunk = device_chunk(agent, agent.problem().size(instances), kEvalChunk);
  const auto cost =
      solve(agent, instances, Decoding{}, chunk, unused).cost.to(torch::kCPU, torch::kDouble);
  return {cost.data_ptr<double>(), cost.data_ptr<double>() + cost.numel()};
}
}  // namespace

RolloutBaseline::RolloutBaseline(const Agent& policy, int64_t n, int64_t eval_size, uint64_t seed,
                                 double alpha, Collective* collective)
    : agent_(policy.clone()),
      n_(n),
      eval_size_(eval_size),
      seed_(seed),
      alpha_(alpha),
      collective_(collective) {
  agent_->network().eval();
  prepare_eval_set();
}

void RolloutBaseline::prepare_eval_set() {
  auto generator = at::make_generator<at::CPUGeneratorImpl>(seed_ * 7919 + 17 + generation_);
  eval_set_ = agent_->problem().generate(eval_size_, n_, generator).to(agent_->device());
  eval_costs_ = eval_costs(*agent_);
}

std::vector<double> RolloutBaseline::eval_costs(Agent& agent) const {
  const auto share = share_of(eval_size_, collective_);
  const auto mine = greedy_costs(agent, eval_set_.slice(share.begin, share.end));
  const auto all = gather_rows(torch::tensor(mine, torch::kDouble), share, eval_size_, collective_);
  return {all.data_ptr<double>(), all.data_ptr<double>() + all.numel()};
}

torch::Tensor RolloutBaseline::costs(const Instances& batch) {
  // One chunk per thread: solve() decodes them in parallel.
  const int64_t threads = torch::get_num_threads();
  torch::Generator unused = at::make_generator<at::CPUGeneratorImpl>(0);
  const auto chunk =
      device_chunk(*agent_, agent_->problem().size(batch), (batch.count() + threads - 1) / threads);
  return solve(*agent_, batch, Decoding{}, chunk, unused).cost;
}

RolloutBaseline::Verdict RolloutBaseline::update(const Agent& candidate) {
  auto copy = candidate.clone();
  const auto candidate_costs = eval_costs(*copy);
  const double p = paired_t_test_less(candidate_costs, eval_costs_);
  if (p >= alpha_) return {p, false};
  agent_ = std::move(copy);
  agent_->network().eval();
  ++generation_;
  prepare_eval_set();
  return {p, true};
}

void RolloutBaseline::restore(int64_t generation) {
  generation_ = generation;
  agent_->network().eval();
  prepare_eval_set();
}

}  // namespace eie
