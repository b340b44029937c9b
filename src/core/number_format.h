// How the page prints numbers. Computed values always carry 6 decimals (the lessons' precision);
// values the reader typed are printed as short as they read back exactly.
#pragma once

#include <cstdint>
#include <string>

std::string fmt6(double v);                     // "1.924234", "-1.761594", never "-0.000000"
std::string fmt_vec6(const double* v, int n);   // "[1.000000, 2.000000]"
std::string fmt_short(double v);                // "1", "-0.5", "0.1"
// Fixed decimals, never a negative zero ("-0.00" is printed "0.00"): a learner reads a sign.
std::string fmt_fixed(double v, int decimals);  // fmt_fixed(-0.001, 2) == "0.00"
std::string fmt_percent(double share);          // "50.73 %" for 0.5073; never "-0.00 %"
std::string fmt_count(int64_t n);               // "264,241,152"
std::string fmt_count_short(int64_t n);         // "11.01M", "51.54B", "8.19K" (two decimals)
