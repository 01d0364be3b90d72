// gnuplot as a child process: terminal discovery and rendering.
#include "plot_gnuplot.hpp"

#include <fmt/format.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "app_context.hpp"
#include "csv_table.hpp"

namespace netwarp::apps {
namespace {

struct CommandOutput {
  int status = -1;  // the exit status, -1 when it could not be run
  std::string text;
};

CommandOutput run_capturing(const std::string& command) {
  CommandOutput out;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    out.text.append(buffer.data(), n);
  const int status = pclose(pipe);
  out.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

// gnuplot lists its terminals one per line, the name first.
bool has_terminal(const std::string& listing, const std::string& name) {
  std::istringstream lines(listing);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string first;
    if (words >> first && first == name) return true;
  }
  return false;
}

struct Discovery {
  std::vector<ImageTerminal> terminals;
  std::vector<std::string> notes;
};

Discovery discover() {
  const CommandOutput listing = run_capturing("gnuplot -e 'set terminal' 2>&1");
  if (listing.status != 0)
    throw UsageError(
        "plot: gnuplot cannot be run (install gnuplot-nox, as scripts/install-deps.sh does)");
  Discovery d;
  const std::string font = "font 'Sans,11'";
  if (has_terminal(listing.text, "pngcairo")) {
    d.terminals.push_back({"pngcairo", "png", "size 1100,620 " + font});
  } else if (has_terminal(listing.text, "png")) {
    d.terminals.push_back({"png", "png", "size 1100,620"});
    d.notes.push_back("gnuplot has no pngcairo terminal: PNG via the plain png terminal");
  } else {
    d.notes.push_back("gnuplot has no PNG terminal (pngcairo or png): no PNG files");
  }
  if (has_terminal(listing.text, "svg")) {
    d.terminals.push_back({"svg", "svg", "size 1100,620 dynamic " + font});
  } else {
    d.notes.push_back("gnuplot has no svg terminal: no SVG files");
  }
  if (d.terminals.empty())
    throw UsageError("plot: gnuplot has neither a PNG (pngcairo, png) nor an SVG terminal");
  return d;
}

std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  if (!out) throw UsageError(fmt::format("{}: cannot write", path));
  out << text;
  close_written(out, path);
}

const Discovery& discovery() {
  static const Discovery d = discover();
  return d;
}

}  // namespace

std::vector<ImageTerminal> image_terminals() {
  return discovery().terminals;
}
std::vector<std::string> terminal_notes() {
  return discovery().notes;
}

std::string gnuplot_quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '\n') {
      out += "\\n";  // gnuplot reads \n in double quotes as a line break
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::vector<std::string> render_figure(const std::string& dir, const std::string& name,
                                       const std::string& body,
                                       const std::vector<ImageTerminal>& terminals) {
  const std::string script = fmt::format("{}/{}.gp", dir, name);
  write_file(script, body);
  std::vector<std::string> images;
  for (const ImageTerminal& t : terminals) {
    const std::string image = fmt::format("{}/{}.{}", dir, name, t.extension);
    // A wrapper per terminal keeps NAME.gp free of it, so a person can load it anywhere.
    const std::string wrapper = image + ".gp";
    write_file(wrapper, fmt::format("set terminal {} {}\nset output {}\nload {}\n", t.name,
                                    t.options, gnuplot_quoted(image), gnuplot_quoted(script)));
    const CommandOutput result = run_capturing("gnuplot " + shell_quoted(wrapper) + " 2>&1");
    std::remove(wrapper.c_str());
    if (result.status != 0)
      throw UsageError(fmt::format("plot: gnuplot failed on {} (exit {}): {}", script,
                                   result.status, result.text.substr(0, 300)));
    images.push_back(image);
  }
  return images;
}

}  // namespace netwarp::apps
