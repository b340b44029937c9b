// The CLI's commands that live in their own files; swiglu_cli.cpp dispatches to them.
// Each takes the arguments after its name and returns the exit status
// (0 ok, 1 bad input file, 2 bad arguments).
#pragma once

int cli_convert(int argc, char** argv);  // checkpoint -> pack (cmd_pack.cpp)
int cli_stats(int argc, char** argv);    // gate-open shares of a pack's layers
int cli_permute(int argc, char** argv);  // the per-token experiments on one layer
int cli_tokenize(int argc, char** argv);  // text -> token ids (cmd_tokenize.cpp)
int cli_forward(int argc, char** argv);   // the whole model on a prompt (cmd_forward.cpp)
int cli_answers(int argc, char** argv);   // the whole model's answers to links, as ans= carries them (cmd_answers.cpp)
