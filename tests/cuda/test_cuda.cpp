// The GPU path against the CPU (ctest label `cuda`). Every test skips with a message
// where no CUDA device is visible (a CPU LibTorch, or no GPU), so CI passes unchanged.
// - every registered problem, decoding and attention setting: the same solutions on
//   both devices (float64 networks, so that no near-tie flips a choice);
// - the decode step's own kernels against the CPU's glimpse, pointer, sampling and
//   distances;
// - one training step's gradients agree, a multi-start step's too (decoded without
//   gradients on the GPU, with them on the CPU);
// - the commands end to end with --device cuda, checkpoints moving between devices,
//   and two data-parallel ranks sharing the GPU.
#include <gtest/gtest.h>
#include <torch/cuda.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "src/agent/strategies.h"
#include "src/decode/decode_loop.h"
#include "src/decode/device_sampling.h"
#include "src/nn/device_kernels.h"
#include "src/train/multistart.h"
#include "tests/cli_support.h"
#include "tests/conformance/attention_grid.h"
#include "tests/test_support.h"

namespace eie {
namespace {

#define SKIP_WITHOUT_CUDA()                                                                \
  if (!torch::cuda::is_available()) {                                                      \
    GTEST_SKIP() << "no CUDA device visible (CPU LibTorch, or no GPU): GPU tests skipped"; \
  }

const torch::Device kCuda(torch::kCUDA);

// The conformance grid's network for `problem` in float64, on the CPU.
std::unique_ptr<Agent> small_agent(const std::shared_ptr<const Problem>& problem, int64_t train_n) {
  auto agent = test::grid_agent(problem, train_n);
  agent->network().to(torch::kDouble);
  return agent;
}

Instances in_double(const Instances& instances) {
  auto wide = instances;
  for (const auto& [name, field] : instances.fields()) {
    if (field.is_floating_point()) wide = wide.with(name, field.to(torch::kDouble));
  }
  return wide;
}

struct Case {
  std::string problem, decoding, attention;
};
// How a failing case names itself in the log (instead of its bytes).
void PrintTo(const Case& c, std::ostream* os) {
  *os << c.problem << ' ' << c.decoding << ' ' << c.attention;
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const auto* problem : problem_descriptors()) {
    if (!test::has_policy(problem->name)) continue;
    for (const auto* decoding :
         {"greedy", "sample:3", "multistart:4", "aug8", "greedy+sample:2+aug8"}) {
      for (const auto& [attention, config] : test::attention_settings(problem->name)) {
        out.push_back({problem->name, decoding, attention});
      }
    }
  }
  return out;
}

class CudaAgrees : public ::testing::TestWithParam<Case> {};

TEST_P(CudaAgrees, SameSolutionsAsTheCpu) {
  SKIP_WITHOUT_CUDA();
  const auto& c = GetParam();
  const auto problem = make_problem(c.problem);
  const bool routing = test::routing(c.problem);
  if (c.decoding.find("aug8") != std::string::npos) {
    auto probe = at::make_generator<at::CPUGeneratorImpl>(1);
    if (problem->symmetries(problem->generate(1, 10, probe)).size() != 8) GTEST_SKIP();
  }
  const int64_t n = routing ? test::kRoutingSize : test::kPackingSize;
  auto cpu = small_agent(problem, routing ? test::kRoutingN : test::kPackingN);
  auto gpu = cpu->clone();
  gpu->network().to(kCuda);
  for (const auto& [name, config] : test::attention_settings(c.problem)) {
    if (name != c.attention) continue;
    cpu->set_attention(config);
    gpu->set_attention(config);
  }
  auto data_gen = at::make_generator<at::CPUGeneratorImpl>(5);
  const auto instances = in_double(problem->generate(3, n, data_gen));
  const auto decoding = parse_decoding(c.decoding);
  auto gen_cpu = at::make_generator<at::CPUGeneratorImpl>(11);
  auto gen_gpu = at::make_generator<at::CPUGeneratorImpl>(11);
  torch::NoGradGuard no_grad;
  const auto on_cpu = solve(*cpu, instances, decoding, 2, gen_cpu);
  const auto on_gpu = solve(*gpu, instances.to(kCuda), decoding, 2, gen_gpu);
  EXPECT_TRUE(torch::equal(on_gpu.actions.cpu(), on_cpu.actions));
  const auto gpu_cost = on_gpu.cost.cpu().to(torch::kDouble);
  const auto cpu_cost = on_cpu.cost.to(torch::kDouble);
  EXPECT_LT(((gpu_cost - cpu_cost).abs() / (cpu_cost.abs() + 1)).max().item<double>(), 1e-9);
}

INSTANTIATE_TEST_SUITE_P(EveryProblem, CudaAgrees, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           std::string text = info.param.problem + "_" + info.param.decoding + "_" +
                                              info.param.attention;
                           for (auto& ch : text) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return text;
                         });

