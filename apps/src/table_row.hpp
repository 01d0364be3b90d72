// TableRow: one row of a results table (flows, ports) as named fields, written as a JSON object
// or a CSV line exactly as nlohmann's dump prints them, without building a JSON value per row:
// a million-host run writes millions of rows, twice (results.json and the CSV file).
#pragma once

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace netwarp::apps {

class TableRow {
 public:
  TableRow() = default;
  // Copies the fields in use only: a row holds room for kMaxFields (1,152 bytes) and uses half.
  TableRow(const TableRow& other) : size_(other.size_) {
    std::copy_n(other.fields_.begin(), size_, fields_.begin());
  }
  TableRow& operator=(const TableRow& other) {
    if (this == &other) return *this;
    size_ = other.size_;
    std::copy_n(other.fields_.begin(), size_, fields_.begin());
    return *this;
  }

  // A field's name: a string literal (or another array of static storage), so that its text
  // never changes and JsonKeys knows a key by its address.
  class Key {
   public:
    template <std::size_t N>
    consteval Key(const char (&text)[N]) : text_(text) {}  // NOLINT(google-explicit-constructor)
    const char* text() const { return text_; }

   private:
    const char* text_;
  };

  template <std::integral T>
  void add(Key key, T value) {
    if constexpr (std::is_signed_v<T>) {
      add_signed(key, static_cast<std::int64_t>(value));
    } else {
      add_unsigned(key, static_cast<std::uint64_t>(value));
    }
  }
  void add(Key key, double value);
  // A time that may not exist (a message never delivered, < 0): null in JSON, empty in CSV.
  void add_time_or_null(Key key, std::int64_t value_ps);
  // `value` must outlive the row (node names live in the topology).
  void add(Key key, std::string_view value);
  // A field without a value: null in JSON, empty in CSV.
  void add_absent(Key key);

  // The text before each value (the comma, the indent, the quoted key, ": "), kept from one row
  // to the next: the rows of a table share their keys, which then are not escaped every time.
  class JsonKeys {
   private:
    friend class TableRow;
    // `key`: a Key's text, known by its address.
    const std::string& prefix(std::size_t i, const char* key, std::size_t indent) {
      if (indent == indent_ && i < keys_.size() && keys_[i].key == key) return keys_[i].prefix;
      return remake(i, key, indent);
    }
    const std::string& remake(std::size_t i, const char* key, std::size_t indent);
    struct Kept {
      const char* key = nullptr;  // a Key's text: the same address, the same text
      std::string prefix;
    };
    std::vector<Kept> keys_;
    std::size_t indent_ = 0;
  };

  // `{ ... }` as json_text prints the row nested `indent` spaces deep; `keys` (optional) keeps
  // the keys' text for the next row.
  void append_json(std::string& out, std::size_t indent, JsonKeys* keys = nullptr) const;
  void append_csv_header(std::string& out) const;  // keys, comma-separated, and a newline
  void append_csv(std::string& out) const;         // values: strings as they are, numbers as JSON
  nlohmann::ordered_json to_json() const;

 private:
  enum class Kind : std::uint8_t { signed_integer, unsigned_integer, real, text, absent };
  // A number's text, copied whole: room for the longest, "-1.7976931348623157e+308".
  using NumberText = char[24];
  struct Text {  // a text field's value (a string_view, which has no trivial constructor)
    const char* data;
    std::size_t size;
    std::string_view view() const { return {data, size}; }
  };
  // No default member initializers: a row leaves its unused fields unwritten (rows are made by
  // the million). 48 bytes: rows are copied whole between threads (RowChannel).
  struct Field {
    const char* key;
    Kind kind;
    // A number's text as nlohmann prints it, made once when added: a row written to both
    // results.json and a CSV file formats each number once.
    std::uint8_t number_size;
    union {  // the value as added, by kind (to_json)
      std::int64_t signed_value;
      std::uint64_t unsigned_value;
      double real_value;
    };
    union {
      NumberText number_text;  // numbers
      Text text;               // Kind::text
    };
  };
  static_assert(sizeof(Field) == 48);
  static constexpr std::size_t kMaxFields = 24;
  void add_signed(Key key, std::int64_t value);
  void add_unsigned(Key key, std::uint64_t value);
  Field& next(Key key, Kind kind);  // the next field, its key and kind set
  void append_value_json(std::string& out, std::size_t i) const;
  std::size_t value_size(std::size_t i) const;  // a value's text, unquoted and unescaped
  // The row's text written in one piece; false (nothing written) when a string needs escaping.
  bool append_json_in_place(std::string& out, std::size_t indent, JsonKeys& keys) const;
  static constexpr std::size_t kNumberSlack = sizeof(NumberText);  // room put_number may write
  static char* put_number(char* at, const NumberText& text, std::size_t size);

  std::array<Field, kMaxFields> fields_;
  std::size_t size_ = 0;
};

}  // namespace netwarp::apps
