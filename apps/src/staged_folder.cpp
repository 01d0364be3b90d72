// StagedFolder: results written beside the --out folder, moved in when complete.
#include "staged_folder.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <vector>

#include "app_context.hpp"
#include "interrupt.hpp"

namespace netwarp::apps {
namespace {

namespace fs = std::filesystem;

constexpr const char* kResults = "results.json";
constexpr const char* kLock = ".netwarp.lock";
constexpr const char* kUnplacedLock = ".netwarp.lock.new";  // locked, then renamed to kLock
// A staging folder without a lock file is stale only when older than this: a live run makes its
// lock file microseconds after the folder (and folders from before lock files have none).
constexpr auto kUnlockedGrace = std::chrono::seconds(60);

// ".NAME.partial-XXXXXX" (mkdtemp's six characters).
bool is_staging_name(const std::string& name) {
  const std::size_t at = name.rfind(".partial-");
  return name.size() > 1 && name[0] == '.' && at != std::string::npos && at > 1 &&
         name.size() == at + 9 + 6;
}

// Stale: its lock file can be locked (no live run holds it), or it has none and is old.
bool is_stale(const fs::path& folder) {
  const int fd = open((folder / kLock).c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    std::error_code ec;
    const auto written = fs::last_write_time(folder, ec);
    return !ec && fs::file_time_type::clock::now() - written > kUnlockedGrace;
  }
  const bool unlocked = flock(fd, LOCK_EX | LOCK_NB) == 0;
  close(fd);  // releases the lock taken here
  return unlocked;
}

// Staging folders left in `parent` by runs that no longer run.
void remove_stale_staging(const fs::path& parent) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    std::error_code entry_ec;
    if (!is_staging_name(entry.path().filename().string()) || entry.is_symlink(entry_ec) ||
        !entry.is_directory(entry_ec) || !is_stale(entry.path()))
      continue;
    fs::remove_all(entry.path(), entry_ec);
  }
}

// "out/x/" and "out/x" name the same folder; "." stays ".".
fs::path folder_path(const std::string& given) {
  fs::path p = fs::path(given).lexically_normal();
  if (p.filename().empty() && p.has_parent_path()) p = p.parent_path();
  return p;
}

bool is_owned_by_a_run(const fs::path& file) {
  static const char* const kNames[] = {"results.json", "timeline.json", "flow.json", "report.json",
                                       "report.md"};
  // validate's figures (report.png, report-<field>.svg ...), compared timelines, cross-checks.
  static const char* const kPrefixes[] = {"report.", "report-", "timeline_compare", "simgrid-",
                                          "ns3-"};
  const std::string name = file.filename().string();
  const std::string ext = file.extension().string();
  return ext == ".csv" || ext == ".pcap" ||
         std::any_of(std::begin(kNames), std::end(kNames),
                     [&](const char* n) { return name == n; }) ||
         std::any_of(std::begin(kPrefixes), std::end(kPrefixes),
                     [&](const char* p) { return name.starts_with(p); });
}

// Folders a run or a validation fills (figures, fitted parameters, kept runs, per-rank tables):
// everything in them belongs to the run, so they go whole.
bool is_folder_of_a_run(const fs::path& folder) {
  static const char* const kNames[] = {"plots", "params", "runs", "ranks"};
  const std::string name = folder.filename().string();
  return std::any_of(std::begin(kNames), std::end(kNames),
                     [&](const char* n) { return name == n; });
}

void move_file(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::rename(from, to, ec);
  if (ec)
    throw UsageError(
        fmt::format("--out: {}: cannot move the results in: {}", to.string(), ec.message()));
}

}  // namespace

StagedFolder::StagedFolder(std::string target) : target_(std::move(target)) {}

StagedFolder::~StagedFolder() {
  if (committed_ || staging_.empty()) return;
  std::error_code ec;
  fs::remove_all(staging_, ec);
  interrupt::remove_staging(staging_);
  release_lock();
}

