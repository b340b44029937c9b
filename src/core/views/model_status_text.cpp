// The whole model's status lines, its tokens as printed, and whether a view has its answer (see
// model_view.h: the first section).
#include "core/views/model_view.h"

#include <algorithm>
#include <cmath>

#include "core/views/gates_text.h"
#include "core/views/fault_text.h"
#include "core/base/number_format.h"
#include "core/base/read_error.h"
#include "core/base/strings.h"

// [SECTION] the model's status
uint64_t model_download_to_confirm(const model_session& ms) {
  return ms.status.phase == MODEL_STATUS_ASKING ? ms.status.download_bytes : 0;
}

bool model_status_retry(const model_status& st) {
  return st.phase == MODEL_STATUS_FAILED || st.paused || model_status_chunk_failed(st);
}

bool model_session_way_back(const model_session& ms) {
  if (model_session_builtin(ms)) return false;
  const model_status& st = ms.status;
  const bool refused = ms.have_reply && ms.reply.error.failed() && ms.reply.error.fault != STREAM_CANCELLED;
  return st.phase == MODEL_STATUS_FAILED || model_status_chunk_failed(st) || refused;
}

// "model-00001-of-00002.safetensors: the bytes are not the ones listed"
static std::string failure_text(const model_status& st) {
  const std::string why = live_fault_text(st.error);
  return st.failed_file.empty() ? why : st.failed_file + tr(STR_MIRROR_COLON) + why;
}

std::vector<std::string> model_status_lines(const model_session& ms) {
  const model_status& st = ms.status;
  std::vector<std::string> out;
  if (st.layers > 0)
    out.push_back(strf(tr(STR_MODEL_NAME), st.name.c_str(), std::to_string(st.layers).c_str(), std::to_string(st.hidden).c_str(),
                       fmt_count(st.vocab).c_str()));
  // The built-in model is described; another checkpoint that says it is synthetic is only said so.
  if (st.synthetic) out.push_back(tr(model_session_builtin(ms) ? STR_MODEL_SYNTHETIC : STR_MODEL_SYNTHETIC_OTHER));
  if (ms.carried.shown) {  // a student's page: where the numbers come from, and what checking them costs
    const class_answers& a = ms.carried.answers;
    const std::string rev = a.revision.empty() ? "" : strf(tr(STR_CARRIED_REVISION), a.revision.c_str());
    out.push_back(strf(tr(STR_CARRIED_FROM), st.name.c_str(), rev.c_str()));
    out.push_back(tr(ms.have_reply ? STR_CARRIED_CHECK_NOTE : STR_CARRIED_MISSING));
    return out;
  }
  switch (st.phase) {
    case MODEL_STATUS_IDLE:
    case MODEL_STATUS_OPENING: out.push_back(tr(STR_MODEL_OPENING)); break;
    case MODEL_STATUS_ASKING:
      out.push_back(strf(tr(STR_MODEL_ASK), fmt_mb((int64_t)st.download_bytes).c_str()));
      out.push_back(tr(STR_MODEL_PHONE));
      break;
    case MODEL_STATUS_LOADING: {
      uint64_t loaded = 0, total = 0;
      for (const model_status_file& f : st.files) loaded += f.loaded, total += f.total;
      // Stopped by Cancel, or by a failed part once nothing else is coming, it no longer says
      // "Loading": it says where it stopped.
      out.push_back(strf(tr(model_status_stopped(st) ? STR_MODEL_STOPPED_AT : STR_MODEL_LOADING), fmt_mib(loaded).c_str(), fmt_mib(total).c_str()));
      if (model_status_chunk_failed(st)) out.push_back(strf(tr(STR_MODEL_CHUNK_FAILED), failure_text(st).c_str()));
      else if (st.paused) out.push_back(tr(STR_MODEL_PAUSED));
      break;
    }
    case MODEL_STATUS_FAILED:  // named by where it is (the gates view's source line does the same)
      // A worker that stopped may have opened the model and been running it: not "could not be opened".
      if (st.error.fault == STREAM_WORKER_STOPPED) out.push_back(live_fault_text(st.error));
      else out.push_back(strf(tr(STR_MODEL_FAILED_AT), ms.location.c_str(), failure_text(st).c_str()));
      break;
    case MODEL_STATUS_READY:
      if (ms.pending || !ms.have_reply || ms.precomputed_shown) out.push_back(tr(STR_MODEL_RUNNING));  // a new question runs
      // How many cores answer (a class's laptops differ by the host's headers, not only by cores).
      if (st.threads > 1) out.push_back(strf(tr(STR_MODEL_THREADS), std::to_string(st.threads).c_str()));
      else if (!st.isolated) out.push_back(tr(STR_MODEL_ONE_THREAD));
      break;
  }
  // A file replaced on the host mid-load: the numbers are the new file's, and the page says so.
  for (const std::string& file : st.changed_files) out.push_back(strf(tr(STR_MODEL_FILE_CHANGED), file.c_str()));
  // The built-in model's answer computed when the site was built, until the model gives its own.
  if (ms.precomputed_shown) out.push_back(tr(STR_MODEL_PRECOMPUTED));
  if (ms.have_reply && ms.reply.error.fault != STREAM_OK) {
    const stream_error& e = ms.reply.error;
    out.push_back(e.reason.set() ? read_error_text(e.reason) : live_fault_text(e));
  }
  return out;
}

// A control character (a bell, a newline; C1's too, as UTF-8) is not drawn, and a newline would
// split the row it is in on screen and in the mirror: its bytes are written in hex, "<0a>", as
// the tokenizer writes the bytes of a character split across tokens ("<e5 85>").
static size_t control_at(const std::string& s, size_t i) {
  const unsigned char c = (unsigned char)s[i];
  if (c < 0x20 || c == 0x7f) return 1;
  if (c == 0xc2 && i + 1 < s.size() && (unsigned char)s[i + 1] >= 0x80 && (unsigned char)s[i + 1] <= 0x9f) return 2;
  return 0;
}

static std::string piece_shown(const std::string& piece) {
  static const char HEX[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < piece.size();) {
    if (!control_at(piece, i)) {
      out += piece[i++];
      continue;
    }
    out += '<';
    for (size_t n, first = i; i < piece.size() && (n = control_at(piece, i)) > 0;)
      for (size_t end = i + n; i < end; i++) {
        const unsigned char c = (unsigned char)piece[i];
        out += std::string(i > first ? " " : "") + HEX[c >> 4] + HEX[c & 15];
      }
    out += '>';
  }
  return out;
}

std::string model_token_text(const token_text& t) { return t.piece.empty() ? fmt_token_id(t.id) : "'" + piece_shown(t.piece) + "'"; }

std::string model_prompt_text(const model_reply& r) {
  std::string out;
  for (const token_text& t : r.prompt) out += (out.empty() ? "" : " ") + model_token_text(t);
  return out;
}

bool model_view_ready(const model_session& ms, const lab_state& s) {
  return model_session_current(ms, s) && ms.reply.error.fault == STREAM_OK && !ms.reply.prompt.empty();
}

bool model_view_waiting(const model_session& ms, const lab_state& s) {
  if (ms.status.phase == MODEL_STATUS_FAILED || ms.status.phase == MODEL_STATUS_ASKING) return false;
  // A class link's check still asking its questions: the count moves, then the verdict shows.
  const carried_link& c = ms.carried;
  const bool checking = c.check && ms.status.phase == MODEL_STATUS_READY && c.check_replies.size() < c.answers.answers.size();
  return !model_view_ready(ms, s) || checking || ms.precomputed_shown;  // precomputed: the model's own is on its way
}
