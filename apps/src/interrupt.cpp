// The handler of SIGINT, SIGTERM and SIGHUP (interrupt.hpp). Everything it touches is a fixed
// buffer or a lock-free atomic filled before the signal, and every call it makes is
// async-signal-safe; getdents64 is a raw system call, as safe as read.
#include "interrupt.hpp"

#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <csignal>
#include <cstddef>
#include <cstring>

#include "progress_line.hpp"

namespace netwarp::apps::interrupt {
namespace {

constexpr std::size_t kPathBytes = 4096;
constexpr std::size_t kSlots = 8;
constexpr int kMaxDepth = 16;  // runs/pN/ in validate's folder is 2 deep

// The flags apart from the paths: a look through the slots touches one page, not eight (a page
// fault each, bench/SCALE.md, "Fixed costs: the code a short run executes, together").
std::array<std::atomic<bool>, kSlots> g_used{};
char g_paths[kSlots][kPathBytes] = {};
char g_what[512] = "netwarp";
bool g_prints = true;
std::atomic<std::int64_t> g_simulated_ps{-1};
std::atomic<int> g_deferred{0};        // Deferred scopes open
std::atomic<int> g_pending_signal{0};  // a signal that came inside one
std::atomic<bool> g_results_written{false};
std::atomic<bool> g_handling{false};

static_assert(std::atomic<std::int64_t>::is_always_lock_free);
static_assert(std::atomic<int>::is_always_lock_free);
static_assert(std::atomic<bool>::is_always_lock_free);

// A line built in a fixed buffer, cut when full.
class Line {
 public:
  void add(const char* text) {
    while (*text != '\0' && size_ < sizeof(buffer_) - 1) buffer_[size_++] = *text++;
  }
  void add_unsigned(std::uint64_t value, int min_digits = 1) {
    char digits[24];
    int n = 0;
    do {
      digits[n++] = static_cast<char>('0' + value % 10);
      value /= 10;
    } while (value != 0 || n < min_digits);
    while (n > 0 && size_ < sizeof(buffer_) - 1) buffer_[size_++] = digits[--n];
  }
  void write_to(int fd) const {
    std::size_t done = 0;
    while (done < size_) {
      const ssize_t n = ::write(fd, buffer_ + done, size_ - done);
      if (n <= 0 && errno != EINTR) return;
      if (n > 0) done += static_cast<std::size_t>(n);
    }
  }
  std::string text() const { return std::string(buffer_, size_); }

 private:
  char buffer_[768];
  std::size_t size_ = 0;
};

// "1.250 ms": three decimals of the largest unit the time reaches.
void add_time(Line& line, std::int64_t ps) {
  struct Unit {
    std::uint64_t ps;
    const char* name;
  };
  static constexpr Unit kUnits[] = {
      {1'000'000'000'000, " s"}, {1'000'000'000, " ms"}, {1'000'000, " us"}, {1'000, " ns"}};
  const auto value = static_cast<std::uint64_t>(ps < 0 ? 0 : ps);
  for (const Unit& unit : kUnits) {
    if (value < unit.ps && unit.ps != 1'000) continue;
    line.add_unsigned(value / unit.ps);
    line.add(".");
    line.add_unsigned(value % unit.ps * 1000 / unit.ps, 3);
    line.add(unit.name);
    return;
  }
}

// The fixed head of a linux_dirent64; the name follows d_type.
struct LinuxDirent64 {
  ino64_t d_ino;
  off64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
};
constexpr std::size_t kNameOffset = offsetof(LinuxDirent64, d_type) + 1;

bool is_dot(const char* name) {
  return name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

void remove_at(int parent, const char* name, int depth);

// Empties the folder open as `fd`. Entries removed while reading may make getdents skip some,
// so it reads again from the start until a pass removes nothing.
void empty_folder(int fd, int depth) {
  alignas(LinuxDirent64) char buffer[2048];
  for (bool removed = true; removed;) {
    removed = false;
    if (lseek(fd, 0, SEEK_SET) != 0) return;
    for (;;) {
      const long n = syscall(SYS_getdents64, fd, buffer, sizeof buffer);
      if (n <= 0) break;
      for (long at = 0; at < n;) {
        const auto* entry = reinterpret_cast<const LinuxDirent64*>(buffer + at);
        const char* name = buffer + at + kNameOffset;
        at += entry->d_reclen;
        if (is_dot(name)) continue;
        remove_at(fd, name, depth + 1);
        removed = true;
      }
    }
  }
}

void remove_at(int parent, const char* name, int depth) {
  if (unlinkat(parent, name, 0) == 0 || (errno != EISDIR && errno != EPERM)) return;
  if (depth > kMaxDepth) return;
  const int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  empty_folder(fd, depth);
  close(fd);
  unlinkat(parent, name, AT_REMOVEDIR);
}

// Removes every staged folder; true when there was one.
bool remove_staging_folders() {
  bool any = false;
  for (std::size_t i = 0; i < kSlots; ++i) {
    if (!g_used[i].load()) continue;
    remove_at(AT_FDCWD, g_paths[i], 0);
    any = true;
  }
  return any;
}

void finish(int signal) {
  const bool removed = remove_staging_folders();
  if (g_prints) {
    Line line;
    if (is_progress_line_drawn()) line.add("\r\033[K");
    line.add("netwarp: interrupted by ");
    line.add(signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "SIGHUP");
    line.add(": ");
    line.add(g_what);
    const std::int64_t simulated = g_simulated_ps.load();
    line.add(" stopped");
    if (simulated >= 0) {
      line.add(" after simulating ");
      add_time(line, simulated);
    }
    if (g_results_written.load())
      line.add("; its results were already written\n");
    else
      line.add(removed ? "; nothing written (staging folder removed)\n" : "; nothing written\n");
    line.write_to(STDERR_FILENO);
  }
  _exit(128 + signal);
}

void on_signal(int signal) {
  if (g_deferred.load() > 0) {
    g_pending_signal.store(signal);
    return;
  }
  if (g_handling.exchange(true)) return;  // a second signal while the first is handled
  finish(signal);
}

void copy_text(char* to, std::size_t size, const std::string& from) {
  const std::size_t n = std::min(size - 1, from.size());
  std::memcpy(to, from.data(), n);
  to[n] = '\0';
}

}  // namespace

void install(const std::string& what, bool prints) {
  copy_text(g_what, sizeof g_what, what);
  g_prints = prints;
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&action.sa_mask, signal);
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) sigaction(signal, &action, nullptr);
}

void note_simulated_time(std::int64_t ps) {
  g_simulated_ps.store(ps);
}

void add_staging(const std::string& path) {
  if (path.size() >= kPathBytes) return;  // left to the next run's stale-folder sweep
  for (std::size_t i = 0; i < kSlots; ++i) {
    if (g_used[i].load()) continue;
    copy_text(g_paths[i], kPathBytes, path);
    g_used[i].store(true);
    return;
  }
}

void remove_staging(const std::string& path) {
  for (std::size_t i = 0; i < kSlots; ++i)
    if (g_used[i].load() && path == g_paths[i]) g_used[i].store(false);
}

void remove_staging_now() {
  remove_staging_folders();
}

Deferred::Deferred() {
  g_deferred.fetch_add(1);
}

void note_results_written() {
  g_results_written.store(true);
}

Deferred::~Deferred() {
  if (g_deferred.fetch_sub(1) != 1) return;
  const int signal = g_pending_signal.exchange(0);
  if (signal != 0) on_signal(signal);
}

std::string time_text(std::int64_t ps) {
  Line line;
  add_time(line, ps);
  return line.text();
}

}  // namespace netwarp::apps::interrupt
