// How the page, the mirror and the CLI print numbers: every number shown is built by one
// function here. Computed values carry 6 decimals (the lessons' precision); values the reader
// typed are printed as short as they read back exactly; none of them ever prints "-0".
#pragma once

#include <cstdint>
#include <string>

// printf into a std::string (the string table's formats): the one printf helper of the program.
std::string strf(const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
std::string fmt6(double v);                     // "1.924234", "-1.761594", never "-0.000000"
std::string fmt_vec6(const double* v, int n);   // "[1.000000, 2.000000]"
std::string fmt_short(double v);                // "1", "-0.5", "0.1": the shortest text that reads back exactly
// Fixed decimals, never a negative zero ("-0.00" is printed "0.00"): a learner reads a sign.
std::string fmt_fixed(double v, int decimals);  // fmt_fixed(-0.001, 2) == "0.00"
std::string fmt_count(int64_t n);               // "264,241,152"
std::string fmt_count_short(int64_t n);         // "11.01M", "51.54B", "8.19K", "512" (two decimals)
std::string fmt_percent(double share);          // 0.5073 -> "50.73 %" (two decimals, as the live views print shares)
// A share of a whole with `decimals` decimals ("35.1 %"); one too small for them keeps two
// significant digits ("0.0067 %"), so that a part that exists never reads "0.0 %".
std::string fmt_share(double share, int decimals);
std::string fmt_mib(uint64_t bytes);            // 11010048 -> "10.5" (MiB, one decimal)
std::string fmt_seconds(double s);              // 20 -> "20"