void StagedFolder::release_lock() {
  if (lock_fd_ < 0) return;
  close(lock_fd_);
  lock_fd_ = -1;
}

// The lock file appears locked: made and locked under another name, then renamed into place. A
// run opening a folder beside this one at the same moment would otherwise find the file before
// its lock and take the live folder for a stale one (remove_stale_staging). Until the rename the
// folder has no lock file, and a folder that young is never stale.
void StagedFolder::lock_staging() {
  const fs::path lock = fs::path(staging_) / kLock;
  const fs::path unplaced = fs::path(staging_) / kUnplacedLock;
  lock_fd_ = ::open(unplaced.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (lock_fd_ < 0) return;
  std::error_code ec;
  if (flock(lock_fd_, LOCK_EX | LOCK_NB) == 0) fs::rename(unplaced, lock, ec);
}

void StagedFolder::open() {
  const fs::path target = folder_path(target_);
  std::error_code ec;
  if (fs::exists(target, ec) && !fs::is_directory(target, ec))
    throw UsageError(fmt::format("--out: {}: exists and is not a folder", target_));
  if (fs::exists(target, ec) && access(target.c_str(), W_OK) != 0)  // fail now, not after the run
    throw UsageError(fmt::format("--out: {}: cannot write: {}", target_, std::strerror(errno)));
  const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
  fs::create_directories(parent, ec);
  if (ec) throw UsageError(fmt::format("--out: {}: {}", parent.string(), ec.message()));
  remove_stale_staging(parent);
  const std::string name = fmt::format(".{}.partial-XXXXXX", target.filename().string());
  std::string pattern = (parent / name).string();
  if (mkdtemp(pattern.data()) == nullptr)
    throw UsageError(fmt::format("--out: {}: cannot create a folder in {}: {}", target_,
                                 parent.string(), std::strerror(errno)));
  staging_ = pattern;
  interrupt::add_staging(staging_);
  lock_staging();
  // mkdtemp makes it 0700; as the --out folder it gets what mkdir would have given it.
  const mode_t mask = umask(0);
  umask(mask);
  fs::permissions(staging_, static_cast<fs::perms>(0777 & ~mask), ec);
}

void StagedFolder::commit() {
  const fs::path target = folder_path(target_);
  const interrupt::Deferred deferred;  // a signal now waits until the files are in place
  std::error_code ec;
  fs::remove(fs::path(staging_) / kLock, ec);  // not a result; the folder stays locked by fd
  fs::remove(fs::path(staging_) / kUnplacedLock, ec);  // where it could not be locked
  if (!fs::exists(target, ec)) {
    fs::rename(staging_, target, ec);
    if (!ec) {
      committed_ = true;
      interrupt::remove_staging(staging_);
      interrupt::note_results_written();
      release_lock();
      return;
    }
  }
  replace_owned_files();
  fs::remove_all(staging_, ec);
  committed_ = true;
  interrupt::remove_staging(staging_);
  interrupt::note_results_written();
  release_lock();
}

void StagedFolder::replace_owned_files() {
  const fs::path target = folder_path(target_);
  std::error_code ec;
  fs::remove(target / kResults, ec);  // first: no results.json beside a mix of two runs' files
  std::vector<fs::path> owned;
  for (const auto& entry : fs::directory_iterator(target, ec))
    if ((entry.is_regular_file() && is_owned_by_a_run(entry.path())) ||
        (entry.is_directory() && is_folder_of_a_run(entry.path())))
      owned.push_back(entry.path());
  for (const fs::path& path : owned) fs::remove_all(path, ec);
  bool has_results = false;
  for (const auto& entry : fs::directory_iterator(staging_)) {
    if (entry.path().filename() == kResults)
      has_results = true;
    else
      move_file(entry.path(), target / entry.path().filename());
  }
  if (has_results) move_file(fs::path(staging_) / kResults, target / kResults);
}

}  // namespace netwarp::apps
