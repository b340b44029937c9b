// Faults in words (see fault_text.h).
#include "core/views/fault_text.h"

#include "core/base/number_format.h"
#include "core/base/read_error.h"
#include "core/base/strings.h"

// Why a sentence has no ids (sentence_failure_error): the tokenizer's reason, or the fault that
// kept tokenizer.json from coming.
std::string fault_needs_ids_why(const stream_error& e) {
  if (e.cause != STREAM_OK) {
    stream_error inner = e;
    inner.fault = e.cause;
    inner.cause = STREAM_OK;
    return strf(tr(STR_TOK_FILE_FETCH), live_fault_text(inner).c_str());
  }
  return e.reason.set() ? read_error_text(e.reason) : e.detail;
}

std::string live_fault_text(const stream_error& e) {
  const std::string status = std::to_string(e.status);
  switch (e.fault) {
    case STREAM_OK: return "";
    case STREAM_NETWORK: return tr(STR_FAULT_NETWORK);
    case STREAM_NOT_FOUND: return tr(STR_FAULT_NOT_FOUND);
    case STREAM_DENIED: return strf(tr(STR_FAULT_DENIED), status.c_str());
    case STREAM_RANGE: return tr(STR_FAULT_RANGE);
    case STREAM_SERVER: return strf(tr(STR_FAULT_SERVER), status.c_str());
    case STREAM_HTTP: return strf(tr(STR_FAULT_HTTP), status.c_str());
    case STREAM_TRUNCATED:
      return strf(tr(STR_FAULT_TRUNCATED), fmt_count((int64_t)e.got).c_str(), fmt_count((int64_t)e.want).c_str());
    case STREAM_WRONG_RANGE: return tr(STR_FAULT_WRONG_RANGE);
    case STREAM_NO_RANGE: return tr(STR_FAULT_NO_RANGE);
    case STREAM_CHECKSUM: return tr(STR_FAULT_CHECKSUM);
    case STREAM_FORMAT: return strf(tr(STR_FAULT_FORMAT), (e.reason.set() ? read_error_text(e.reason) : e.detail).c_str());
    case STREAM_STALLED:  // nothing at all in the window, or too little to call it moving
      return e.got == 0 ? strf(tr(STR_FAULT_STALLED), fmt_seconds(e.seconds).c_str())
                        : strf(tr(STR_FAULT_STALLED_SLOW), fmt_count((int64_t)e.got).c_str(), fmt_seconds(e.seconds).c_str());
    case STREAM_CANCELLED: return tr(STR_FAULT_CANCELLED);
    case STREAM_OFFLINE_UNCACHED: return tr(STR_FAULT_OFFLINE);
    case STREAM_NO_SAFETENSORS: return tr(STR_FAULT_NO_SAFETENSORS);
    case STREAM_UNREADABLE_DTYPE: return strf(tr(STR_FAULT_UNREADABLE_DTYPE), e.detail.c_str());
    case STREAM_NOT_SWIGLU: return strf(tr(STR_FAULT_NOT_SWIGLU), (e.reason.set() ? read_error_text(e.reason) : e.detail).c_str());
    case STREAM_MIXTURE_OF_EXPERTS: return tr(STR_FAULT_MIXTURE_OF_EXPERTS);
    case STREAM_NEEDS_IDS: {
      const std::string why = fault_needs_ids_why(e);
      return std::string(tr(STR_FAULT_NEEDS_IDS)) + (why.empty() ? "" : strf(tr(STR_READ_ASIDE), why.c_str()));
    }
    case STREAM_TOO_LARGE: return strf(tr(STR_FAULT_TOO_LARGE), fmt_mib(e.want).c_str());
    case STREAM_FILE_CHANGED:  // got: how often its header was read, once it gave up
      return e.got > 0 ? strf(tr(STR_FAULT_FILE_KEEPS_CHANGING), fmt_count((int64_t)e.got).c_str()) : tr(STR_FAULT_FILE_CHANGED);
    case STREAM_NO_ROOM: return strf(tr(STR_FAULT_NO_ROOM), fmt_mib(e.want).c_str(), fmt_mib(e.got).c_str());
    case STREAM_TOO_MANY_REQUESTS:
      // The wait may be the host's Retry-After or, where the page could not read one, its own.
      return e.seconds > 0 ? strf(tr(STR_FAULT_TOO_MANY_WAITED), fmt_seconds(e.seconds).c_str()) : tr(STR_FAULT_TOO_MANY);
    case STREAM_REDIRECT: return tr(STR_FAULT_REDIRECT);
    case STREAM_SIZE_CONFLICT:
      return strf(tr(STR_FAULT_SIZE_CONFLICT), fmt_count((int64_t)e.got).c_str(), fmt_count((int64_t)e.want).c_str());
    case STREAM_UNSUPPORTED: return strf(tr(STR_FAULT_UNSUPPORTED), read_error_text(e.reason).c_str());
    case STREAM_WORKER_STOPPED: return strf(tr(STR_FAULT_WORKER_STOPPED), e.detail.c_str());
    case STREAM_FAULT_COUNT: break;
  }
  return "";
}

std::string live_failure_text(const source_failure& f) {
  return strf(tr(STR_FAULT_LINE), f.file.c_str(), live_fault_text(f.error).c_str());
}
