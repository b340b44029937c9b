// Faults from HTTP statuses (see stream_error.h).
#include "core/stream/stream_error.h"

stream_error stream_error_from_status(int status, const std::string& platform_words) {
  stream_error e;
  e.status = status;
  if (status == 0) e.fault = STREAM_NETWORK, e.detail = platform_words;
  else if (status == 404 || status == 410) e.fault = STREAM_NOT_FOUND;
  else if (status == 401 || status == 403) e.fault = STREAM_DENIED;
  else if (status == 416) e.fault = STREAM_RANGE;
  else if (status == 429) e.fault = STREAM_TOO_MANY_REQUESTS;
  else if (status >= 500) e.fault = STREAM_SERVER;
  else e.fault = STREAM_HTTP;
  return e;
}

stream_error stream_error_of(stream_fault f, read_error why) {
  stream_error e;
  e.fault = f;
  e.reason = std::move(why);
  return e;
}

stream_error stream_error_detail(stream_fault f, const std::string& detail) {
  stream_error e;
  e.fault = f;
  e.detail = detail;
  return e;
}

stream_error stream_error_sizes(stream_fault f, uint64_t got, uint64_t want) {
  stream_error e;
  e.fault = f;
  e.got = got;
  e.want = want;
  return e;
}

stream_error fetch_answer_error(const fetch_response& r) {
  if (r.status == 0 && r.redirect_failed) return stream_error_detail(STREAM_REDIRECT, r.error);
  return stream_error_from_status(r.status == 206 ? 0 : r.status, r.error);
}