// TSP rollouts on the GPU are captured as a CUDA graph at the second batch of a shape and
// replayed from the third (src/agent/graphed_rollouts.h), greedy and sampled ones
// (`sample:2`, and a training step's samples): every batch, each of new instances, gives
// the CPU's tours under every attention setting, and no capture failed (a failure leaves
// a note on stderr and decodes step by step).
TEST(Cuda, ReplayedRolloutsAgreeWithTheCpu) {
  SKIP_WITHOUT_CUDA();
  const auto problem = make_problem("tsp");
  for (const auto& [name, config] : test::attention_settings("tsp")) {
    auto cpu = small_agent(problem, test::kRoutingN);
    auto gpu = cpu->clone();
    gpu->network().to(kCuda);
    cpu->set_attention(config);
    gpu->set_attention(config);
    auto data_gen = at::make_generator<at::CPUGeneratorImpl>(7);
    testing::internal::CaptureStderr();
    for (int batch = 0; batch < 4; ++batch) {  // step by step, captured, replayed twice
      const auto instances = in_double(problem->generate(2, test::kRoutingSize, data_gen));
      for (const auto* decoding : {"greedy", "sample:2"}) {
        auto gen_cpu = at::make_generator<at::CPUGeneratorImpl>(11 + batch);
        auto gen_gpu = at::make_generator<at::CPUGeneratorImpl>(11 + batch);
        const auto on_cpu = solve(*cpu, instances, parse_decoding(decoding), 2, gen_cpu);
        const auto on_gpu = solve(*gpu, instances.to(kCuda), parse_decoding(decoding), 2, gen_gpu);
        EXPECT_TRUE(torch::equal(on_gpu.actions.cpu(), on_cpu.actions))
            << name << ", " << decoding << ", batch " << batch;
      }
      if (config.window == 0) {  // windowed training decodes step by step
        auto gen_cpu = at::make_generator<at::CPUGeneratorImpl>(13 + batch);
        auto gen_gpu = at::make_generator<at::CPUGeneratorImpl>(13 + batch);
        const auto on_cpu =
            cpu->rollout(instances, Selection::sample, gen_cpu, {}, Mode::training).actions;
        const auto on_gpu =
            gpu->rollout(instances.to(kCuda), Selection::sample, gen_gpu, {}, Mode::training)
                .actions;
        EXPECT_TRUE(torch::equal(on_gpu.cpu(), on_cpu)) << name << ", training, batch " << batch;
      }
    }
    const auto notes = testing::internal::GetCapturedStderr();
    EXPECT_EQ(notes.find("CUDA graph"), std::string::npos) << name << ": " << notes;
  }
}

// The same small float64 network for `problem` on the CPU and on the GPU, in training.
std::pair<std::unique_ptr<Agent>, std::unique_ptr<Agent>> training_pair(
    const std::shared_ptr<const Problem>& problem) {
  auto cpu = small_agent(problem, 20);
  auto gpu = cpu->clone();
  gpu->network().to(kCuda);
  cpu->network().train();
  gpu->network().train();
  return {std::move(cpu), std::move(gpu)};
}

