// The --out folder of a run, written through a staging folder beside it (same filesystem, named
// .<folder>.partial-XXXXXX) and moved into place only when the run has produced its results: a
// failed, killed or crashed run leaves the --out folder as it was, never a half-written or empty
// results.json, and a rerun never leaves an earlier run's files (pcaps of other nodes) behind.
//
//   StagedFolder out("out/incast");
//   context.check_on_root([&] { out.open(); });  // rank 0 writes; fails before the run
//   write_network_outputs(report, out.path(), [] {});
//   out.commit();
//
// While it is open, the staging folder holds a lock file (.netwarp.lock, flock'ed by this
// process): a staging folder whose lock nobody holds was left by a run that died (SIGKILL, power
// loss) and is removed by the next open() in the same parent folder. On SIGINT, SIGTERM and
// SIGHUP the signal handler removes it (interrupt.hpp).
#pragma once

#include <string>

namespace netwarp::apps {

class StagedFolder {
 public:
  explicit StagedFolder(std::string target);
  StagedFolder(const StagedFolder&) = delete;
  StagedFolder& operator=(const StagedFolder&) = delete;
  ~StagedFolder();  // removes the staging folder unless committed

  // Creates the target's parent and the staging folder beside the target, after removing the
  // stale staging folders there; UsageError naming --out when either cannot be made or the
  // target is not a folder.
  void open();
  const std::string& path() const { return staging_; }  // where the run writes, once open
  const std::string& target() const { return target_; }
  // Moves the staged files into the target. A new target is the renamed staging folder; in an
  // existing one the files a run owns (results.json, timeline.json, flow.json, report.*,
  // report-*, timeline_compare*, simgrid-*, ns3-*, *.csv, *.pcap, and the folders plots/, params/,
  // runs/, ranks/ whole) are removed first and results.json is moved in last, so it is present only
  // beside the files of its own run: an earlier run's figures never sit beside new results.
  // UsageError when a move fails.
  void commit();

 private:
  void lock_staging();
  void replace_owned_files();
  void release_lock();
  std::string target_;
  std::string staging_;
  int lock_fd_ = -1;
  bool committed_ = false;
};

}  // namespace netwarp::apps
