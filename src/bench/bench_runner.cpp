#include "src/bench/bench_runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
#include <numeric>
#include <sstream>

#include "src/agent/attention_setup.h"
#include "src/agent/calibration_cache.h"
#include "src/agent/model_file.h"
#include "src/agent/policy_registry.h"
#include "src/agent/strategies.h"
#include "src/problem/registry.h"
#include "src/util/atomic_path.h"
#include "src/util/cpu_time.h"
#include "src/util/csv.h"
#include "src/util/parse.h"
#include "src/util/peak_memory.h"

namespace eie {

namespace {

// Instances decoded together: bounded memory at large n, and a chunk for every thread.
int64_t chunk_for(const BenchConfig& c, int64_t n) {
  if (c.batch > 0) return c.batch;
  return chunk_per_thread(c.instances, std::clamp<int64_t>(12800 / n, 1, 64));
}

// The rows each decode gives: "" as decoded (unless only improved rows are asked
// for), then one per local search.
std::vector<std::string> improvements(const BenchConfig& c) {
  std::vector<std::string> variants;
  if (c.improve.empty() || c.improve_both) variants.emplace_back();
  variants.insert(variants.end(), c.improve.begin(), c.improve.end());
  return variants;
}

std::map<int64_t, double> read_reference(const std::filesystem::path& path) {
  std::map<int64_t, double> costs;
  if (path.empty()) return costs;
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path.string() + ": cannot open reference costs");
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line_no == 1 || trim(line).empty()) continue;  // header "n,cost"
    const auto comma = line.find(',');
    const auto where = path.string() + ":" + std::to_string(line_no);
    if (comma == std::string::npos) throw std::invalid_argument(where + ": expected 'n,cost'");
    costs[parse_int(line.substr(0, comma), where + ": n")] =
        parse_double(line.substr(comma + 1), where + ": cost");
  }
  return costs;
}

double mean_of(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

double std_of(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  const double m = mean_of(v);
  double s = 0;
  for (const double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size() - 1));
}

// Mean and the spread shown in a cell: over repetitions when there are several.
std::pair<double, double> summary(const BenchCell& cell) {
  const bool reps = cell.repetition_means.size() > 1;
  return {mean_of(cell.costs), reps ? std_of(cell.repetition_means) : std_of(cell.costs)};
}

// The problem's options as the table header gives them: " (domain unit)".
std::string options_text(const BenchConfig& c) {
  const auto& problem = problem_descriptor(c.problem);
  const auto completed = with_defaults(problem, c.options);
  std::string text;
  for (const auto& o : problem.options) {
    const auto value = option(completed, o.name);
    if (!value.empty()) text += (text.empty() ? "" : ", ") + o.name + " " + value;
  }
  return text.empty() ? "" : " (" + text + ")";
}

}  // namespace

int64_t bench_workload(const BenchConfig& c) {
  const int64_t policy_rows = static_cast<int64_t>(c.models.size() * c.scales.size() *
                                                   c.decodes.size() * improvements(c).size());
  const int64_t blocks = static_cast<int64_t>(std::max<size_t>(1, c.sweep_values.size()));
  const int64_t rows =
      blocks * (policy_rows + static_cast<int64_t>(c.methods.size()) + (c.bound ? 1 : 0));
  return rows * static_cast<int64_t>(c.sizes.size() * c.seeds.size()) * c.instances;
}

