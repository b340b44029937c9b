// Reading the numbers people type and links carry: one reader for the link's keys, the quiz's
// typed answers, the CLI's options and the pack's token lists.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

// A plain decimal number as links write it ("-1.5", "+2", "1e-3", "\u2212""1"); no hex, inf or nan.
bool parse_number(std::string text, double* out);

// "5,3,1,0" -> whole numbers >= 0, each plain digits (no sign, no spaces), at least one.
// The CLI's id and layer lists and the permutations read through this one function.
bool parse_index_list(const std::string& text, std::vector<int64_t>* out);

// The parts of `s` between each `sep` ("" -> one empty part).
std::vector<std::string> split_on(const std::string& s, char sep);
