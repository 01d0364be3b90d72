// TableRow writes the same bytes as nlohmann's dump of the equivalent JSON object (indented as
// results.json nests its rows), including names that need escaping or are not valid UTF-8, and
// the CSV line netwarp's tables have always had (strings raw, numbers as JSON prints them).
#include "table_row.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace netwarp::apps {
namespace {

using Json = nlohmann::ordered_json;

std::string dumped(const Json& j) {
  return j.dump(2, ' ', false, Json::error_handler_t::replace);
}

// `text` with every line after the first indented by `spaces` (how a row nests in an array).
std::string indented(const std::string& text, std::size_t spaces) {
  std::string out;
  for (const char c : text) {
    out += c;
    if (c == '\n') out.append(spaces, ' ');
  }
  return out;
}

struct Fixture {
  std::string plain = "host12";
  std::string quoted = "sw \"a\\b\"\t";
  std::string utf8 = "r\xc3\xa9seau";
  std::string invalid = "bad\xff";
  TableRow row;
  Json json;
  Fixture() {
    add("flow", std::uint32_t{7});
    add("start_ps", std::int64_t{-1});
    add("max", std::numeric_limits<std::uint64_t>::max());
    add("min", std::numeric_limits<std::int64_t>::min());
    add("zero", 0.0);
    add("third", 1.0 / 3);
    add("tiny", 1e-7);
    add("huge", 1e300);
    // Doubles nlohmann prints in its own ways: null for what is not finite, "1.0", "-0.0",
    // exponents both ways, the extremes.
    add("nan", std::numeric_limits<double>::quiet_NaN());
    add("inf", -std::numeric_limits<double>::infinity());
    add("one", 1.0);
    add("minus_zero", -0.0);
    add("negative", -2.5);
    add("largest", std::numeric_limits<double>::max());
    add("least", std::numeric_limits<double>::denorm_min());
    add("e21", 1e21);
    add("e_5", 1e-5);
    add("plain", plain);
    add("quoted", quoted);
    add("utf8", utf8);
    add("invalid", invalid);
  }
  template <class T>
  void add(TableRow::Key key, const T& value) {
    if constexpr (std::is_same_v<T, std::string>) {
      row.add(key, std::string_view(value));
    } else {
      row.add(key, value);
    }
    json[key.text()] = value;
  }
};

TEST(TableRow, JsonIsNlohmannsDumpAtEveryDepth) {
  const Fixture f;
  for (const std::size_t indent : {0, 4}) {
    std::string out;
    f.row.append_json(out, indent);
    EXPECT_EQ(out, indented(dumped(f.json), indent)) << "indent " << indent;
  }
}

TEST(TableRow, CsvHasTheKeysThenRawStringsAndJsonNumbers) {
  const Fixture f;
  std::string header;
  f.row.append_csv_header(header);
  std::string expected_header;
  std::string expected_line;
  for (const auto& [key, value] : f.json.items()) {
    if (!expected_header.empty()) {
      expected_header += ',';
      expected_line += ',';
    }
    expected_header += key;
    expected_line += value.is_string() ? value.get<std::string>() : value.dump();
  }
  EXPECT_EQ(header, expected_header + "\n");
  std::string line;
  f.row.append_csv(line);
  EXPECT_EQ(line, expected_line + "\n");
}

TEST(TableRow, ToJsonEqualsTheObject) {
  const Fixture f;
  // As text: NaN equals nothing, not even itself.
  EXPECT_EQ(dumped(f.row.to_json()), dumped(f.json));
}

// Keys kept from row to row give the same bytes whatever the next row holds: the same keys, the
// same text at another address, another key at an index seen before, fewer or more fields,
// quoted keys, another indent.
TEST(TableRow, KeptKeysGiveTheSameText) {
  static constexpr char kFlowElsewhere[] = "flow";  // not the literal's address
  static constexpr char kGlow[] = "glow";
  const Fixture f;
  std::vector<TableRow> rows(6);
  rows[0] = f.row;
  rows[1] = f.row;
  rows[2].add(kFlowElsewhere, 1);
  rows[2].add("start_ps", 2);
  rows[3].add(kGlow, 3);  // at index 0, where "flow" was kept
  rows[3].add("a \"quoted\" key", 4.5);
  rows[3].add("third", std::string_view("x"));
  rows[4] = f.row;
  TableRow::JsonKeys keys;
  for (const std::size_t indent : {4, 4, 4, 4, 4, 0, 4}) {
    for (const TableRow& row : rows) {
      std::string kept;
      row.append_json(kept, indent, &keys);
      std::string fresh;
      row.append_json(fresh, indent);
      EXPECT_EQ(kept, fresh);
    }
  }
}

// A row whose strings need no escaping is written in one piece when its keys are kept: the
// same text as nlohmann's dump, appended after what the string already holds.
TEST(TableRow, RowsWithoutEscapesAreNlohmannsDumpInOnePiece) {
  TableRow row;
  row.add("node", std::string_view("host3"));
  row.add("port", std::uint32_t{2});
  row.add_absent("slowdown");
  row.add("utilisation", 0.5);
  row.add("offset", std::int64_t{-7});
  row.add_time_or_null("delivered_ps", -1);
  row.add("empty", std::string_view(""));
  const Json json = row.to_json();
  TableRow::JsonKeys keys;
  for (const std::size_t indent : {4, 4, 0, 4}) {
    std::string out = "before";
    row.append_json(out, indent, &keys);
    EXPECT_EQ(out, "before" + indented(dumped(json), indent)) << "indent " << indent;
  }
  std::string csv = "before\n";
  row.append_csv(csv);
  EXPECT_EQ(csv, "before\nhost3,2,,0.5,-7,,\n");
}

TEST(TableRow, AnEmptyRowIsAnEmptyObject) {
  std::string out;
  TableRow().append_json(out, 4);
  EXPECT_EQ(out, "{}");
}

}  // namespace
}  // namespace netwarp::apps
