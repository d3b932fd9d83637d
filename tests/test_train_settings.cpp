// eie train's flags as values (src/train/train_settings.h): the defaults are the
// trainer's and the encoder's, and bad values or combinations name the flags.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "src/train/train_settings.h"

namespace eie {
namespace {

TrainSettings with_out() {
  TrainSettings s;
  s.out = "run";
  return s;
}

TEST(TrainSettings, DefaultsAreTheTrainersAndTheEncoders) {
  const auto setup = train_setup(with_out(), "tsp", {}, 7);
  const TrainerOptions trainer;
  const nn::EncoderOptions encoder;
  EXPECT_EQ(setup.trainer.n, trainer.n);
  EXPECT_EQ(setup.trainer.epochs, trainer.epochs);
  EXPECT_EQ(setup.trainer.batch, trainer.batch);
  EXPECT_EQ(setup.trainer.val_size, trainer.val_size);
  EXPECT_EQ(setup.trainer.warmup_epochs, trainer.warmup_epochs);
  EXPECT_EQ(setup.trainer.lr, 1e-4);  // the problem's
  EXPECT_EQ(setup.trainer.seed, 7u);
  EXPECT_EQ(setup.trainer.resume_from, std::filesystem::path("run") / "checkpoint.h5");
  EXPECT_EQ(setup.network.encoder.embed_dim, encoder.embed_dim);
  EXPECT_EQ(setup.network.encoder.ff_hidden, encoder.ff_hidden);
  EXPECT_FALSE(setup.network.encoder.trained_bias.enabled);
  EXPECT_TRUE(setup.init.empty());
}

TEST(TrainSettings, BadValuesNameTheirFlag) {
  const std::vector<std::pair<std::function<void(TrainSettings&)>, std::string>> cases = {
      {[](TrainSettings& s) { s.out.clear(); }, "--out is required"},
      {[](TrainSettings& s) { s.epochs = 0; }, "--epochs must be >= 1, got 0"},
      {[](TrainSettings& s) { s.lr = -1.0; }, "--lr must be a positive number"},
      {[](TrainSettings& s) { s.embed_dim = 10, s.heads = 3; }, "multiple of --heads"},
      {[](TrainSettings& s) { s.baseline = "greedy"; }, "--baseline"},
      {[](TrainSettings& s) { s.baseline = "multistart", s.warmup_epochs = 2; },
       "--warmup-epochs belongs to the rollout baseline"},
      {[](TrainSettings& s) { s.bias_learn = true; }, "--bias-learn needs --bias-init"},
      {[](TrainSettings& s) { s.resume = true; }, "--resume: no checkpoint.h5 in run"},
  };
  for (const auto& [change, message] : cases) {
    auto s = with_out();
    change(s);
    try {
      (void)train_setup(s, "tsp", {}, 1);
      ADD_FAILURE() << "accepted; expected " << message;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}

TEST(TrainSettings, ABiasNeedsNodePositions) {
  auto s = with_out();
  s.bias_init = "2@pointer";
  s.bias_learn = true;
  const auto setup = train_setup(s, "tsp", {}, 1);
  EXPECT_EQ(setup.network.encoder.trained_bias.pointer_init, 2.0);
  EXPECT_EQ(setup.network.encoder.trained_bias.encoder_init, 0.0);
  EXPECT_THROW((void)train_setup(s, "bpp3d", {}, 1), std::invalid_argument);
}

}  // namespace
}  // namespace eie
