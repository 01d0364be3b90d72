// `netwarp bench phold`.
#include "cmd_bench.hpp"

#include <cstdio>

#include "run_report.hpp"
#include "unit_options.hpp"

namespace netwarp::apps {

CLI::App* add_bench_command(CLI::App& app, PholdOptions& o) {
  CLI::App* bench = app.add_subcommand("bench", "Engine benchmarks");
  bench->require_subcommand(1);
  CLI::App* phold = bench->add_subcommand(
      "phold",
      "PHOLD: each event sends one event, to a random LP with probability REMOTE, "
      "after LOOKAHEAD + Exp(MEAN - LOOKAHEAD) us");
  phold->add_option("--lps", o.model.lps_per_rank, "LPs per rank")
      ->check(CLI::Range(1u, 1u << 30))
      ->capture_default_str();
  phold->add_option("--remote", o.model.remote, "Probability that an event goes to a random LP")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  phold->add_option("--lookahead", o.model.lookahead, "Minimum delay (us)")
      ->transform(time_with_unit("us"))
      ->check(positive_number())
      ->capture_default_str();
  phold->add_option("--mean", o.model.mean, "Mean delay, lookahead included (us)")
      ->transform(time_with_unit("us"))
      ->check(positive_number())
      ->capture_default_str();
  phold->add_option("--end", o.model.end, "End of simulated time (us)")
      ->transform(time_with_unit("us"))
      ->check(positive_number())
      ->capture_default_str();
  phold->add_option("--seed", o.model.seed, "Random seed")->capture_default_str();
  phold->add_option("--ties", o.ties, "Order of simultaneous events: fifo, creator or fifo_creator")
      ->check(CLI::IsMember({"fifo", "creator", "fifo_creator"}))
      ->capture_default_str();
  phold->add_option("--json", o.json_path, "Write statistics and digest as JSON to FILE");
  add_kernel_options(*phold, o.kernel);
  return phold;
}

int bench_phold_command(const PholdOptions& options, const AppContext& context) {
  phold::PholdConfig model_config = options.model;
  model_config.ranks = context.exchange->size();
  if (const std::string problem = phold::validate(model_config); !problem.empty())
    throw UsageError("bench phold: --" + problem);
  engine::KernelConfig config = make_kernel_config(options.kernel, context);
  if (!options.json_path.empty()) context.check_on_root([&] { check_writable(options.json_path); });
  config.end_time = engine::SimTime::from_us(model_config.end);
  config.seed = model_config.seed;
  config.tie_order = options.ties == "creator"        ? engine::TieOrder::creator
                     : options.ties == "fifo_creator" ? engine::TieOrder::fifo_creator
                                                      : engine::TieOrder::fifo;

  const phold::PholdModel model(model_config);
  const engine::RunResult result = run_kernel(model, config, context);
  if (!context.is_root()) return 0;

  const auto& m = model_config;
  std::printf(
      "netwarp bench phold: %u LPs (%u per rank), remote %g, lookahead %g us, mean %g us, "
      "end %g us, seed %llu\n%s",
      model.lp_count(), m.lps_per_rank, m.remote, m.lookahead, m.mean, m.end,
      static_cast<unsigned long long>(m.seed), format_summary(result.stats).c_str());
  if (!options.json_path.empty()) {
    nlohmann::ordered_json json = stats_to_json(result.stats);
    json["model"] = {{"name", "phold"},
                     {"lps_per_rank", m.lps_per_rank},
                     {"lps", model.lp_count()},
                     {"remote", m.remote},
                     {"lookahead_us", m.lookahead},
                     {"mean_us", m.mean},
                     {"end_us", m.end},
                     {"seed", m.seed}};
    json["kernel_config"] = {
        {"batch", config.batch_size},
        {"gvt_interval", config.gvt_interval},
        {"window_ps", config.window.is_max() ? -1 : config.window.ps()},
        {"max_uncommitted", engine::effective_max_uncommitted(config)},
        {"max_uncommitted_bytes", engine::effective_max_uncommitted_bytes(config)},
        {"check_reverse", config.check_reverse},
        {"ties", engine::tie_order_name(config.tie_order)}};
    write_json_file(options.json_path, json);
  }
  return 0;
}

}  // namespace netwarp::apps
