// model= values -> checkpoint URLs (see model_location.h).
#include "core/checkpoint_remote/model_location.h"

#include <cctype>
#include <vector>

static bool repo_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

static bool repo_part_ok(const std::string& p) {
  if (p.empty()) return false;
  for (char c : p)
    if (!repo_char(c)) return false;
  if (p.front() == '-' || p.front() == '.' || p.back() == '-' || p.back() == '.') return false;
  return p.find("--") == std::string::npos && p.find("..") == std::string::npos;
}

bool model_repo_id_ok(const std::string& id) {
  const size_t slash = id.find('/');
  if (id.size() > MODEL_REPO_ID_MAX || slash == std::string::npos) return false;
  return repo_part_ok(id.substr(0, slash)) && repo_part_ok(id.substr(slash + 1));
}

// Branches, tags and commits; "refs/pr/N" and "refs/convert/parquet" carry slashes, which the
// resolve URL percent-encodes.
bool model_revision_ok(const std::string& r) {
  if (r.empty() || r.size() > MODEL_REVISION_MAX || r.front() == '/' || r.back() == '/' || r.front() == '.') return false;
  if (r.find("..") != std::string::npos || r.find("//") != std::string::npos) return false;
  for (char c : r)
    if (!repo_char(c) && c != '/') return false;
  return true;
}

bool model_commit_ok(const std::string& text) {
  if (text.size() != 40) return false;
  for (char c : text)
    if (!std::isxdigit((unsigned char)c)) return false;
  return true;
}

static std::vector<std::string> path_parts(const std::string& s) {
  std::vector<std::string> out(1);
  for (char c : s) c == '/' ? out.push_back("") : (void)(out.back() += c);
  return out;
}

// The rule for a pack location and for a model= directory.
bool web_location_ok(const std::string& v) {
  if (v.empty() || v.size() > 512) return false;
  for (unsigned char c : v)
    if (c <= ' ' || c == '\\' || c == '"' || c == '<' || c == '>' || c == '`' || c == 0x7f) return false;
  const bool http = v.rfind("http://", 0) == 0 || v.rfind("https://", 0) == 0;
  if (!http && (v.find(':') != std::string::npos || v[0] == '/' )) return false;
  for (const std::string& part : path_parts(v))
    if (part == "..") return false;
  return true;
}

std::string model_location::id() const { return hub ? owner + "/" + name : text; }

bool model_location_parse(const std::string& text, model_location* out, std::string* error) {
  model_location loc;
  loc.text = text;
  if (text.empty() || text.size() > MODEL_LOCATION_MAX) return *error = "empty or longer than 512 characters", false;
  if (text.rfind("hf:", 0) == 0) {
    std::string rest = text.substr(3), repo = rest;
    loc.revision = "main";
    const size_t at = rest.find('@');
    if (at != std::string::npos) {
      repo = rest.substr(0, at);
      loc.revision = rest.substr(at + 1);
      if (!model_revision_ok(loc.revision)) return *error = "'" + loc.revision + "' is not a revision (branch, tag or commit)", false;
    }
    if (!model_repo_id_ok(repo)) return *error = "'" + repo + "' is not a Hugging Face repository id (OWNER/NAME)", false;
    loc.hub = true;
    loc.owner = repo.substr(0, repo.find('/'));
    loc.name = repo.substr(repo.find('/') + 1);
    std::string rev;
    for (char c : loc.revision) rev += c == '/' ? std::string("%2F") : std::string(1, c);
    loc.base = std::string(MODEL_HF_ORIGIN) + repo + "/resolve/" + rev + "/";
    *out = loc;
    return true;
  }
  // A directory: the same rules as a pack's (http(s) or a relative path inside the site).
  if (!web_location_ok(text)) return *error = "neither hf:OWNER/NAME nor an http(s) URL or relative path of a directory", false;
  loc.base = text;
  if (loc.base.back() != '/') loc.base += '/';
  *out = loc;
  return true;
}

std::string model_location_file_url(const model_location& loc, const std::string& file) { return loc.base + file; }
