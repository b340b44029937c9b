// The class link's two directions (ans=, class_answers.h): answers_writer writes the fields as
// class_answers.cpp's layout walks them, answers_reader reads and checks them. The layout is
// written once, as templates over these two, so the writer and the reader cannot drift.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/views/class_answers_codes.h"

namespace answers_wire {

typedef std::pair<int64_t, std::string> token_key;

// Writes the fields as the layout walks them; a field that cannot be carried (out of its range, a
// number that does not print) makes it not ok, and the answer is left out. With `collect` set it
// only gathers the tokens the answer names (the table is written before the answers).
struct answers_writer {
  static const bool reading = false;
  const class_answers* shape = nullptr;
  std::set<token_key>* collect = nullptr;
  const std::map<token_key, int64_t>* index = nullptr;
  std::string out;
  bool good = true;

  bool ok() const { return good; }
  void need(bool cond, answers_refusal_code) { good = good && cond; }
  void varint(uint64_t v) {
    while (v >= 0x80) out += char(0x80 | (v & 0x7f)), v >>= 7;
    out += char(v);
  }
  // An integer in [lo, hi], written as v - lo.
  template <class T>
  void u(T& v, int64_t lo, int64_t hi, answers_refusal_code c = ANSWERS_RANGE) {
    need(int64_t(v) >= lo && int64_t(v) <= hi, c);
    if (good) varint(uint64_t(int64_t(v) - lo));
  }
  void count(size_t& n, size_t max) {
    need(n <= max, ANSWERS_COUNT);
    if (good) varint(n);
  }
  void str(std::string& s, size_t max) {
    need(s.size() <= max && utf8_ok(s), ANSWERS_TEXT);
    if (!good) return;
    varint(s.size());
    out += s;
  }
  // A digest as the host gives it ("9f3c…", lower-case hex) in half the bytes; anything else as text.
  void hex_or_str(std::string& s, size_t max) {
    bool hex = !s.empty() && s.size() % 2 == 0 && s.size() <= max;
    for (char c : s) hex = hex && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
    need(s.size() <= max && utf8_ok(s), ANSWERS_TEXT);
    if (!good) return;
    if (!hex) {
      varint(s.size() * 2);
      out += s;
      return;
    }
    varint(s.size() + 1);  // odd: hex digits, (k - 1) / 2 bytes of them
    auto digit = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
    for (size_t i = 0; i < s.size(); i += 2) out += char(digit(s[i]) * 16 + digit(s[i + 1]));
  }
  void fixed32(uint32_t& v) {
    for (int i = 0; i < 4; i++) out += char((v >> (8 * i)) & 0xff);  // little-endian
  }
  // Bytes whose count was written before (a token's piece).
  // Bytes whose count was written before (a token's piece, coded).
  void raw_bytes(std::string& s, size_t n) {
    need(s.size() == n, ANSWERS_TEXT);
    if (good) out += s;
  }
  void token(token_text& t) {
    need(t.id >= 0 && t.id < shape->vocab, ANSWERS_RANGE);
    need(t.piece.size() <= kMaxPiece && utf8_ok(t.piece), ANSWERS_TEXT);
    if (!good) return;
    if (collect) return (void)collect->insert({t.id, t.piece});
    varint(uint64_t(index->at({t.id, t.piece})));
  }
  void percent(double& p) {
    uint64_t c = 0;
    need(percent_code(p, &c), ANSWERS_RANGE);
    if (good) varint(c);
  }
  // A probability before and after units were switched off. When both print the same, which of the
  // two was smaller follows (0: neither, 1: after, 2: before), so that the row's tone (P fell, P
  // rose) is the teacher's.
  void before_after(double& before, double& after) {
    uint64_t cb = 0, ca = 0;
    need(percent_code(before, &cb) && percent_code(after, &ca), ANSWERS_RANGE);
    if (!good) return;
    varint(cb), varint(ca);
    if (cb == ca && cb != 0) varint(after < before ? 1 : after > before ? 2 : 0);
  }
  void six(float& v, bool nonneg = false) {
    uint64_t c = 0;
    need(six_code(v, &c) && (!nonneg || v >= 0), ANSWERS_RANGE);
    if (good) varint(c);
  }
  void raw(float& v, bool nonneg = false) {
    need(std::isfinite(v) && (!nonneg || v >= 0), ANSWERS_RANGE);
    if (!good) return;
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    for (int i = 0; i < 4; i++) out += char((bits >> (8 * i)) & 0xff);  // little-endian
  }
};

// Reads the fields as the layout walks them, checking each; the first refusal stops it (every
// later read gives 0, so every loop ends).
struct answers_reader {
  static const bool reading = true;
  const class_answers* shape = nullptr;
  const std::vector<token_text>* table = nullptr;
  const std::string* in = nullptr;
  size_t at = 0;
  answers_refusal_code refused = ANSWERS_OK;

