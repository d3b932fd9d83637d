// The distance bias (scores lose beta * d_ij): its rows against a computation by
// hand, the windowed kernels against both, the pointer's bias outside the clip (a
// huge beta turns greedy decoding into nearest neighbour), training's batched scoring
// against step-by-step decoding with gradients reaching the betas, trained betas
// through the model file, and the inference policies' arithmetic.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <vector>

#include "src/agent/model_file.h"
#include "src/agent/policy_registry.h"
#include "src/attention/bias_policy.h"
#include "src/nn/module_state.h"
#include "src/nn/multi_head_attention.h"
#include "src/nn/neighbours.h"
#include "src/problem/registry.h"
#include "src/train/trainer.h"
#include "tests/test_support.h"

namespace eie {
namespace {

// Attention rows [B, M, n, n]: softmax(scale q.k - beta_m d) from per-head weights.
torch::Tensor rows_by_hand(const torch::Tensor& h, const nn::MultiHeadAttention& attention,
                           double scale, const torch::Tensor& beta, const torch::Tensor& xy) {
  const auto q = torch::einsum("bne,med->bmnd", {h, attention->W_query});
  const auto k = torch::einsum("bne,med->bmnd", {h, attention->W_key});
  const auto d = (xy.unsqueeze(2) - xy.unsqueeze(1)).pow(2).sum(-1).sqrt();  // [B, n, n]
  return torch::softmax(scale * q.matmul(k.transpose(-1, -2)) -
                            beta.view({1, -1, 1, 1}) * d.unsqueeze(1),
                        -1);
}

TEST(DistanceBias, AttentionRowsAreSoftmaxOfScaledProductsLessBetaTimesDistance) {
  torch::manual_seed(3);
  nn::MultiHeadAttention attention(
      nn::MultiHeadAttentionOptions{16, 2, 0, nn::TrainedBiasOptions{true, 0.5, 0.5, 0.5, false}});
  attention->to(torch::kDouble);
  {
    torch::NoGradGuard no_grad;
    attention->distance_bias.copy_(torch::tensor({0.3, 1.7}, torch::kDouble));
  }
  const auto h = torch::randn({2, 7, 16}, torch::kDouble);
  const auto xy = torch::rand({2, 7, 2}, torch::kDouble);
  const nn::NodeGeometry geometry{xy, {}};
  // Twice the trained betas, one beta for every head, and the two together.
  const auto rows_with = [&](const DistanceBias& bias, const std::vector<double>& betas) {
    const auto expected = rows_by_hand(h, attention, 0.4, torch::tensor(betas, torch::kDouble), xy);
    return torch::allclose(attention->attention(h, AttentionSetting{0.4, 0, bias}, geometry),
                           expected, 1e-12, 1e-12);
  };
  EXPECT_TRUE(rows_with({2.0, 0}, {0.6, 3.4}));
  EXPECT_TRUE(rows_with({0, 0.9}, {0.9, 0.9}));
  EXPECT_TRUE(rows_with({2.0, 0.9}, {1.5, 4.3}));
  // A bias without positions is refused, not ignored.
  EXPECT_THROW((void)attention->attention(h, AttentionSetting{0.4, 0, {0, 0.9}}),
               std::invalid_argument);
}

// A decode step's distances from the current node (a loop over rows on the CPU) are
// the pairwise distances' rows, read from positions inside wider features, within two
// units in the last place (bit for bit against Debian's LibTorch 1.13; not against the
// CPU kernels of LibTorch 2.11, the CUDA build's).
TEST(DistanceBias, DistancesFromTheCurrentNodeAreRowsOfThePairwiseDistances) {
  for (const auto dtype : {torch::kFloat, torch::kDouble}) {
    const auto features = torch::rand({300, 50, 3}, torch::TensorOptions().dtype(dtype));
    const auto positions = features.slice(2, 0, 2);  // not contiguous
    const auto current = torch::randint(50, {300}, torch::kLong);
    const auto all = nn::distances(positions, positions);  // [300, 50, 50]
    const auto expected = all.gather(1, current.view({300, 1, 1}).expand({300, 1, 50})).squeeze(1);
    const auto found = nn::distances_from(positions, current);
    const double ulp = dtype == torch::kFloat ? std::numeric_limits<float>::epsilon()
                                              : std::numeric_limits<double>::epsilon();
    const double worst =
        ((found - expected).abs() / expected.clamp_min(1e-30)).max().item<double>();
    EXPECT_LE(worst, 2 * ulp) << dtype << ": the largest relative difference";
  }
  EXPECT_THROW(
      (void)nn::distances_from(torch::rand({2, 4, 2}), torch::tensor({0, 4}, torch::kLong)),
      c10::Error);
}

TEST(DistanceBias, WindowedKernelsAgreeWithFullAttention) {
  torch::manual_seed(4);
  const int64_t B = 2, M = 2, n = 10, d = 4;
  const auto q = torch::randn({B, M, n, d}), k = torch::randn({B, M, n, d});
  const auto v = torch::randn({B, M, n, d});
  const auto xy = torch::rand({B, n, 2});
  const auto beta = torch::tensor({2.0f, 5.0f});
  const auto neighbours = nn::nearest_nodes(xy, n);  // every node: the window is the whole row
  const auto around = xy.gather(1, neighbours.reshape({B, -1, 1}).expand({B, -1, 2}));
  const auto distance = (xy.unsqueeze(2) - around.view({B, n, n, 2})).pow(2).sum(-1).sqrt();
  const nn::ScoreBias bias{beta, distance};
  const auto full_distance = (xy.unsqueeze(2) - xy.unsqueeze(1)).pow(2).sum(-1).sqrt();
  const auto expected = torch::softmax(0.3 * q.matmul(k.transpose(-1, -2)) -
                                           beta.view({1, M, 1, 1}) * full_distance.unsqueeze(1),
                                       -1)
                            .matmul(v);
  torch::Tensor fused;
  {
    torch::NoGradGuard no_grad;
    fused = nn::windowed_attention(q, k, v, neighbours, 0.3, nullptr, bias);
  }
  const auto traced = nn::windowed_attention(q.clone().requires_grad_(), k, v, neighbours, 0.3,
                                             nullptr, bias);
  EXPECT_TRUE(torch::allclose(fused, expected, 1e-5, 1e-5));
  EXPECT_TRUE(torch::allclose(traced.detach(), expected, 1e-5, 1e-5));
}

// Greedy decoding under a huge bias: after the first city (chosen without one:
// there is no current city yet), always the nearest unvisited city, whatever the
// clipped logits say: the pointer's bias is outside the clip.
TEST(DistanceBias, AHugeBiasMakesGreedyDecodingNearestNeighbour) {
  torch::manual_seed(5);
  auto agent = test::eval_double_agent("tsp", 20);
  AttentionConfig config;
  config.bias = BiasSpec{"fixed", 1e7, ""};
  agent->set_attention(config);
  auto gen = at::make_generator<at::CPUGeneratorImpl>(6);
  const auto xy = torch::rand({3, 30, 2}, gen, torch::kDouble);
  const auto tours = agent->rollout(Instances({{"coords", xy}}), Selection::greedy, std::nullopt).actions;
  for (int64_t b = 0; b < 3; ++b) {
    std::vector<bool> visited(30, false);
    int64_t current = tours[b][0].item<int64_t>();
    visited[static_cast<size_t>(current)] = true;
    for (int64_t t = 1; t < 30; ++t) {
      int64_t nearest = -1;
      double best = std::numeric_limits<double>::infinity();
      for (int64_t j = 0; j < 30; ++j) {
        const double dist = (xy[b][j] - xy[b][current]).norm().item<double>();
        if (!visited[static_cast<size_t>(j)] && dist < best) best = dist, nearest = j;
      }
      ASSERT_EQ(tours[b][t].item<int64_t>(), nearest) << "instance " << b << ", step " << t;
      visited[static_cast<size_t>(nearest)] = true;
      current = nearest;
    }
  }
}

// The trained betas of a network, by name.
std::map<std::string, torch::Tensor> betas_of(Agent& agent) {
  std::map<std::string, torch::Tensor> out;
  for (const auto& p : agent.network().named_parameters()) {
    if (nn::is_trained_beta(p.key())) out[p.key()] = p.value();
  }
  return out;
}

std::unique_ptr<Agent> biased_agent(const std::string& problem, bool learn) {
  auto options = test::small_network(32, 4, 32, 2);
  options.encoder.trained_bias = {true, 1.5, 1.5, 1.5, learn};
  auto agent = make_agent(make_problem(problem), options, 8);
  torch::NoGradGuard no_grad;
  for (auto& [key, beta] : betas_of(*agent)) beta.uniform_(0.5, 3.0);  // distinct per head
  return agent;
}

TEST(DistanceBias, TrainingScoresAsDecodingDoesAndItsGradientsReachTheBetas) {
  for (const std::string name : {"tsp", "cvrp"}) {
    auto agent = biased_agent(name, true);
    agent->network().eval();
    agent->network().to(torch::kDouble);
    auto gen = at::make_generator<at::CPUGeneratorImpl>(8);
    auto fields = agent->problem().generate(3, 10, gen).fields();
    for (auto& [field, value] : fields) {
      if (value.is_floating_point()) value = value.to(torch::kDouble);
    }
    const Instances instances(fields);
    const auto t = agent->rollout(instances, Selection::sample, gen, {}, Mode::training);
    const auto replayed = agent->replay(instances, t.actions);
    EXPECT_TRUE(torch::allclose(t.step_log_probs, replayed.step_log_probs, 1e-9, 1e-9)) << name;
    const auto starts = agent->problem().start_actions(instances, 4);
    const auto m = agent->rollout(instances, Selection::sample, gen, starts, Mode::training);
    const auto plain = agent->replay(instances.repeat_each(4), m.actions);
    EXPECT_TRUE(torch::allclose(m.step_log_probs, plain.step_log_probs, 1e-9, 1e-9)) << name;

    (t.log_likelihood.sum() + m.log_likelihood.sum()).backward();
    const auto betas = betas_of(*agent);
    EXPECT_EQ(betas.size(), 4u) << name;  // two encoder layers, the glimpse, the pointer
    for (const auto& [key, beta] : betas) {
      ASSERT_TRUE(beta.grad().defined()) << name << " " << key;
      EXPECT_GT(beta.grad().abs().sum().item<double>(), 0) << name << " " << key;
    }
  }
}

TEST(DistanceBias, TrainedBetasSurviveTheModelFileAndLearnOnlyWhenAsked) {
  const auto dir = test::scratch_dir("distance-bias-file");
  for (const bool learn : {false, true}) {
    auto agent = biased_agent("cvrp", learn);
    save_model(*agent, dir / "model.h5");
    const auto loaded = load_agent(dir / "model.h5", make_problem("cvrp"));
    const auto before = betas_of(*agent), after = betas_of(*loaded);
    ASSERT_EQ(after.size(), before.size());
    for (const auto& [key, beta] : before) {
      EXPECT_TRUE(torch::equal(after.at(key), beta)) << key;
      EXPECT_EQ(after.at(key).requires_grad(), learn) << key;
    }
  }
  // A network without the bias has none of these tensors.
  const auto plain = make_agent(make_problem("tsp"), test::small_network(32, 4, 32, 2), 8);
  EXPECT_TRUE(betas_of(*plain).empty());
}

TEST(DistanceBias, LearnedBetasTrainAtTheirOwnRateAlsoAfterAResume) {
  const auto dir = test::scratch_dir("distance-bias-rate");
  auto agent = biased_agent("tsp", true);
  const auto betas_before = betas_of(*agent);
  std::map<std::string, torch::Tensor> before;
  for (const auto& p : agent->network().named_parameters()) before[p.key()] = p.value().clone();
  TrainerOptions t;
  t.n = 8;
  t.epochs = 1;
  t.steps = 3;
  t.batch = 16;
  t.lr = 1e-7;
  t.bias_lr = 0.1;
  t.val_size = 8;
  t.baseline = BaselineKind::multistart;
  t.out_dir = dir / "run";
  // Adam moves every parameter by about its rate per step: 3 steps.
  const auto expect_betas_alone_moved = [&](const char* run) {
    for (const auto& p : agent->network().named_parameters()) {
      const double moved = (p.value() - before.at(p.key())).abs().max().item<double>();
      if (betas_before.count(p.key())) {
        EXPECT_GT(moved, 0.05) << run << " " << p.key();
      } else {
        EXPECT_LT(moved, 1e-5) << run << " " << p.key();
      }
      before[p.key()] = p.value().clone();
    }
  };
  train(*agent, t);
  expect_betas_alone_moved("first epoch");
  // A resume without --bias-lr keeps the checkpoint's ratio, not 100 x lr.
  t.bias_lr = 0;
  t.epochs = 2;
  t.resume = true;
  train(*agent, t);
  expect_betas_alone_moved("resumed epoch");
}

TEST(DistanceBias, TrainedBetasGrowWithNAsTrainedToAndTheFileKeepsHow) {
  const auto dir = test::scratch_dir("distance-bias-growth");
  auto options = test::small_network(32, 4, 32, 2);
  options.encoder.trained_bias = {true, 1.5, 1.5, 1.5, true, "sqrtn"};
  auto grows = make_agent(make_problem("tsp"), options, 8);
  {
    torch::NoGradGuard no_grad;
    for (auto& [key, beta] : betas_of(*grows)) beta.uniform_(0.5, 3.0);
  }
  save_model(*grows, dir / "model.h5");
  EXPECT_EQ(network_options_of(dir / "model.h5").encoder.trained_bias.growth, "sqrtn");
  options.encoder.trained_bias.growth = "fixed";
  auto fixed = make_agent(make_problem("tsp"), options, 8);
  nn::copy_module_state(grows->network(), fixed->network());
  auto gen = at::make_generator<at::CPUGeneratorImpl>(9);
  const auto large = fixed->problem().generate(4, 32, gen);  // n = 4 N: sqrtn doubles the betas
  const auto small = fixed->problem().generate(4, 8, gen);
  const auto log_likelihood = [](Agent& agent, const Instances& instances,
                                 const std::string& bias) {
    AttentionConfig config;
    config.bias = parse_bias_spec(bias);
    agent.set_attention(config);
    agent.network().eval();
    return agent.rollout(instances, Selection::greedy, std::nullopt).log_likelihood;
  };
  // As trained, the growing network at n is the fixed one with its betas grown by sqrtn.
  EXPECT_TRUE(torch::allclose(log_likelihood(*grows, large, ""),
                              log_likelihood(*fixed, large, "sqrtn"), 1e-5, 1e-6));
  EXPECT_FALSE(torch::allclose(log_likelihood(*grows, large, ""), log_likelihood(*fixed, large, ""),
                               1e-3, 1e-4));
  // At N nothing grows; and asking for `fixed` undoes the growth.
  EXPECT_TRUE(torch::allclose(log_likelihood(*grows, small, ""), log_likelihood(*fixed, small, ""),
                              1e-5, 1e-6));
  EXPECT_TRUE(torch::allclose(log_likelihood(*grows, large, "fixed"),
                              log_likelihood(*fixed, large, ""), 1e-5, 1e-6));
}

TEST(BiasPolicy, ParsesItsSpellingsAndGrowsAsNamed) {
  EXPECT_TRUE(parse_bias_spec("").as_trained());
  EXPECT_EQ(bias_label(parse_bias_spec("")), "bias as trained");
  EXPECT_EQ(parse_bias_spec("none").name, "none");
  const auto logn = parse_bias_spec("logn:2.5");
  EXPECT_EQ(logn.name, "logn");
  EXPECT_DOUBLE_EQ(*logn.beta, 2.5);
  EXPECT_FALSE(parse_bias_spec("sqrtn").beta.has_value());
  EXPECT_EQ(parse_bias_spec("entropy:cache.csv").file, "cache.csv");
  EXPECT_EQ(bias_label(logn), "bias logn 2.5");
  const auto decoder = parse_bias_spec("entropy:b.csv@glimpse,pointer");
  EXPECT_EQ(decoder.file, "b.csv");
  EXPECT_FALSE(decoder.parts.encoder);
  EXPECT_TRUE(decoder.parts.glimpse && decoder.parts.pointer);
  EXPECT_EQ(bias_label(decoder), "bias entropy (glimpse,pointer)");
  for (const auto* bad : {"fancy", "logn:x", "fixed:-1", "fixed:nan", "none:3", ":2",
                          "fixed:1@decoder", "fixed:1@"}) {
    EXPECT_THROW((void)parse_bias_spec(bad), std::invalid_argument) << bad;
  }
  EXPECT_DOUBLE_EQ(bias_growth("fixed", 1600, 100), 1.0);
  EXPECT_DOUBLE_EQ(bias_growth("logn", 100, 100), 1.0);
  EXPECT_NEAR(bias_growth("logn", 1600, 100), std::log(1600.0) / std::log(100.0), 1e-12);
  EXPECT_DOUBLE_EQ(bias_growth("sqrtn", 400, 100), 2.0);
  for (const char* growth : {"fixed", "logn", "sqrtn"}) {
    EXPECT_EQ(checked_bias_growth(growth, "g"), growth);
  }
  EXPECT_THROW((void)checked_bias_growth("entropy", "g"), std::invalid_argument);
}

}  // namespace
}  // namespace eie
