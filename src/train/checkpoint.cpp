#include "src/train/checkpoint.h"

#include <sstream>
#include <stdexcept>
#include <string>

#include "src/io/h5_file.h"
#include "src/io/model_format.h"
#include "src/train/data_parallel.h"

namespace eie {

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
  writer.attribute("ema", progress.ema.value);
  writer.attribute("ema_set", static_cast<int64_t>(progress.ema.set));
  writer.attribute("baseline", to_string(o.baseline));
  if (baseline) writer.attribute("baseline_generation", baseline->generation());
  writer.attribute("cpu_seconds", progress.cpu_seconds);
  writer.attribute("train_seconds", progress.train_seconds);
  writer.attribute("beta_lr_ratio", progress.beta_ratio);
  writer.attribute("seed", static_cast<int64_t>(o.seed));
  writer.attribute("batch", o.batch);
  writer.attribute("steps", o.steps);
  writer.commit();
}

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
  p.ema.value = reader.double_attribute("ema");
  p.ema.set = reader.int_attribute("ema_set") != 0;
  if (reader.has_attribute("cpu_seconds")) p.cpu_seconds = reader.double_attribute("cpu_seconds");
  if (reader.has_attribute("train_seconds")) {
    p.train_seconds = reader.double_attribute("train_seconds");
  }
  // --bias-lr wins, as on a fresh run (the same flags resume the same run, rate decay
  // included); checkpoints from before the ratio was kept leave the options' ratio.
  if (o.bias_lr <= 0 && reader.has_attribute("beta_lr_ratio")) {
    p.beta_ratio = reader.double_attribute("beta_lr_ratio");
  }
  return p;
}

}  // namespace eie