BenchResult run_bench(const BenchConfig& c, uint64_t seed_offset,
                      const std::function<void(int64_t)>& on_progress, const c10::Device& device) {
  // One problem per value of the sweep (a single block without one).
  std::vector<std::shared_ptr<const Problem>> problems;
  std::vector<std::string> blocks;  // row-name prefixes, empty for a single block
  const size_t block_count = std::max<size_t>(1, c.sweep_values.size());
  std::string sweep_label;  // what precedes a value in its block's row names ("C=")
  for (const auto& o : problem_descriptor(c.problem).options) {
    if (o.name == c.sweep) sweep_label = o.sweep_label;
  }
  for (size_t k = 0; k < block_count; ++k) {
    auto options = c.options;
    if (!c.sweep.empty()) options[c.sweep] = c.sweep_values[k];
    problems.push_back(make_problem(c.problem, options));
    blocks.push_back(block_count > 1 ? sweep_label + c.sweep_values[k] + " " : "");
  }
  const auto& problem = problems.front();  // instances carry their capacity: any block decodes them
  const auto scope = parse_scale_scope(c.scale_at);
  std::vector<AttentionSpec> scales;
  for (const auto& text : c.scales) {
    scales.push_back(parse_attention_spec(text, scope));
    if (is_calibrated(scales.back().scale) && scales.back().scale != "calibrated" &&
        c.models.size() > 1) {
      throw std::invalid_argument("scale '" + text + "': a calibration file belongs to one model");
    }
  }
  std::vector<BiasSpec> biases;
  for (const auto& text : c.biases) {
    biases.push_back(parse_bias_spec(text));
    if (biases.back().calibrated() && !biases.back().file.empty() &&
        (c.models.size() > 1 || scales.size() > 1)) {
      throw std::invalid_argument("bias '" + text +
                                  "': a calibration file belongs to one model and one scale");
    }
  }
  std::vector<Decoding> decodes;
  for (const auto& d : c.decodes) decodes.push_back(parse_decoding(d));
  std::vector<std::unique_ptr<Agent>> agents;
  for (const auto& model : c.models) {
    agents.push_back(load_agent(model, problem));
    agents.back()->network().to(device);
  }

  BenchResult result;
  result.blocks = blocks;
  result.reference = read_reference(c.reference);
  // `improvement` "": the policy row as decoded.
  const auto row_name = [&](size_t k, size_t s, size_t b, size_t d,
                            const std::string& improvement) {
    std::string name = blocks[k] + attention_label(parse_attention_spec(c.scales[s]));
    // Tables without a bias key keep their rows' names: the scale alone.
    if (biases.size() > 1 || !biases[b].as_trained()) name += ", " + bias_label(biases[b]);
    if (c.decodes.size() > 1) name += " (" + c.decodes[d] + ")";
    if (!improvement.empty()) name += " + " + improvement;
    return name;
  };
  const auto variants = improvements(c);
  for (size_t k = 0; k < blocks.size(); ++k) {
    for (size_t s = 0; s < scales.size() && !agents.empty(); ++s) {
      for (size_t b = 0; b < biases.size(); ++b) {
        for (size_t d = 0; d < decodes.size(); ++d) {
          for (const auto& improvement : variants) {
            result.rows.push_back(row_name(k, s, b, d, improvement));
          }
        }
      }
    }
    for (const auto& m : c.methods) result.rows.push_back(blocks[k] + m);
    if (c.bound) {
      result.rows.push_back(blocks[k] + "bound");
      result.bounds.push_back(result.rows.back());
    }
  }

  // What solving took: wall and CPU seconds and the MiB it made resident at its peak.
  struct Cost {
    double seconds = 0, cpu_seconds = 0, peak_mib = 0;
  };
  const auto record_costs = [&](const std::string& row, int64_t n, const torch::Tensor& costs,
                                Cost took) {
    auto& cell = result.cells[{row, n}];
    cell.repetition_means.push_back(costs.mean().item<double>());
    cell.costs.insert(cell.costs.end(), costs.data_ptr<double>(),
                      costs.data_ptr<double>() + costs.numel());
    cell.seconds += took.seconds;
    cell.cpu_seconds += took.cpu_seconds;
    cell.peak_mib = std::fmax(cell.peak_mib, took.peak_mib);  // NaN: not measured
    on_progress(costs.numel());
  };
  const auto record = [&](const std::string& row, int64_t n, const Instances& instances,
                          const torch::Tensor& actions, Cost took) {
    record_costs(row, n, problem->check(instances, actions), took);  // independent costs
  };
  PeakMemory peak;
  const auto measured = [&peak](const std::function<torch::Tensor()>& f) {
    peak.reset();
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = process_cpu_seconds();
    auto out = f();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::make_pair(out, Cost{seconds, process_cpu_seconds() - cpu_start, peak.mib()});
  };

  for (const auto n : c.sizes) {
    for (const auto seed : c.seeds) {
      for (size_t k = 0; k < problems.size(); ++k) {
        auto gen = at::make_generator<at::CPUGeneratorImpl>(static_cast<uint64_t>(seed) * 1000003 +
                                                            n + seed_offset);
        const auto instances = problems[k]->generate(c.instances, n, gen);
        for (auto& agent : agents) {
          for (size_t s = 0; s < scales.size(); ++s) {
            for (size_t b = 0; b < biases.size(); ++b) {
              agent->set_attention(attention_config(scales[s], biases[b], *agent, {n}));
              for (size_t d = 0; d < decodes.size(); ++d) {
                auto [actions, took] = measured([&] {
                  const auto chunk =
                      c.batch > 0 ? c.batch : device_chunk(*agent, n, chunk_for(c, n));
                  return solve(*agent, instances.to(device), decodes[d], chunk, gen)
                      .actions.to(torch::kCPU);
                });
                for (const auto& improvement : variants) {
                  if (improvement.empty()) {
                    record(row_name(k, s, b, d, ""), n, instances, actions, took);
                    continue;
                  }
                  // A structured binding is not captured by a lambda before C++20.
                  const torch::Tensor& decoded = actions;
                  auto [improved, more] =
                      measured([&] { return problem->improve(improvement, instances, decoded); });
                  record(row_name(k, s, b, d, improvement), n, instances, improved,
                         {took.seconds + more.seconds, took.cpu_seconds + more.cpu_seconds,
                          std::fmax(took.peak_mib, more.peak_mib)});
                }
              }
            }
          }
        }
        for (const auto& method : c.methods) {
          auto [actions, took] = measured([&] { return problem->heuristic(method, instances); });
          record(blocks[k] + method, n, instances, actions, took);
        }
        if (c.bound) record_costs(blocks[k] + "bound", n, problem->cost_bound(instances), {0, NAN});
      }
    }
  }
  return result;
}

