// A file a user names for output (--out params.json, --json, a report): checked before a run,
// then written whole through PATH.partial and a rename, so that it is never half written. A path
// that is not a plain file (a symbolic link, /dev/stdout, a pipe, a device) is written in place:
// a rename would replace the link or the device itself. Errors are one line naming the file, of
// the caller's error type (netwarp's and the cross-check programs' differ).
#pragma once

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace netwarp::apps::output_file {

inline bool is_written_in_place(const std::string& path) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::symlink_status(path, ec);
  return !ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status);
}

// Fails before the run when `path` cannot be written; leaves no (empty) file behind.
template <class Error>
void check_writable(const std::string& path) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);  // the target
  const bool existed = std::filesystem::exists(status);
  if (existed && !std::filesystem::is_regular_file(status)) {
    // A device or a pipe: opening it would be seen (a pipe's reader would get its end).
    if (::access(path.c_str(), W_OK) != 0)
      throw Error(fmt::format("{}: cannot write: {}", path, std::strerror(errno)));
    return;
  }
  {
    std::ofstream file(path, std::ios::app);
    if (!file) throw Error(fmt::format("{}: cannot write: {}", path, std::strerror(errno)));
  }
  // An empty file would look like a result; a link to a file not yet written stays a link.
  if (!existed) std::filesystem::remove(std::filesystem::canonical(path, ec), ec);
}

// Closes `out`: an error naming `path` when any of the file could not be written, including a
// failure that shows only when the stream is closed (a full disk under a file that fits its
// buffer).
template <class Error>
void close_written(std::ofstream& out, const std::string& path) {
  out.close();
  if (!out) throw Error(fmt::format("{}: write failed", path));
}

// `write(stream)` into `file`; errors name `path`, the file the user named.
template <class Error, class Write>
void write_into(const std::string& file, const std::string& path, const Write& write) {
  std::ofstream out(file, std::ios::trunc);
  if (!out) throw Error(fmt::format("{}: cannot write: {}", path, std::strerror(errno)));
  write(out);
  close_written<Error>(out, path);
}

template <class Error, class Write>
void write_whole(const std::string& path, const Write& write) {
  if (is_written_in_place(path)) return write_into<Error>(path, path, write);
  const std::string partial = path + ".partial";
  write_into<Error>(partial, path, write);
  std::error_code ec;
  std::filesystem::rename(partial, path, ec);
  if (ec) throw Error(fmt::format("{}: cannot write: {}", path, ec.message()));
}

}  // namespace netwarp::apps::output_file