// The gradients left on `gpu`'s parameters equal `cpu`'s, relative to the largest of the
// network: a bias that batch normalisation follows has a gradient of 0 but for rounding,
// whose relative error means nothing.
void expect_same_gradients(Agent& cpu, Agent& gpu, const std::string& name) {
  const auto cpu_params = cpu.network().named_parameters();
  double scale = 0;
  for (const auto& p : cpu_params)
    scale = std::max(scale, p.value().grad().abs().max().item<double>());
  ASSERT_GT(scale, 0) << name;
  for (const auto& p : gpu.network().named_parameters()) {
    const auto& expected = cpu_params[p.key()].grad();
    ASSERT_TRUE(p.value().grad().defined()) << name << " " << p.key();
    EXPECT_LT((p.value().grad().cpu() - expected).abs().max().item<double>() / scale, 1e-9)
        << name << " " << p.key();
  }
}

// The gradients of one REINFORCE-shaped loss (replayed tours, as a training step
// scores its samples) on both devices.
TEST(Cuda, TrainingStepGradientsAgree) {
  SKIP_WITHOUT_CUDA();
  for (const auto* name : {"tsp", "cvrp"}) {
    const auto problem = make_problem(name);
    auto [cpu, gpu] = training_pair(problem);
    auto gen = at::make_generator<at::CPUGeneratorImpl>(3);
    const auto instances = in_double(problem->generate(8, 20, gen));
    const auto tours = cpu->rollout(instances, Selection::sample, gen).actions;
    const auto loss = [&](Agent& agent, const Instances& batch, const torch::Tensor& actions) {
      const auto t = agent.replay(batch, actions, Mode::training);
      return (t.cost.detach() * t.log_likelihood).mean();
    };
    loss(*cpu, instances, tours).backward();
    loss(*gpu, instances.to(kCuda), tours.to(kCuda)).backward();
    expect_same_gradients(*cpu, *gpu, name);
  }
}

// The decode step's kernels (src/nn/cuda/) against the CPU's glimpse and pointer, in
// float32 and float64: every head size they take, node counts below, at and above a
// block's threads, a distance bias or none, and an instance with every node masked
// (NaN there, as softmax gives it).
TEST(Cuda, DecodeKernelsAgreeWithTheCpu) {
  SKIP_WITHOUT_CUDA();
  torch::manual_seed(3);
  const double inf = std::numeric_limits<double>::infinity();
  for (const auto dtype : {torch::kFloat, torch::kDouble}) {
    const double tolerance = dtype == torch::kFloat ? 1e-4 : 1e-12;  // float: sums of 256 products
    const auto options = torch::TensorOptions().dtype(dtype);
    for (const int64_t d : {8, 16, 32, 64}) {
      for (const int64_t n : {1, 33, 100, 600}) {
        for (const bool biased : {false, true}) {
          const int64_t B = 3, M = 4, E = M * d;
          auto masked = torch::rand({B, n}) < 0.3;
          masked.select(1, 0).fill_(false);
          masked.select(0, 1).fill_(true);
          const auto memory = nn::glimpse_memory(torch::randn({B, n, E}, options),
                                                 torch::randn({B, n, E}, options), M);
          const auto query = torch::randn({B, E}, options);
          const auto distance = torch::rand({B, n}, options);
          const nn::ScoreBias bias =
              biased ? nn::ScoreBias{torch::rand({M}, options) * 5, distance} : nn::ScoreBias{};
          const auto on = [](const nn::ScoreBias& b) {
            return b.applies() ? nn::ScoreBias{b.beta.to(kCuda), b.distance.to(kCuda)} : b;
          };
          const std::string where = std::string(c10::toString(dtype)) + " d " + std::to_string(d) +
                                    " n " + std::to_string(n) + (biased ? " biased" : "");
          const auto glimpsed =
              nn::glimpse_on_device({memory.keys.to(kCuda), memory.values.to(kCuda)},
                                    query.to(kCuda), masked.to(kCuda), 0.3, on(bias));
          ASSERT_TRUE(glimpsed.defined()) << where << ": the glimpse kernel declined";
          const auto expected = nn::glimpse(memory, query, masked, 0.3, nullptr, bias);
          EXPECT_TRUE(glimpsed.select(0, 1).cpu().isnan().all().item<bool>()) << where;
          for (const int64_t b : {0, 2}) {
            EXPECT_LT((glimpsed[b].cpu() - expected[b]).abs().max().item<double>(), tolerance)
                << where;
          }
          const auto keys = torch::randn({B, E, n}, options),
                     pointer_query = torch::randn({B, E}, options);
          const auto beta = biased ? torch::full({1}, 2.5, options) : torch::Tensor();
          const auto pointed = nn::pointer_log_probs_on_device(
              keys.to(kCuda), pointer_query.to(kCuda), 10, biased ? beta.to(kCuda) : beta,
              distance.to(kCuda), masked.to(kCuda));
          ASSERT_TRUE(pointed.defined()) << where << ": the pointer kernel declined";
          const auto scores = torch::bmm(pointer_query.unsqueeze(1), keys).squeeze(1);
          const auto wanted =
              nn::pointer_log_probs_of_scores(scores, E, 10, beta, distance, masked);
          EXPECT_TRUE(pointed.select(0, 1).cpu().isnan().all().item<bool>()) << where;
          for (const int64_t b : {0, 2}) {
            const auto got = pointed[b].cpu();
            EXPECT_TRUE(torch::equal(got == -inf, masked[b])) << where;
            const auto open = masked[b].logical_not();
            EXPECT_LT((got.masked_select(open) - wanted[b].masked_select(open))
                          .abs()
                          .max()
                          .item<double>(),
                      tolerance)
                << where;
          }
        }
      }
    }
  }
}

