// Every failure of a command as one line and an exit status.
#include "failure_status.hpp"

#include <fmt/format.h>
#include <sys/resource.h>

#include <cstdio>
#include <new>

#include "exit_codes.hpp"
#include "interrupt.hpp"
#include "netwarp/engine/job_abort.hpp"
#include "netwarp/engine/sim_time.hpp"
#include "netwarp/mpiemul/trace.hpp"
#include "netwarp/netmodels/input_error.hpp"
#include "netwarp/netmodels/printable.hpp"
#include "netwarp/scenarios/scenario_error.hpp"
#include "netwarp/validation/params_json.hpp"

namespace netwarp::apps {
namespace {

// What to reduce, and the address-space limit when one is set (ulimit -v): the usual cause.
std::string out_of_memory_message() {
  std::string limit;
  rlimit rl{};
  if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
    limit = fmt::format(" under the address-space limit (ulimit -v) of {} MiB", rl.rlim_cur >> 20);
  return "out of memory" + limit +
         ": reduce the scenario (hosts, messages, bytes, end_time, pcap outputs), or with "
         "--kernel optimistic lower --max-uncommitted or --window, or run on more ranks";
}

// Raised on one rank mid-run: the others cannot finish, so end the job (every partition's
// thread, or every process of the MPI job). A sequential run has one rank, and its message no
// rank number.
int fail_mid_run(const AppContext& context, const std::string& message, int status) {
  const engine::RankExchange& exchange = *context.exchange;
  const std::string rank =
      exchange.size() > 1
          ? fmt::format("{} {}: ", context.threads ? "partition" : "rank", exchange.rank())
          : std::string();
  std::fprintf(stderr, "netwarp: %s%s\n", rank.c_str(), one_line(message).c_str());
  std::fflush(stderr);
  if (exchange.size() == 1) return status;
  if (context.threads) interrupt::remove_staging_now();
  engine::abort_job(status);
}

// An error whose message starts with the file it is about, raised alike on every rank.
int file_error(const AppContext& context, const std::exception& e) {
  if (context.is_root()) std::fprintf(stderr, "%s\n", one_line(e.what()).c_str());
  return exit_code::kBadInput;
}

}  // namespace

std::string one_line(std::string_view message) {
  return netmodels::printable(message);
}

void print_error(const AppContext& context, const std::string& message) {
  if (context.is_root()) std::fprintf(stderr, "netwarp: error: %s\n", one_line(message).c_str());
}

int failure_status(const AppContext& context) {
  try {
    throw;
  } catch (const scenarios::ScenarioError& e) {
    return file_error(context, e);  // each rank loads the scenario
  } catch (const mpiemul::TraceError& e) {
    return file_error(context, e);  // each rank reads the trace
  } catch (const netmodels::FileInputError& e) {
    return file_error(context, e);  // a pattern or flows file, read alike on every rank
  } catch (const validation::ParamsFileError& e) {
    return file_error(context, e);
  } catch (const netmodels::InputError& e) {
    print_error(context, e.what());  // a builder's error about a field, alike on every rank
    return exit_code::kBadInput;
  } catch (const UsageError& e) {
    print_error(context, e.what());  // raised alike on every rank, before any simulation
    return exit_code::kBadInput;
  } catch (const engine::SimTimeOverflow& e) {
    return fail_mid_run(
        context,
        fmt::format("error: {}: the scenario needs more simulated time than a run can count (lower "
                    "sizes, repetitions, latencies or costs; raise rates)",
                    e.what()),
        exit_code::kBadInput);
  } catch (const std::bad_alloc&) {
    return fail_mid_run(context, "error: " + out_of_memory_message(), exit_code::kOutOfMemory);
  } catch (const std::exception& e) {
    return fail_mid_run(context, std::string("internal error: ") + e.what(), exit_code::kInternal);
  }
}

}  // namespace netwarp::apps