  bool ok() const { return refused == ANSWERS_OK; }
  void need(bool cond, answers_refusal_code c) {
    if (!cond && ok()) refused = c;
  }
  size_t left() const { return in->size() - at; }
  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0; ok(); shift += 7) {
      if (at >= in->size()) return need(false, ANSWERS_TRUNCATED), 0;
      const uint64_t b = (unsigned char)(*in)[at++];
      if (shift == 63 && b > 1) return need(false, ANSWERS_RANGE), 0;  // past 64 bits
      v |= (b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
      if (shift == 63) return need(false, ANSWERS_RANGE), 0;
    }
    return 0;
  }
  template <class T>
  void u(T& v, int64_t lo, int64_t hi, answers_refusal_code c = ANSWERS_RANGE) {
    const uint64_t x = varint();
    need(hi >= lo && x <= uint64_t(hi - lo), c);
    v = ok() ? T(lo + int64_t(x)) : T(lo);
  }
  // A count of elements that each take at least one byte: no more than the bytes left.
  void count(size_t& n, size_t max) {
    const uint64_t x = varint();
    need(x <= max, ANSWERS_COUNT);
    need(x <= left(), ANSWERS_TRUNCATED);
    n = ok() ? size_t(x) : 0;
  }
  void bytes(std::string& s, uint64_t n) {
    need(n <= left(), ANSWERS_TRUNCATED);
    s = ok() ? in->substr(at, size_t(n)) : std::string();
    if (ok()) at += size_t(n);
  }
  void str(std::string& s, size_t max) {
    const uint64_t n = varint();
    need(n <= max, ANSWERS_TEXT);
    bytes(s, n);
    need(utf8_ok(s), ANSWERS_TEXT);
  }
  void hex_or_str(std::string& s, size_t max) {
    const uint64_t k = varint();
    if (!(k & 1)) return str_of(s, k / 2, max);
    std::string raw;
    need(k / 2 <= max / 2, ANSWERS_TEXT);
    bytes(raw, k / 2);
    static const char* digits = "0123456789abcdef";
    s.clear();
    for (unsigned char c : raw) s += digits[c >> 4], s += digits[c & 15];
  }
  void str_of(std::string& s, uint64_t n, size_t max) {
    need(n <= max, ANSWERS_TEXT);
    bytes(s, n);
    need(utf8_ok(s), ANSWERS_TEXT);
  }
  void fixed32(uint32_t& v) {
    v = 0;
    need(left() >= 4, ANSWERS_TRUNCATED);
    if (!ok()) return;
    for (int i = 0; i < 4; i++) v |= uint32_t((unsigned char)(*in)[at++]) << (8 * i);
  }
  void raw_bytes(std::string& s, size_t n) { bytes(s, n); }
  void token(token_text& t) {
    const uint64_t i = varint();
    need(i < table->size(), ANSWERS_TOKEN);
    t = ok() ? (*table)[size_t(i)] : token_text();
  }
  void percent(double& p) {
    p = 0;
    const uint64_t c = varint();
    need(ok() && percent_value(c, &p), ANSWERS_RANGE);
  }
  void before_after(double& before, double& after) {
    before = after = 0;
    const uint64_t cb = varint(), ca = varint();
    need(ok() && percent_value(cb, &before) && percent_value(ca, &after), ANSWERS_RANGE);
    if (!ok() || cb != ca || cb == 0) return;
    // Both print the same: the smaller one a hair below, inside the same printed digits.
    const uint64_t which = varint();
    need(which <= 2, ANSWERS_RANGE);
    if (which == 1) after = before * (1 - 1e-9);
    if (which == 2) before = after * (1 - 1e-9);
  }
  void six(float& v, bool nonneg = false) {
    v = 0;
    const uint64_t c = varint();
    need(ok() && six_value(c, &v) && (!nonneg || v >= 0), ANSWERS_RANGE);
  }
  void raw(float& v, bool nonneg = false) {
    v = 0;
    need(left() >= 4, ANSWERS_TRUNCATED);
    if (!ok()) return;
    uint32_t bits = 0;
    for (int i = 0; i < 4; i++) bits |= uint32_t((unsigned char)(*in)[at++]) << (8 * i);
    std::memcpy(&v, &bits, 4);
    need(std::isfinite(v) && (!nonneg || v >= 0), ANSWERS_RANGE);
  }
};

}  // namespace answers_wire