// Multi-start rows: K query rows per instance attend to the instance's keys, in the
// kernels as in glimpse_steps() and pointer_log_probs() on the CPU.
TEST(Cuda, DecodeKernelsTakeKRowsPerInstance) {
  SKIP_WITHOUT_CUDA();
  torch::manual_seed(6);
  const auto options = torch::TensorOptions().dtype(torch::kDouble);
  const int64_t B = 3, K = 5, M = 4, d = 16, E = M * d, n = 70;
  auto masked = torch::rand({B, K, n}) < 0.3;
  masked.select(2, 0).fill_(false);
  const auto distance = torch::rand({B, K, n}, options);
  const nn::ScoreBias bias{torch::rand({M}, options) * 5, distance};
  const auto memory =
      nn::glimpse_memory(torch::randn({B, n, E}, options), torch::randn({B, n, E}, options), M);
  const auto query = torch::randn({B, K, E}, options);
  const auto rows = [&](const torch::Tensor& t) { return t.reshape({B * K, t.size(2)}).to(kCuda); };
  const auto glimpsed =
      nn::glimpse_on_device({memory.keys.to(kCuda), memory.values.to(kCuda)}, rows(query),
                            rows(masked), 0.3, nn::ScoreBias{bias.beta.to(kCuda), rows(distance)});
  ASSERT_TRUE(glimpsed.defined()) << "the glimpse kernel declined K rows per instance";
  const auto expected = nn::glimpse_steps(memory, query, masked, 0.3, bias);
  EXPECT_LT((glimpsed.cpu().view({B, K, E}) - expected).abs().max().item<double>(), 1e-12);

  const auto keys = torch::randn({B, E, n}, options);
  const auto beta = torch::full({1}, 2.5, options);
  const auto pointed = nn::pointer_log_probs_on_device(
      keys.to(kCuda), rows(query), 10, beta.to(kCuda), rows(distance), rows(masked));
  ASSERT_TRUE(pointed.defined()) << "the pointer kernel declined K rows per instance";
  const auto wanted = nn::pointer_log_probs(keys, query, 10, beta, distance, masked);
  const auto open = masked.logical_not();
  EXPECT_TRUE(torch::equal(
      pointed.cpu().view({B, K, n}) == -std::numeric_limits<double>::infinity(), masked));
  EXPECT_LT((pointed.cpu().view({B, K, n}).masked_select(open) - wanted.masked_select(open))
                .abs()
                .max()
                .item<double>(),
            1e-12);
}

