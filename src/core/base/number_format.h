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
// A value from a file (config.json's rope_theta, a bound it broke): whole numbers below 1e9 as
// integers ("-10000", "10000000"), the rest as short as they read back exactly ("1e+12",
// "1e+308", "0.25"), never a 309-digit number or "10000.000000".
std::string fmt_config_value(double v);
// Fixed decimals, never a negative zero ("-0.00" is printed "0.00"): a learner reads a sign.
std::string fmt_fixed(double v, int decimals);  // fmt_fixed(-0.001, 2) == "0.00"
std::string fmt_count(int64_t n);               // "264,241,152"
std::string fmt_count_short(int64_t n);         // "11.01M", "51.54B", "8.19K", "512" (two decimals)
// Percent, from a share (0.5073, not 50.73), in its three styles:
std::string fmt_percent(double share);          // 0.5073 -> "50.73 %" (two decimals, as the live views print shares)
// A share of a whole with `decimals` decimals ("35.1 %"); one too small for them keeps two
// significant digits ("0.0067 %"), so that a part that exists never reads "0.0 %".
std::string fmt_share(double share, int decimals);
std::string fmt_percent1(double share);         // fmt_share(share, 1): a block of the model, a probability
std::string fmt_percent_sig(double share);      // 1.3125 -> "131.25%", 0.0000916 -> "0.00916%" (fmt_ratio of the percent)
// Two decimals as the lessons print a ratio ("10.50" h²), but below 1 three significant digits, so
// a tiny value still shows digits ("0.000732").
std::string fmt_ratio(double v);
std::string fmt_sig3(double v);                 // 3 significant digits, as read off an axis: "-0.0423", "0"
std::string fmt_mib(uint64_t bytes);            // 11010048 -> "10.5" (MiB, one decimal)
std::string fmt_mb(int64_t bytes);              // 22020096 -> "22.02" (decimal MB of 1e6 bytes, as the lessons count)
std::string fmt_seconds(double s);              // 20 -> "20"
std::string fmt_zoom(double zoom);              // 2 -> "×2", 1.25 -> "×1.25"
std::string fmt_token_id(int64_t id);           // 68990 -> "id 68990": a token by its number in the vocabulary
// A value before and after a change, each already printed: "18.6 %", "1.7 %" -> "18.6 % → 1.7 %".
std::string fmt_before_after(const std::string& before, const std::string& after);
