// swiglu: the command-line face of the SwiGLU Lab core (the same code the page runs).
//
//   swiglu hand [--x 1,2] [--wu 8 numbers] [--wg 8 numbers] [--wd 8 numbers] [--steps]
//   swiglu silu Z
//   swiglu budget [--h 1024] [--f 3584] [--layers 24]
//   swiglu url '#v=1&view=hand&x=1,2&step=5'     (what a shared link decodes to)
//   swiglu convert | stats | permute ...           (weight packs: cmd_pack.cpp)
//   swiglu tokenize --tokenizer FILE [--json] TEXT (token ids: cmd_tokenize.cpp)
//   swiglu forward DIR (--text T | --ids I,...) [--off L:U,...] (the whole model: cmd_forward.cpp)
//   swiglu answers DIR [FRAGMENT ...]              (its answers as a class link carries them: cmd_answers.cpp)
//
// Numbers are read exactly as in the page's links (url_state.h), so a value the CLI refuses is
// one a link would refuse too. Exit status: 0 ok, 1 bad input file, 2 bad arguments.
#include <cstdio>
#include <cstring>
#include <string>

#include "cli_commands.h"
#include "core/lesson/activations.h"
#include "core/lesson/hand_calc.h"
#include "core/lesson/hand_explain.h"
#include "core/views/lab_text.h"
#include "core/base/number_format.h"
#include "core/lesson/param_budget.h"
#include "core/base/number_parse.h"
#include "core/link/url_state.h"

static int usage() {
  std::fprintf(stderr,
               "usage: swiglu hand [--x X1,X2] [--wu W*8] [--wg W*8] [--wd W*8] [--steps]\n"
               "       swiglu silu Z\n"
               "       swiglu budget [--h H] [--f F] [--layers L]\n"
               "       swiglu url FRAGMENT\n"
               "       swiglu convert --checkpoint DIR --out PACKDIR --layers 0,11,23|all --text SENTENCE | --tokens ID,... [--label TEXT] ...\n"
               "       swiglu stats --pack PACKDIR [--json] [--threshold 0.1]\n"
               "       swiglu permute --pack PACKDIR --layer L [--probe I] [--perm P] [--token K] [--delta D] [--json]\n"
               "       swiglu tokenize --tokenizer FILE [--json] TEXT\n"
               "       swiglu forward DIR (--text TEXT | --ids ID,...) [--off LAYER:UNIT,...] [--top K] [--json]\n"
               "       swiglu answers DIR [FRAGMENT ...]\n");
  return 2;
}

// Reads "--key value" pairs into a URL fragment and decodes it; every problem is an error here.
static bool read_options(int argc, char** argv, const char* const* keys, lab_state* out, bool* steps) {
  std::string fragment = "v=1";
  for (int i = 0; i < argc; ++i) {
    if (steps && std::strcmp(argv[i], "--steps") == 0) { *steps = true; continue; }
    bool known = false;
    for (const char* const* k = keys; *k; ++k) {
      if (std::strncmp(argv[i], "--", 2) == 0 && std::strcmp(argv[i] + 2, *k) == 0) {
        if (i + 1 >= argc) { std::fprintf(stderr, "swiglu: %s needs a value\n", argv[i]); return false; }
        std::string value = argv[++i];
        if (value.find('&') != std::string::npos || value.find('=') != std::string::npos) {
          std::fprintf(stderr, "swiglu: %s: '%s' is not a number list\n", argv[i - 1], value.c_str());
          return false;
        }
        fragment += "&" + std::string(*k) + "=" + value;
        known = true;
      }
    }
    if (!known) { std::fprintf(stderr, "swiglu: unknown option '%s'\n", argv[i]); return false; }
  }
  url_decoded d = url_decode(fragment);
  for (const url_notice& n : d.notices) std::fprintf(stderr, "swiglu: %s\n", lab_notice_text(n).c_str());
  *out = d.state;
  return d.notices.empty();
}

static std::string matrix_text(const double* m, int rows, int cols) {
  std::string s = "[";
  for (int r = 0; r < rows; ++r) {
    s += r ? ", [" : "[";
    for (int c = 0; c < cols; ++c) s += (c ? ", " : "") + fmt_short(m[r * cols + c]);
    s += "]";
  }
  return s + "]";
}

