// UTF-8 helpers for the tokenizer: replacing invalid bytes by U+FFFD (the WHATWG / Python
// errors="replace" rule: one U+FFFD per maximal invalid subpart), Unicode normalization through
// utf8proc, and GPT-2's byte-level alphabet (each byte <-> one printable code point).
#pragma once

#include <cstddef>
#include <string>

// Returns text with every invalid UTF-8 sequence replaced by U+FFFD (EF BF BD).
std::string tok_utf8_sanitize(const std::string& text);
// The same text for a reader: each maximal invalid subpart written as its bytes in hex,
// "<e5 85>" (part of a character split across tokens), instead of a U+FFFD that hides them.
std::string tok_utf8_show_bytes(const std::string& text);

// Length in bytes of the (valid) UTF-8 character starting at s[i]; 1 past the end or on a stray byte.
size_t tok_utf8_char_len(const std::string& s, size_t i);

// Decodes the valid UTF-8 character at s[i].
unsigned tok_utf8_decode_at(const std::string& s, size_t i);

void tok_utf8_append(std::string* out, unsigned cp);

// form: 'C' NFC, 'D' NFD, 'K' NFKC, 'k' NFKD. Input must be valid UTF-8 (sanitize first).
std::string tok_normalize(const std::string& text, char form);

// Text with each ASCII control character (newline, tab, DEL...) written as the escape a JSON or
// regex author would type (\n, \t, \x7f), so that a message quoting hostile text stays one line.
std::string tok_escape_controls(const std::string& text);

// Unicode White_Space (what Rust's char::is_whitespace says), for lstrip/rstrip of added tokens.
bool tok_is_whitespace(unsigned cp);

// A Unicode word character as the library's single_word check sees it (the Rust regex crate's
// \w: Alphabetic, marks, decimal digits, connector punctuation, joiners; not "²").
bool tok_is_word_char(unsigned cp);

// GPT-2's byte-level alphabet: byte b is written as the code point tok_byte_to_cp(b); the
// inverse returns -1 for a code point outside the alphabet.
unsigned tok_byte_to_cp(unsigned char b);
int tok_cp_to_byte(unsigned cp);
