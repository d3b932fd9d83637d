// Measured attention entropy and per-layer calibration: probes measure what the
// attention rows hold; calibrating at the training size gives back 1/sqrt(d);
// calibrating at a larger size restores every layer's training-size entropy;
// calibration tables round-trip and bad ones are refused naming file and line;
// `eie entropy` writes its table.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "src/agent/calibration.h"
#include "src/agent/calibration_cache.h"
#include "src/agent/calibration_table.h"
#include "src/agent/policy_registry.h"
#include "src/agent/solve_run.h"
#include "src/agent/strategies.h"
#include "src/nn/distance_bias.h"
#include "src/nn/module_state.h"
#include "src/problem/registry.h"
#include "tests/cli_support.h"
#include "tests/test_support.h"

namespace eie {
namespace {

NetworkOptions small_network() { return test::small_network(32, 4, 64, 2); }

TEST(EntropyProbe, MeasuresUniformAndOneHotRows) {
  nn::EntropyProbe probe;
  auto rows = torch::zeros({2, 3, 8});  // head 0 uniform over 8, head 1 one-hot
  rows.select(0, 0).fill_(1.0 / 8);
  rows.select(0, 1).select(1, 5).fill_(1);
  probe.add(rows);
  probe.add(rows);
  EXPECT_EQ(probe.rows(), 6);
  EXPECT_NEAR(probe.mean()[0].item<double>(), std::log(8.0), 1e-6);
  EXPECT_NEAR(probe.mean()[1].item<double>(), 0, 1e-12);
  EXPECT_NEAR(probe.std()[0].item<double>(), 0, 1e-6);
}

TEST(Calibration, GivesTheTrainedScaleAtTheTrainingSize) {
  torch::manual_seed(31);
  auto agent = make_agent(make_problem("tsp"), small_network(), 20);
  const auto scales = calibrate_layers(*agent, AttentionConfig{}, 20, 20);
  ASSERT_EQ(scales.encoder.size(), 2u);
  for (const double lambda : scales.encoder) EXPECT_NEAR(lambda, 1 / std::sqrt(8.0), 0.005);
  EXPECT_NEAR(scales.glimpse, 1 / std::sqrt(8.0), 0.005);
}

TEST(Calibration, RestoresEachLayersTrainingEntropyAtLargerSizes) {
  torch::manual_seed(32);
  auto agent = make_agent(make_problem("tsp"), small_network(), 20);
  {  // sharper than at initialisation, as in trained models: entropies well below ln n
    torch::NoGradGuard no_grad;
    for (auto& p : agent->network().named_parameters()) {
      if (p.key().find("W_query") != std::string::npos) p.value().mul_(4);
    }
  }
  const uint64_t seed = 5;
  const auto target = measure_entropy(*agent, AttentionConfig{}, 20, 64, seed, true);
  const auto plain = measure_entropy(*agent, AttentionConfig{}, 80, 16, seed, true);
  AttentionConfig calibrated;
  calibrated.calibrated = std::make_shared<const LayerScaleTable>(
      LayerScaleTable{{80, calibrate_layers(*agent, AttentionConfig{}, 20, 80, seed)}});
  const auto after = measure_entropy(*agent, calibrated, 80, 16, seed, true);
  const auto mean = [](const nn::EntropyProbe& p) { return p.mean().mean().item<double>(); };
  for (size_t l = 0; l < 2; ++l) {
    const double wanted = mean(target.encoder[l]);
    EXPECT_GT(std::abs(mean(plain.encoder[l]) - wanted), 0.3) << "layer " << l;
    EXPECT_NEAR(mean(after.encoder[l]), wanted, 0.05) << "layer " << l;
  }
  EXPECT_NEAR(mean(after.glimpse), mean(target.glimpse), 0.1);
}

// The entropy biases of `agent` (trained at 20) bring every layer's entropy at 80 back
// to the one at 20 within the 0.02 nats, on fresh instances at N and at n.
void expect_entropy_biases_restore_the_training_entropy(Agent& agent) {
  const uint64_t seed = 6;
  const auto plain = measure_entropy(agent, AttentionConfig{}, 80, 16, seed, true);
  const auto betas = calibrate_biases(agent, AttentionConfig{}, 20, 80, seed);
  AttentionConfig biased;
  biased.bias = BiasSpec{"entropy", std::nullopt, ""};
  biased.calibrated_bias = std::make_shared<const LayerTable>(LayerTable{{80, betas}});
  const auto fresh_target = measure_entropy(agent, AttentionConfig{}, 20, 160, seed + 1, true);
  const auto after = measure_entropy(agent, biased, 80, 40, seed + 1, true);
  const auto mean = [](const nn::EntropyProbe& p) { return p.mean().mean().item<double>(); };
  for (size_t l = 0; l < 2; ++l) {
    const double wanted = mean(fresh_target.encoder[l]);
    EXPECT_GT(mean(plain.encoder[l]) - wanted, 0.3) << "layer " << l;  // diluted without it
    EXPECT_GT(betas.encoder[l], 0) << "layer " << l;
    EXPECT_NEAR(mean(after.encoder[l]), wanted, 0.02) << "layer " << l;
  }
  EXPECT_NEAR(mean(after.glimpse), mean(fresh_target.glimpse), 0.02);
  EXPECT_NEAR(mean(after.pointer), mean(fresh_target.pointer), 0.02);
}

TEST(Calibration, EntropyBiasesRestoreEachLayersTrainingEntropyAtLargerSizes) {
  torch::manual_seed(33);
  auto agent = make_agent(make_problem("tsp"), small_network(), 20);
  expect_entropy_biases_restore_the_training_entropy(*agent);
}

// Trained betas near 0 and of both signs (as multi-start training leaves the encoder's
// when it learns a pointer bias): no factor of them up to 1000 makes such a layer local,
// a beta added to them does.
// Tables shipped beside the models are read like cache entries: a size they cover costs
// no measurement and writes nothing; a corrupt one is ignored with a note; without a cache
// (--calibration-cache none) everything is measured.
// Past 2,000 cities a solve decodes in tiles of 100 by default: the calibrations are made
// for the tiles' sizes, as whole instances, so --bias entropy and --scale calibrated
// solve there (they asked for a table at a tile's size, and stopped).
TEST(Calibration, TiledSolvesAreCalibratedAtTheTilesSizes) {
  torch::manual_seed(35);
  const auto problem = make_problem("tsp");
  auto agent = make_agent(problem, test::small_network(16, 2, 16, 1), 20);
  auto gen = at::make_generator<at::CPUGeneratorImpl>(3);
  const auto instances = problem->generate(1, 2001, gen);
  const CalibrationCache cache{test::scratch_dir("calibration-tiles"), true, {}};
  for (const auto& [scale, bias] :
       std::vector<std::pair<std::string, std::string>>{{"calibrated", ""}, {"", "entropy"}}) {
    EXPECT_EQ(set_inference_attention(*agent, parse_attention_spec(scale), parse_bias_spec(bias),
                                      2001, false, cache),
              100);
    const auto solutions = solve(*agent, instances, parse_decoding("greedy"), 1, gen);
    EXPECT_NO_THROW((void)problem->check(instances, solutions.actions)) << scale << bias;
  }
}

TEST(Calibration, ShippedTablesCountAsCachedUnlessTheCacheIsNone) {
  torch::manual_seed(34);
  auto agent = make_agent(make_problem("tsp"), small_network(), 20);
  const auto dir = test::scratch_dir("calibration-shipped");
  const auto shipped = entropy_biases(*agent, AttentionConfig{}, "", {33},
                                      CalibrationCache{dir / "shipped", true, {}});  // grid 28, 40
  const auto solve_at_35 = [&](const CalibrationCache& cache) {
    testing::internal::CaptureStderr();
    const auto table = entropy_biases(*agent, AttentionConfig{}, "", {35}, cache);
    return std::make_pair(table->at(35), testing::internal::GetCapturedStderr());
  };
  const CalibrationCache user{dir / "user", true, dir / "shipped"};
  const auto [found, quiet] = solve_at_35(user);
  EXPECT_EQ(quiet, "");
  EXPECT_FALSE(std::filesystem::exists(dir / "user"));
  const auto expected = interpolate(*shipped, 20, 35, false);
  EXPECT_NEAR(found.pointer, expected.pointer, 1e-6);  // as the CSV keeps them
  EXPECT_NEAR(found.encoder.at(1), expected.encoder.at(1), 1e-6);

  const auto measured_anew = solve_at_35(CalibrationCache{});
  EXPECT_NE(measured_anew.second.find("calibrating"), std::string::npos);
  for (const auto& entry : std::filesystem::directory_iterator(dir / "shipped")) {
    std::ofstream(entry.path()) << "n,layer,beta\n28,0,oops\n";
  }
  const auto corrupt = solve_at_35(user).second;
  EXPECT_NE(corrupt.find("note: calibration cache entry ignored"), std::string::npos) << corrupt;
  EXPECT_NE(corrupt.find("calibrating"), std::string::npos) << corrupt;
}

TEST(Calibration, EntropyBiasesAddToTrainedBetasNearZeroOfEitherSign) {
  torch::manual_seed(33);
  auto options = small_network();
  options.encoder.trained_bias = {true, 0, 0, 2, true};
  auto agent = make_agent(make_problem("tsp"), options, 20);
  int set = 0;  // the two encoder layers' and the glimpse's 4 heads each
  {
    torch::NoGradGuard no_grad;
    for (auto& p : agent->network().named_parameters()) {
      if (nn::is_trained_beta(p.key()) && p.value().numel() == 4) {
        p.value().copy_(torch::tensor({0.002, -0.002, 0.0, 0.001}));
        ++set;
      }
    }
  }
  ASSERT_EQ(set, 3);
  expect_entropy_biases_restore_the_training_entropy(*agent);
  // Added betas of 0 leave the bias as trained (the pointer's 2 included).
  AttentionConfig zero;
  zero.bias = BiasSpec{"entropy", std::nullopt, ""};
  zero.calibrated_bias =
      std::make_shared<const LayerTable>(LayerTable{{80, LayerBiases{{0.0, 0.0}, 0.0, 0.0}}});
  const auto as_trained = measure_entropy(*agent, AttentionConfig{}, 80, 4, 9, true);
  const auto with_zero = measure_entropy(*agent, zero, 80, 4, 9, true);
  EXPECT_DOUBLE_EQ(with_zero.pointer.mean().mean().item<double>(),
                   as_trained.pointer.mean().mean().item<double>());
}

TEST(Calibration, BiasTablesRoundTripAndNegativeBetasAreRefused) {
  const auto dir = test::scratch_dir("bias-tables");
  const LayerTable table{{200, {{0.0, 1.5}, 2.0, 30.0}}, {1600, {{4.0, 5.0}, 6.0, 90.0}}};
  write_layer_biases(dir / "b.csv", table, {"0123456789abcdef", "scale as trained, bias@pointer"});
  CalibrationStamp stamp;
  const auto back = read_layer_biases(dir / "b.csv", &stamp);
  EXPECT_EQ(stamp.model, "0123456789abcdef");
  EXPECT_EQ(stamp.setting, "scale as trained, bias@pointer");
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back.at(1600).encoder, (std::vector<double>{4.0, 5.0}));
  EXPECT_EQ(back.at(200).pointer, 30.0);
  std::ofstream(dir / "neg.csv") << "n,layer,beta\n200,0,-1\n200,glimpse,1\n";
  EXPECT_THROW((void)read_layer_biases(dir / "neg.csv"), std::invalid_argument);
  // A scale table has no pointer row.
  std::ofstream(dir / "scales.csv") << "n,layer,lambda\n200,0,0.3\n200,glimpse,0.3\n200,pointer,1\n";
  EXPECT_THROW((void)read_layer_scales(dir / "scales.csv"), std::invalid_argument);
}

TEST(Calibration, TablesRoundTripAndBadOnesAreRefused) {
  const auto dir = test::scratch_dir("calibration");
  const LayerScaleTable table{{200, {{0.3, 0.35, 0.4}, 0.33}}, {1600, {{0.5, 0.6, 0.7}, 0.55}}};
  write_layer_scales(dir / "t.csv", table);
  const auto back = read_layer_scales(dir / "t.csv");
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back.at(1600).encoder, table.at(1600).encoder);
  EXPECT_DOUBLE_EQ(back.at(200).glimpse, 0.33);
  const std::pair<const char*, const char*> bad[] = {
      {"n,layer,lambda\n100,0,x\n", "bad.csv:2"},
      {"n,layer,lambda\n100,0,-1\n100,glimpse,0.2\n", "bad.csv:2: lambda must be positive"},
      {"n,layer,lambda\n100,1,0.2\n100,glimpse,0.2\n", "bad.csv:2: encoder layers"},
      {"n,layer,lambda\n100,0,0.2\n", "lacks encoder layers or the glimpse"},
      {"n,layer,lambda\n100,0\n", "bad.csv:2: expected n,layer,lambda"}};
  for (const auto& [text, fragment] : bad) {
    std::ofstream(dir / "bad.csv") << text;
    try {
      (void)read_layer_scales(dir / "bad.csv");
      ADD_FAILURE() << "accepted " << text;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  }
}

TEST(Calibration, ModelFingerprintsFollowEveryWeight) {
  torch::manual_seed(34);
  auto agent = make_agent(make_problem("tsp"), small_network(), 20);
  const auto before = nn::module_fingerprint(agent->network());
  EXPECT_EQ(before.size(), 16u);
  EXPECT_EQ(nn::module_fingerprint(agent->network()), before);  // a function of the weights
  {
    torch::NoGradGuard no_grad;
    agent->network().named_parameters().begin()->value().view(-1)[0].add_(1e-3);
  }
  const auto nudged = nn::module_fingerprint(agent->network());
  EXPECT_NE(nudged, before);
  agent->network().named_buffers().begin()->value().view(-1)[0].add_(1);  // a running statistic
  EXPECT_NE(nn::module_fingerprint(agent->network()), nudged);
}

TEST(EntropyCli, WritesOneRowPerSizeAndLayerAndRefusesBadSizes) {
  const auto dir = test::scratch_dir("entropy-cli");
  const auto model = test::model_file(dir, "tsp", "tsp");
  const auto ok = test::eie("entropy --model " + model.string() + " --sizes 20,40 --instances 2 --out " +
                            (dir / "e.csv").string());
  ASSERT_EQ(ok.exit_code, 0) << ok.stderr;
  const auto csv = test::slurp(dir / "e.csv");
  EXPECT_EQ(csv.rfind("n,layer,head,mean,std\n", 0), 0u);
  EXPECT_NE(csv.find("40,glimpse,all,"), std::string::npos) << csv;
  int64_t lines = 0;
  for (const char ch : csv) lines += ch == '\n';
  EXPECT_GE(lines, 1 + 2 * 2);  // header, then >= one encoder layer and the glimpse per size
  // With a bias, each layer also without it: the bias lowers the entropy at n > N.
  const auto biased = test::eie("entropy --model " + model.string() +
                                " --sizes 80 --instances 4 --bias entropy --out " +
                                (dir / "b.csv").string());
  ASSERT_EQ(biased.exit_code, 0) << biased.stderr;
  const auto rows = test::slurp(dir / "b.csv");
  const auto mean_of = [&](const std::string& layer) {
    const auto at = rows.find("80," + layer + ",all,");
    EXPECT_NE(at, std::string::npos) << layer << "\n" << rows;
    return at == std::string::npos ? 0.0 : std::stod(rows.substr(at + layer.size() + 8));
  };
  EXPECT_LT(mean_of("encoder1"), mean_of("encoder1 (no bias)") - 0.1);
  EXPECT_LT(mean_of("pointer"), mean_of("pointer (no bias)"));
  const auto bad = test::eie("entropy --model " + model.string() + " --sizes 20,x --out " +
                             (dir / "bad.csv").string());
  test::expect_clean_failure(bad, "--sizes");
  EXPECT_FALSE(std::filesystem::exists(dir / "bad.csv"));
}

}  // namespace
}  // namespace eie