void write_bench_tables(const BenchConfig& c, const BenchResult& r, const std::string& command,
                        const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  const auto objective = make_problem(c.problem)->objective();
  std::ostringstream md, csv;
  const int64_t repetitions =
      static_cast<int64_t>(c.seeds.size() * std::max<size_t>(1, c.models.size()));
  md << "# " << c.name << "\n\nCommand: `" << command << "`\n\n"
     << "Problem " << c.problem << options_text(c)
     << ", " << c.instances << " instances per size and repetition, seeds";
  for (const auto s : c.seeds) md << ' ' << s;
  md << "; models:";
  for (const auto& m : c.models) md << " `" << m << "`";
  md << "; scale applied to " << (c.scale_at == "all" ? "encoder and glimpse" : "encoder") << ".\n"
     << "Cells: mean " << objective.name << " (std "
     << (repetitions > 1 ? "over repetitions" : "over instances")
     << "); costs recomputed independently of the decoder.\n\n";
  const auto table_header = [&] {
    md << "| policy |";
    for (const auto n : c.sizes) md << " n=" << n << " |";
    md << "\n|---|";
    for (size_t i = 0; i < c.sizes.size(); ++i) md << "---|";
    md << '\n';
  };
  table_header();
  csv << "policy,n,mean,std,gap_percent,seconds_per_instance,cpu_seconds_per_instance,"
         "solving_peak_mib,repetitions,instances\n";
  // Best solving row per block and size (a bound is not a solution).
  std::map<std::pair<std::string, int64_t>, std::pair<double, std::string>> best;
  const auto block_of = [&](const std::string& row) {
    for (const auto& b : r.blocks) {
      if (!b.empty() && row.rfind(b, 0) == 0) return b;
    }
    return std::string();
  };
  for (const auto& row : r.rows) {
    md << "| " << row << " |";
    for (const auto n : c.sizes) {
      const auto& cell = r.cells.at({row, n});
      const auto [mean, spread] = summary(cell);
      const auto ref = r.reference.find(n);
      const double gap = ref == r.reference.end() ? NAN : 100 * (mean - ref->second) / ref->second;
      char text[96];
      std::snprintf(text, sizeof text, objective.negated ? " %.4f (%.4f)" : " %.3f (%.3f)",
                    objective.shown(mean), spread);
      md << text;
      if (!std::isnan(gap)) {
        std::snprintf(text, sizeof text, " %+.2f%%", gap);
        md << text;
      }
      md << " |";
      csv << csv_field(row) << ',' << n << ',' << objective.shown(mean) << ',' << spread << ','
          << (std::isnan(gap) ? std::string() : std::to_string(gap)) << ','
          << cell.per_instance(cell.seconds) << ',' << cell.per_instance(cell.cpu_seconds) << ','
          << (std::isnan(cell.peak_mib) ? std::string() : std::to_string(cell.peak_mib)) << ','
          << cell.repetition_means.size() << ',' << cell.costs.size() << '\n';
      const bool bound = std::find(r.bounds.begin(), r.bounds.end(), row) != r.bounds.end();
      const std::pair<std::string, int64_t> key{block_of(row), n};
      if (!bound && (!best.count(key) || mean < best[key].first)) best[key] = {mean, row};
    }
    md << '\n';
  }
  const auto cell_table = [&](const std::string& title,
                              const std::function<std::string(const BenchCell&)>& shown) {
    md << "\n" << title << ":\n\n";
    table_header();
    for (const auto& row : r.rows) {
      md << "| " << row << " |";
      for (const auto n : c.sizes) md << ' ' << shown(r.cells.at({row, n})) << " |";
      md << '\n';
    }
  };
  const auto formatted = [](const char* format, double value) {
    char text[32];
    std::snprintf(text, sizeof text, format, value);
    return std::string(text);
  };
  cell_table("Seconds per instance", [&](const BenchCell& cell) {
    return formatted("%.4f", cell.per_instance(cell.seconds));
  });
  cell_table(
      "CPU seconds per instance (the process's, all threads: other work on the machine "
      "changes them much less than the wall seconds above)",
      [&](const BenchCell& cell) {
        return formatted("%.4f", cell.per_instance(cell.cpu_seconds));
      });
  cell_table(
      "Memory while solving (MiB made resident at the peak, beyond what the process held "
      "before: model and instances excluded; each cell starts from a heap returned to the "
      "kernel, as in a fresh process, and its time includes taking memory back)",
      [&](const BenchCell& cell) {
        return std::isnan(cell.peak_mib) ? std::string("—") : formatted("%.0f", cell.peak_mib);
      });
  for (const auto& block : r.blocks) {
    md << "\nBest row per size" << (block.empty() ? "" : ", " + block.substr(0, block.size() - 1))
       << ':';
    for (const auto n : c.sizes) {
      const auto found = best.find({block, n});
      if (found != best.end()) md << " n=" << n << ": " << found->second.second << ";";
    }
    md << '\n';
  }

  AtomicPath md_file(dir / (c.name + ".md")), csv_file(dir / (c.name + ".csv"));
  md_file.write(md.str());
  csv_file.write(csv.str());
  md_file.commit();
  csv_file.commit();
}

}  // namespace eie