// The sampling and distance kernels give the CPU's numbers bit for bit: the same draws
// from the same uniforms (rows without mass, a tail without mass, uniforms next to 1),
// and the same distances (no fused multiply-add), float32 and float64.
TEST(Cuda, SamplingAndDistanceKernelsGiveTheCpusBits) {
  SKIP_WITHOUT_CUDA();
  torch::manual_seed(4);
  for (const auto dtype : {torch::kFloat, torch::kDouble}) {
    const auto options = torch::TensorOptions().dtype(dtype);
    for (const int64_t A : {1, 7, 100, 1600}) {
      const int64_t B = 257;
      auto probs = torch::rand({B, A}, options) * (torch::rand({B, A}) > 0.3).to(dtype);
      probs[0].zero_();
      probs.slice(0, 1, 9).slice(1, A / 2).zero_();
      auto uniforms = torch::rand({B}, options);
      uniforms.slice(0, 1, 5).fill_(std::nextafter(1.0, 0.0));
      const auto drawn = sample_rows_on_device(probs.to(kCuda), uniforms.to(kCuda));
      ASSERT_TRUE(drawn.defined()) << dtype << " A " << A << ": the sampling kernel declined";
      EXPECT_TRUE(torch::equal(drawn.cpu(), sample_rows_by_tensor_ops(probs, uniforms)))
          << dtype << " A " << A;

      const auto positions = torch::rand({B, A, 2}, options);
      const auto current = torch::randint(A, {B}, torch::kLong);
      const auto distances = nn::distances_from_on_device(positions.to(kCuda), current.to(kCuda));
      ASSERT_TRUE(distances.defined()) << dtype << " A " << A << ": the distance kernel declined";
      EXPECT_TRUE(torch::equal(distances.cpu(), nn::distances_from(positions, current)))
          << dtype << " A " << A;
    }
  }
}

// A multi-start training step's loss: on the CPU its rows decode with gradients, on a
// GPU without them (eie's kernels) and are scored after; the same samples (the CPU's
// generator on both) must give the same gradients, the trained first choice's included.
TEST(Cuda, MultiStartStepGradientsAgree) {
  SKIP_WITHOUT_CUDA();
  for (const auto* name : {"tsp", "cvrp"}) {
    const auto problem = make_problem(name);
    auto [cpu, gpu] = training_pair(problem);
    auto data = at::make_generator<at::CPUGeneratorImpl>(4);
    const auto instances = in_double(problem->generate(4, 20, data));
    auto gen_cpu = at::make_generator<at::CPUGeneratorImpl>(21);
    auto gen_gpu = at::make_generator<at::CPUGeneratorImpl>(21);
    const auto on_cpu = multistart_loss(*cpu, instances, 1, 5, gen_cpu, /*learn_first=*/true);
    const auto on_gpu =
        multistart_loss(*gpu, instances.to(kCuda), 1, 5, gen_gpu, /*learn_first=*/true);
    ASSERT_TRUE(torch::equal(on_gpu.actions.cpu(), on_cpu.actions)) << name << ": other samples";
    on_cpu.loss.backward();
    on_gpu.loss.backward();
    expect_same_gradients(*cpu, *gpu, name);
  }
}

// --- the commands, end to end -------------------------------------------------------

const char* kTinyTrain =
    " --n 10 --steps 2 --batch 8 --val-size 4 --embed-dim 16 --heads 2 --layers 1 --ff-hidden 16";

TEST(CudaCli, TrainOnTheGpuResumesOnTheCpuAndBack) {
  SKIP_WITHOUT_CUDA();
  const auto dir = test::scratch_dir("cuda-train");
  const std::string out = " --out " + (dir / "run").string() + " --baseline-eval-size 4";
  auto run = test::eie(std::string("train --device cuda --epochs 1") + kTinyTrain + out);
  ASSERT_EQ(run.exit_code, 0) << run.stderr;
  run = test::eie(std::string("train --device cpu --resume --epochs 2") + kTinyTrain + out);
  ASSERT_EQ(run.exit_code, 0) << run.stderr;
  run = test::eie(std::string("train --device cuda --resume --epochs 3") + kTinyTrain + out);
  ASSERT_EQ(run.exit_code, 0) << run.stderr;
  const auto log = test::slurp(dir / "run" / "log.csv");
  EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 4) << log;  // header and three epochs
  // The model written on the GPU solves on the CPU.
  ASSERT_EQ(test::eie("gen --n 10 --count 16 --out " + (dir / "d.h5").string()).exit_code, 0);
  run = test::eie("solve --json --dataset " + (dir / "d.h5").string() + " --model " +
                  (dir / "run" / "model.h5").string());
  EXPECT_EQ(run.exit_code, 0) << run.stderr;
}

