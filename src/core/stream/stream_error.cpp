// Faults from HTTP statuses (see stream_error.h).
#include "core/stream/stream_error.h"

stream_error stream_error_from_status(int status, const std::string& platform_words) {
  stream_error e;
  e.status = status;
  if (status == 0) e.fault = STREAM_NETWORK, e.detail = platform_words;
  else if (status == 404 || status == 410) e.fault = STREAM_NOT_FOUND;
  else if (status == 401 || status == 403) e.fault = STREAM_DENIED;
  else if (status == 416) e.fault = STREAM_RANGE;
  else if (status >= 500) e.fault = STREAM_SERVER;
  else e.fault = STREAM_HTTP;
  return e;
}