static int cmd_hand(int argc, char** argv) {
  static const char* const keys[] = {"x", "wu", "wg", "wd", nullptr};
  lab_state s;
  bool steps = false;
  if (!read_options(argc, argv, keys, &s, &steps)) return 2;
  hand_trace t = hand_forward(s.x, s.w);
  std::printf("SwiGLU by hand: y = W_down (silu(W_gate x) * W_up x)\n");
  std::printf("x            = [%s, %s]\n", fmt_short(s.x[0]).c_str(), fmt_short(s.x[1]).c_str());
  std::printf("W_up   (4,2) = %s\n", matrix_text(s.w.up, HAND_MID, HAND_IN).c_str());
  std::printf("W_gate (4,2) = %s\n", matrix_text(s.w.gate, HAND_MID, HAND_IN).c_str());
  std::printf("W_down (2,4) = %s\n", matrix_text(s.w.down, HAND_OUT, HAND_MID).c_str());
  struct { const char* name; const double* v; int n; int step; } rows[] = {
      {"u = W_up x  ", t.u, HAND_MID, HAND_STEP_UP},     {"a = W_gate x", t.a, HAND_MID, HAND_STEP_GATE},
      {"sigmoid(a)  ", t.sigmoid, HAND_MID, 0},          {"g = silu(a) ", t.g, HAND_MID, HAND_STEP_SILU},
      {"z = u * g   ", t.z, HAND_MID, HAND_STEP_MUL},    {"y = W_down z", t.y, HAND_OUT, HAND_STEP_DOWN},
  };
  for (const auto& r : rows) {
    std::printf("%s = %s\n", r.name, fmt_vec6(r.v, r.n).c_str());
    if (steps && r.step)
      for (const std::string& line : hand_step_lines(r.step, s.x, s.w, t)) std::printf("    %s\n", line.c_str());
  }
  return 0;
}

static int cmd_silu(int argc, char** argv) {
  if (argc != 1) return usage();
  double z;  // any number: the page's probe stops at [-6, 6], the CLI does not
  if (!parse_number(argv[0], &z)) {
    std::fprintf(stderr, "swiglu: '%s' is not a number\n", argv[0]);
    return 2;
  }
  act_extremum m = act_silu_minimum();
  std::printf("z          = %s\nsigmoid(z) = %s\nSiLU(z)    = %s\nReLU(z)    = %s\nSiLU-ReLU  = %s\nGELU(z)    = %s\n",
              fmt6(z).c_str(), fmt6(act_sigmoid(z)).c_str(), fmt6(act_silu(z)).c_str(), fmt6(act_relu(z)).c_str(),
              fmt6(act_silu(z) - act_relu(z)).c_str(), fmt6(act_gelu(z)).c_str());
  std::printf("SiLU's minimum: SiLU(%s) = %s\n", fmt6(m.z).c_str(), fmt6(m.value).c_str());
  return 0;
}

static int cmd_budget(int argc, char** argv) {
  static const char* const keys[] = {"h", "f", "layers", nullptr};
  lab_state s;
  if (!read_options(argc, argv, keys, &s, nullptr)) return 2;
  s.view = LAB_VIEW_BUDGET;
  std::fputs(lab_text(s).c_str(), stdout);
  return 0;
}

static int cmd_url(int argc, char** argv) {
  if (argc != 1) return usage();
  url_decoded d = url_decode(argv[0]);
  for (const url_notice& n : d.notices) std::printf("notice: %s\n", lab_notice_text(n).c_str());
  std::printf("canonical: #%s\n", url_encode(d.state).c_str());
  std::fputs(lab_text(d.state).c_str(), stdout);
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  std::string cmd = argv[1];
  if (cmd == "hand") return cmd_hand(argc - 2, argv + 2);
  if (cmd == "silu") return cmd_silu(argc - 2, argv + 2);
  if (cmd == "budget") return cmd_budget(argc - 2, argv + 2);
  if (cmd == "url") return cmd_url(argc - 2, argv + 2);
  if (cmd == "convert") return cli_convert(argc - 2, argv + 2);
  if (cmd == "stats") return cli_stats(argc - 2, argv + 2);
  if (cmd == "permute") return cli_permute(argc - 2, argv + 2);
  if (cmd == "tokenize") return cli_tokenize(argc - 2, argv + 2);
  if (cmd == "forward") return cli_forward(argc - 2, argv + 2);
  if (cmd == "answers") return cli_answers(argc - 2, argv + 2);
  return usage();
}