TEST(CudaCli, MultistartTrainingRunsOnTheGpu) {
  SKIP_WITHOUT_CUDA();
  const auto dir = test::scratch_dir("cuda-multistart");
  const auto run = test::eie(std::string("train --device cuda --epochs 1 --baseline multistart "
                                         "--starts 5 --augment 8 --learn-first") +
                             kTinyTrain + " --out " + (dir / "run").string());
  EXPECT_EQ(run.exit_code, 0) << run.stderr;
}

TEST(CudaCli, TwoRanksShareTheGpu) {
  SKIP_WITHOUT_CUDA();
  const auto dir = test::scratch_dir("cuda-ranks");
  const auto run = test::eie(std::string("train --device cuda --nproc 2 --epochs 1") + kTinyTrain +
                             " --baseline-eval-size 4 --out " + (dir / "run").string());
  EXPECT_EQ(run.exit_code, 0) << run.stderr;
  EXPECT_TRUE(std::filesystem::exists(dir / "run" / "model.h5"));
}

// The shipped models on a dataset: the same mean cost on both devices, per problem (aug16:
// the 8 symmetries of the instance and of a view turned by 45 degrees).
TEST(CudaCli, SolveAndBenchAgreeWithTheCpu) {
  SKIP_WITHOUT_CUDA();
  const auto dir = test::scratch_dir("cuda-solve");
  for (const auto* problem : {"tsp", "cvrp", "bpp3d"}) {
    const auto data = (dir / (std::string(problem) + ".h5")).string();
    ASSERT_EQ(test::eie(std::string("gen --problem ") + problem +
                        " --n 50 --count 32 --seed 3 --out " + data)
                  .exit_code,
              0);
    for (const auto* decode : {"greedy", "sample:4", "multistart:8+aug16"}) {
      if (std::string(problem) == "bpp3d" && std::string(decode) != "greedy") continue;
      const std::string args =
          std::string("solve --json --dataset ") + data + " --decode " + decode + " --device ";
      const auto cpu = test::eie(args + "cpu"), gpu = test::eie(args + "cuda");
      ASSERT_EQ(cpu.exit_code, 0) << cpu.stderr;
      ASSERT_EQ(gpu.exit_code, 0) << gpu.stderr;
      const auto mean = [&](const std::string& json) {
        const std::string key =
            std::string(problem) == "bpp3d" ? "\"mean_load_rate\"" : "\"mean_cost\"";
        const auto at = json.find(key);
        return at == std::string::npos ? -1.0 : std::stod(json.substr(json.find(':', at) + 1));
      };
      EXPECT_GT(mean(cpu.stdout), 0) << cpu.stdout;
      EXPECT_NEAR(mean(gpu.stdout), mean(cpu.stdout), 1e-3 * mean(cpu.stdout))
          << problem << " " << decode;
    }
  }
  const auto toml = dir / "b.toml";
  std::ofstream(toml) << "name = \"b\"\nsizes = [20, 40]\ninstances = 8\nmodels = [\""
                      << EIE_SOURCE_DIR << "/results/models/tsp100.h5\"]\n"
                      << "scales = [\"sqrt\", \"logn-sqrt\"]\n";
  const auto run =
      test::eie("bench " + toml.string() + " --device cuda --out " + (dir / "bench").string());
  EXPECT_EQ(run.exit_code, 0) << run.stderr;
  EXPECT_TRUE(std::filesystem::exists(dir / "bench" / "b.md"));
  const auto entropy = test::eie("entropy --device cuda --sizes 50,100 --instances 4 --out " +
                                 (dir / "entropy.csv").string());
  EXPECT_EQ(entropy.exit_code, 0) << entropy.stderr;
}

}  // namespace
}  // namespace eie
