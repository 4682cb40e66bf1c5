#include "knightstour/report/count_csv.hpp"

#include <vector>

#include "knightstour/board/square.hpp"

namespace knightstour {

namespace {

// One CSV field, quoted where RFC 4180 needs it (a comma, a quote or a line end).
std::string field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted(1, '"');
  for (const char c : text) {
    if (c == '"') quoted.push_back('"');
    quoted.push_back(c);
  }
  quoted.push_back('"');
  return quoted;
}

// A table of CSV lines, LF-ended.
class Csv {
 public:
  void line(const std::vector<std::string>& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (i) text_.push_back(',');
      text_.append(field(fields[i]));
    }
    text_.push_back('\n');
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

std::string name_of(const CountResult& r, std::int64_t s) {
  return square_name(static_cast<int>(s / r.shape.cols), static_cast<int>(s % r.shape.cols));
}

std::string count_text(const std::optional<BigCount>& c) { return c ? c->str() : ""; }

Csv by_length(const CountResult& r) {
  Csv csv;
  if (r.closed) {
    csv.line({"rows", "length", "tours_directed", "closed_cycles"});
  } else {
    csv.line({"rows", "length", "tours_directed", "tours_undirected", "closed_cycles"});
  }
  for (const LengthCounts& c : r.by_length) {
    std::vector<std::string> line{std::to_string(r.shape.rows), std::to_string(c.length),
                                  c.tours.str()};
    const std::int64_t squares = std::int64_t{r.shape.rows} * c.length;
    if (!r.closed) line.push_back(undirected_tours(c.tours, squares, r.modulus).str());
    line.push_back(c.cycles.str());
    csv.line(line);
  }
  return csv;
}

Csv start_end(const CountResult& r) {
  Csv csv;
  csv.line({"start", "end", "tours_directed"});
  const std::int64_t n = r.shape.squares();
  for (std::int64_t s = 0; s < n; ++s) {
    for (std::int64_t t = 0; t < n; ++t) {
      csv.line({name_of(r, s), name_of(r, t),
                r.tours_by_start_end[static_cast<std::size_t>(s * n + t)].str()});
    }
  }
  return csv;
}

Csv by_start(const CountResult& r) {
  Csv csv;
  csv.line({"square", "rank", "file", "tours_directed", "closed_tours_directed"});
  for (std::size_t s = 0; s < r.tours_by_start.size(); ++s) {
    const auto i = static_cast<std::int64_t>(s);
    const std::string name = name_of(r, i);
    csv.line({name, std::to_string(i / r.shape.cols + 1),
              name.substr(0, name.find_first_of("0123456789")), r.tours_by_start[s].str(),
              s < r.closed_by_start.size() ? r.closed_by_start[s].str() : ""});
  }
  return csv;
}

Csv one_line(const CountResult& r) {
  Csv csv;
  csv.line({"board", "start", "end", "tours_directed", "tours_undirected", "closed_tours_directed",
            "closed_cycles"});
  csv.line({r.shape.name(), r.all_starts ? "all" : name_of(r, r.prefix.front()),
            r.end ? name_of(r, *r.end) : "", r.tours.str(), count_text(r.tours_undirected),
            r.closed_tours.str(), count_text(r.closed_cycles)});
  return csv;
}

// Residues (count --modulus) carry their prime on every line, so that no line reads as counts:
// a last column, `modulus`. The fields before it are names and numbers, without line ends.
std::string with_modulus_column(const std::string& text, std::uint64_t modulus) {
  const std::string header = ",modulus";
  std::string value(1, ',');  // not "," + to_string(): GCC 12 warns falsely (-Wrestrict)
  value += std::to_string(modulus);
  std::string out;
  bool first = true;
  for (const char c : text) {
    if (c == '\n') {
      out += first ? header : value;
      first = false;
    }
    out.push_back(c);
  }
  return out;
}

}  // namespace

std::string count_csv(const CountResult& r) {
  const Csv csv = !r.by_length.empty()            ? by_length(r)
                  : !r.tours_by_start_end.empty() ? start_end(r)
                  : !r.tours_by_start.empty()     ? by_start(r)
                                                  : one_line(r);
  return r.modulus != 0 ? with_modulus_column(csv.text(), r.modulus) : csv.text();
}

}  // namespace knightstour
