// Where a checkpoint lives, as a link's `model=` names it:
//   hf:OWNER/NAME            Hugging Face, revision main
//   hf:OWNER/NAME@REVISION   a branch, tag or commit
//   https://host/dir/        any static host of a checkpoint directory (another origin must
//   http://host/dir/         allow CORS and Range), or a path relative to the page
//   ckpt/qwen/
// A Hugging Face file is at https://huggingface.co/OWNER/NAME/resolve/REVISION/FILE (the Hub
// answers 302 to its CDN, which the browser follows). Pure core: strings in, strings out.
#pragma once

#include <string>

#define MODEL_HF_ORIGIN "https://huggingface.co/"
enum { MODEL_REPO_ID_MAX = 96, MODEL_REVISION_MAX = 255, MODEL_LOCATION_MAX = 512 };

struct model_location {
  bool hub = false;         // hf: (owner, name, revision set)
  std::string owner, name;  // "Qwen", "Qwen3.5-0.8B"
  std::string revision;     // "main", a tag, a commit, "refs/pr/1"
  std::string base;         // the directory's URL, ending in '/': files are base + FILE
  std::string id() const;   // "Qwen/Qwen3.5-0.8B" (or the URL as given)
  std::string text;         // as the link wrote it
};

// Strict: a malformed repo id or revision, another scheme, "..", spaces or quotes are refused
// with a reason (the link then falls back to the default, with a notice).
bool model_location_parse(const std::string& text, model_location* out, std::string* error);
// "OWNER/NAME" as the Hub allows it: each part [A-Za-z0-9_.-], not starting or ending with '-'
// or '.', no "--" or "..", at most 96 characters in all.
// A directory a link may name (pack= and model= alike): an http(s) URL or a relative path inside
// the site, no "..", no spaces, quotes or angle brackets. url_state's checks call this one.
bool web_location_ok(const std::string& location);
bool model_repo_id_ok(const std::string& repo_id);
bool model_revision_ok(const std::string& revision);
// A git commit as the Hub names one: 40 hexadecimal digits (a link's @REV, or X-Repo-Commit).
bool model_commit_ok(const std::string& text);
// The URL of one file of the checkpoint.
std::string model_location_file_url(const model_location& loc, const std::string& file);
