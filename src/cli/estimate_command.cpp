#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "cli_options.hpp"
#include "commands.hpp"
#include "estimate_frontier.hpp"
#include "flag_names.hpp"
#include "json_counts.hpp"
#include "knightstour/base/cpus.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/base/progress.hpp"
#include "knightstour/base/stop_control.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/count/method_choice.hpp"
#include "knightstour/plan/plan_estimate.hpp"
#include "knightstour/run/job_runner.hpp"
#include "output.hpp"
#include "provenance.hpp"

namespace knightstour::cli {

namespace {

// What every shard of a sharded job would cost at `cores` cores per shard, from one sampled
// estimate per shard and this machine's speed per core (cluster cores assumed as fast).
struct ShardCost {
  std::vector<double> nodes;   // per shard
  std::vector<double> errors;  // their standard errors
};

ShardCost estimate_shards(const Request& job, int shard_count, std::uint64_t walks,
                          std::uint64_t seed, int threads) {
  ShardCost cost;
  const std::uint64_t per_shard =
      std::max<std::uint64_t>(1, walks / static_cast<std::uint64_t>(shard_count));
  for (int i = 0; i < shard_count; ++i) {
    Request r = job;
    r.shard.index = i;
    const PlanEstimate e = estimate_plan(resolve(r, threads), per_shard, seed, threads);
    if (e.interrupted) throw Interrupted("stopped while estimating shard " + std::to_string(i));
    cost.nodes.push_back(e.searched.nodes);
    cost.errors.push_back(e.searched.nodes_error());
  }
  return cost;
}

void print_shard_cost(const ShardCost& cost, int cores, double nodes_per_core_second) {
  const double rate = nodes_per_core_second * cores;  // nodes/s of one shard
  double total = 0, variance = 0;  // of the sum: the shards' errors are independent
  for (std::size_t i = 0; i < cost.nodes.size(); ++i) {
    total += cost.nodes[i];
    variance += cost.errors[i] * cost.errors[i];
  }
  const double mean = total / static_cast<double>(cost.nodes.size());
  const auto largest_shard = static_cast<std::size_t>(
      std::max_element(cost.nodes.begin(), cost.nodes.end()) - cost.nodes.begin());
  const double largest = cost.nodes[largest_shard];
  std::printf(
      "shards     %zu x %d cores: ~%s nodes each on average, the largest (shard %zu) "
      "~%s (standard error %s), %.2fx the mean\n",
      cost.nodes.size(), cores, estimate_figure(mean).c_str(), largest_shard,
      estimate_figure(largest).c_str(), estimate_figure(cost.errors[largest_shard]).c_str(),
      mean > 0 ? largest / mean : 0.0);
  std::printf(
      "wall       ~%s for the largest shard at %s nodes/s per core (this machine's); "
      "ask sbatch --time for about twice that\n",
      human_duration(largest / rate).c_str(),
      with_commas(static_cast<std::uint64_t>(nodes_per_core_second)).c_str());
  const double hours = total / nodes_per_core_second / 3600;
  const double hours_error = std::sqrt(variance) / nodes_per_core_second / 3600;
  std::printf(
      "cost       ~%.3g core-hours in all (standard error %.2g), whatever the cores per "
      "shard, if the cores scale as they do here\n",
      hours, hours_error);
}

cxxopts::Options estimate_options() {
  auto options = command_options(
      "estimate", "Estimate the size of a count (tree nodes, tours, run time) by random sampling",
      "BOARD (--start SQ | --prefix SQ,... | --all-starts) [--walks N] [--calibrate SEC] "
      "[options]",
      "board", "Board: RxC or a side");
  options.add_options()("walks", "Knuth random walks in all",
                        cxxopts::value<std::string>()->default_value("1000000"))(
      "seed", "Seed of the walks", cxxopts::value<std::string>()->default_value("1"))(
      "calibrate",
      "Seconds of real counting to measure this machine's speed (0: skip the time estimate; "
      "default 2, or 8 with --cores-per-shard, so that a frontier job's first units finish)",
      cxxopts::value<std::string>())(
      "cores-per-shard",
      "With --shard-count N (no --shard-index): estimate every shard and print the wall time "
      "per shard and the core-hours in all at this many cores per shard",
      cxxopts::value<std::string>())(
      "method",
      "auto (default): the method count would choose; dfs: the enumerator, by random walks; "
      "frontier: a --calibrate seconds' count by the frontier method, then projected (an "
      "open job whose calibration ends in its closed sweep: its open sweeps too, as long)",
      cxxopts::value<std::string>())(
      "memory",
      "frontier: the memory budget of the count to size, e.g. 100G (default: half the memory "
      "available); the calibration stops at it, writing nothing to disk",
      cxxopts::value<std::string>());
  add_job_options(options);
  options.add_options("Search")(
      "total-only",
      "With --all-starts: estimate the total alone (count --total-only: one frontier sweep)")(
      "end",
      "With --start, frontier: size the count of the open tours from the start ending on this "
      "square (one sweep with both ends pinned: a unit of count --grid end-pairs)",
      cxxopts::value<std::string>())(
      "every-length",
      "RxN, frontier: the plan of the row R x n for every n to N (count --every-length), and "
      "its residue units with --residue-unit; no time is projected for a row")(
      "residue-unit",
      "frontier: size residue unit K of the count (count --residue-unit), and say how many "
      "units the count takes",
      cxxopts::value<std::string>());
  return options;
}

// The method a count with the same options would use, unless an option of the walks
// (--walks, --seed) asks for the enumerator or --end for the frontier. --cores-per-shard sizes
// the shards of either.
MethodChoice estimate_method(const CountRequest& asked, const cxxopts::ParseResult& result) {
  std::string walk_option;
  for (const char* name : {"walks", "seed"}) {
    if (walk_option.empty() && result.count(name)) walk_option = std::string("--") + name;
  }
  MethodChoice choice = choose_method(asked);
  choice.why = spell_flags(choice.why);
  if (!walk_option.empty() && choice.method == Method::frontier) {
    if (asked.method == MethodAsked::frontier) {
      throw UsageError(walk_option +
                       " applies to the enumerator's estimate (leave out --method frontier)");
    }
    CountRequest as_dfs = asked;
    as_dfs.method = MethodAsked::dfs;
    choose_method(as_dfs);  // says why the enumerator cannot take it, if it cannot
    choice = {Method::dfs, walk_option + " needs the enumerator"};
  }
  if (asked.end && choice.method == Method::dfs && asked.method == MethodAsked::automatic &&
      walk_option.empty()) {
    choice = {Method::frontier, "--end is sized by a count of its one sweep"};
  }
  if (asked.end && choice.method == Method::dfs) {
    throw UsageError(
        "--end is sized by the frontier method's estimate (the enumerator's walks size every "
        "tour from the start); give --method frontier or leave out --end");
  }
  return choice;
}

// The enumerator's estimate: the walks, and the speed a short real count measured.
struct WalkEstimate {
  PlanEstimate e;
  std::uint64_t walks_asked = 0;
  double nodes_per_second = 0;     // 0: not measured
  double seconds = -1;             // projected for the count; < 0: not projected
  std::optional<RunReport> whole;  // the count itself, when it fit in the calibration
};

WalkEstimate estimate_by_walks(const Plan& plan, std::uint64_t walks, std::uint64_t seed,
                               int threads, double calibrate) {
  WalkEstimate w;
  w.walks_asked = walks;
  w.e = estimate_plan(plan, walks, seed, threads);
  // Speed: count the real job for a moment on all threads (the caps make it stop).
  if (calibrate > 0 && w.e.searched.nodes > 0 && !w.e.interrupted) {
    JobRequest probe;
    probe.request = plan.request();
    probe.threads = threads;
    probe.caps.time_limit = calibrate;
    probe.largest_first = false;  // measure the kernel, not the start-up sampling
    const auto r = run_job(probe).report;
    if (r.seconds > 0) w.nodes_per_second = static_cast<double>(r.nodes) / r.seconds;
    if (r.complete()) w.whole = r;  // the whole count fit in the calibration
  }
  if (w.nodes_per_second > 0) w.seconds = w.e.searched.nodes / w.nodes_per_second;
  return w;
}

void print_walks_json(const Plan& plan, const WalkEstimate& w, const MethodChoice& choice,
                      int threads) {
  const Request& job = plan.request();
  const PlanEstimate& e = w.e;
  nlohmann::json j{{"board", job.board.name()},
                   {"method", "dfs"},
                   {"method_reason", choice.why},
                   {"all_starts", job.all_starts},
                   {"closed_only", job.mode.closed},
                   {"split_depth", plan.split_depth()},
                   {"prefixes", e.prefixes},
                   {"searches", e.searches},
                   {"walks", e.walks},
                   {"nodes", e.searched.nodes},
                   {"nodes_error", e.searched.nodes_error()},
                   {"tours", e.tours},
                   {"tours_error", std::sqrt(e.tours_var)},
                   {"threads", threads},
                   {"nodes_per_second", w.nodes_per_second},
                   {"seconds", w.seconds},
                   {"interrupted", e.interrupted}};
  add_provenance(j);
  if (!job.all_starts) j["start"] = square_name(job.board, job.prefix.front());
  print_json_object(j);
}

void print_walks_text(const Plan& plan, const WalkEstimate& w, const MethodChoice& choice,
                      int threads, double calibrate) {
  const Request& job = plan.request();
  const PlanEstimate& e = w.e;
  std::string what;
  if (job.all_starts) {
    what = "all starts";
  } else if (job.prefix.size() == 1) {
    what = "start " + square_name(job.board, job.prefix.front());
  } else {
    what = "prefix " + path_name(job.board, job.prefix.data(), static_cast<int>(job.prefix.size()));
  }
  std::printf("board      %s, %s, directed %s tours (estimated from %s random walks)\n",
              job.board.name().c_str(), what.c_str(), job.mode.closed ? "closed" : "open",
              with_commas(e.walks).c_str());
  std::printf("method     dfs (%s): the enumerator's search tree, sampled\n", choice.why.c_str());
  std::printf("tours      ~%s  (standard error %s)\n", estimate_figure(e.tours).c_str(),
              estimate_figure(std::sqrt(e.tours_var)).c_str());
  std::printf("nodes      ~%s to search  (standard error %s)\n",
              estimate_figure(e.searched.nodes).c_str(),
              estimate_figure(e.searched.nodes_error()).c_str());
  if (e.searches < e.prefixes) {
    std::printf("prefixes   %s at split depth %d, %s searched (the rest are mirror images)\n",
                with_commas(e.prefixes).c_str(), plan.split_depth(),
                with_commas(e.searches).c_str());
  } else {
    std::printf("prefixes   %s at split depth %d, all searched\n", with_commas(e.prefixes).c_str(),
                plan.split_depth());
  }
  if (e.interrupted) {
    std::printf(
        "stopped    interrupted by a signal after %s of %s walks: a coarser estimate, "
        "no speed measured\n",
        with_commas(e.walks).c_str(), with_commas(w.walks_asked).c_str());
  }
  if (w.whole) {
    std::printf("exact      the whole count ran during calibration: %s tours, %s nodes, %.3f s\n",
                with_commas(w.whole->tours).c_str(), with_commas(w.whole->nodes).c_str(),
                w.whole->seconds);
  } else if (w.seconds >= 0) {
    std::printf("speed      %s nodes/s on %d threads (measured for %.1f s)\n",
                with_commas(static_cast<std::uint64_t>(w.nodes_per_second)).c_str(), threads,
                calibrate);
    std::printf("time       ~%s for knightstour count with the same options\n",
                human_duration(w.seconds).c_str());
  }
}

}  // namespace

int estimate_command(int argc, char** argv) {
  auto options = estimate_options();
  cxxopts::ParseResult result;
  if (!parse_command(options, "board", argc, argv, result)) return kExitOk;
  // From here on, before the plan is made (seconds on a loaded machine): an interrupt then
  // ends the estimate with what it has, instead of killing it.
  install_stop_signal_handlers();

  const CountRequest asked_count = count_request_from(result);
  const MethodChoice choice = estimate_method(asked_count, result);
  // Shares of a frontier job by units are priced at the mean unit: 2 s finished none of 7x7's
  // 50 (the job projected at 3.5x its CPU), 6 s one (1.15x), 12 s two (1.37x).
  const std::string calibrate_text = result.count("calibrate")
                                         ? result["calibrate"].as<std::string>()
                                     : result.count("cores-per-shard") > 0 ? std::string("8")
                                                                           : std::string("2");
  const double calibrate = parse_seconds("calibrate", calibrate_text);
  int cores_per_shard = 0;
  if (result.count("cores-per-shard")) {
    cores_per_shard =
        parse_int("cores-per-shard", result["cores-per-shard"].as<std::string>(), 1, 1 << 20);
    if (!asked_count.shard || asked_count.shard->count < 2 || result.count("shard-index")) {
      throw UsageError(
          "--cores-per-shard estimates every shard: give --shard-count N (2 or more) and no "
          "--shard-index");
    }
    if (result.count("json")) throw UsageError("--cores-per-shard prints text only, not --json");
    if (calibrate <= 0) throw UsageError("--cores-per-shard needs the speed: --calibrate above 0");
  }
  if (choice.method == Method::frontier) {
    return estimate_by_frontier(asked_count, choice, calibrate, result.count("json") > 0,
                                cores_per_shard);
  }

  const JobOptions parsed = job_options_of(asked_count, nullptr, false);
  const int threads = parsed.threads > 0 ? parsed.threads : default_threads();
  // With --cores-per-shard the first figures are of the whole job, then come the shards.
  Request asked = parsed.request;
  if (cores_per_shard > 0) asked.shard = Shard{};
  const Plan plan = resolve(asked, threads);
  const auto walks = parse_count("walks", result["walks"].as<std::string>());
  if (walks == 0) throw UsageError("--walks must be at least 1");
  const auto seed = parse_count("seed", result["seed"].as<std::string>());

  const WalkEstimate w = estimate_by_walks(plan, walks, seed, threads, calibrate);
  if (result.count("json")) {
    print_walks_json(plan, w, choice, threads);
    return w.e.interrupted ? kExitStopped : kExitOk;
  }
  print_walks_text(plan, w, choice, threads, calibrate);
  if (cores_per_shard > 0 && w.nodes_per_second > 0) {
    const ShardCost cost =
        estimate_shards(parsed.request, parsed.request.shard.count, walks, seed, threads);
    print_shard_cost(cost, cores_per_shard, w.nodes_per_second / threads);
  } else if (cores_per_shard > 0) {
    std::printf("shards     not estimated: the speed could not be measured\n");
  }
  std::printf(
      "note       Knuth's estimator is unbiased but heavy-tailed: the true values can lie several\n"
      "           standard errors away; more --walks narrow it.\n");
  return w.e.interrupted ? kExitStopped : kExitOk;
}

}  // namespace knightstour::cli
