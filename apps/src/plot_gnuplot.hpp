// Running gnuplot: which image terminals it has (pngcairo, else png; svg) and one script per
// figure, rendered once per terminal.
#pragma once

#include <string>
#include <vector>

namespace netwarp::apps {

struct ImageTerminal {
  std::string name;       // gnuplot terminal, e.g. "pngcairo"
  std::string extension;  // "png", "svg"
  std::string options;    // size and font
};

// The image terminals this gnuplot offers. UsageError (one line) when gnuplot cannot be run or
// has neither a PNG nor an SVG terminal.
std::vector<ImageTerminal> image_terminals();
// The terminals that were wanted but are missing, said once (e.g. no pngcairo: png used).
std::vector<std::string> terminal_notes();

// Writes `body` (everything but the terminal and output lines) as DIR/NAME.gp and renders
// DIR/NAME.EXT for each terminal; returns the images written. UsageError if gnuplot fails.
std::vector<std::string> render_figure(const std::string& dir, const std::string& name,
                                       const std::string& body,
                                       const std::vector<ImageTerminal>& terminals);

// Text for a gnuplot string in double quotes.
std::string gnuplot_quoted(const std::string& text);

}  // namespace netwarp::apps
