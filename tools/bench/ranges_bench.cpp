// ranges_bench: how long the whole model's loader waits on the network, on a simulated link, with
// the machine taken out: every request's answer arrives `latency` after it was asked for, then its
// bytes cross one shared link of `bandwidth` in turn (a FIFO: a request's bytes wait for those
// before them), on a clock of its own; conversion costs nothing here (the page's own rate is
// tools/bench/model_page.mjs's business). Prints the requests, the load's time on that clock, and
// the time the bytes alone take (bytes / bandwidth): the share of the load that is round trips.
//
//   ranges_bench [--dir CHECKPOINT] [--latency-ms 100] [--mbps 328]
//   (no --dir: the page's built-in model, made in memory; 328 Mbit/s = 41 MB/s, the rate the page
//    reaches on loopback with the full-size model, docs/model.md)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/checkpoint/synthetic_model.h"
#include "core/model/model_loader.h"
#include "platform/native/dir_files.h"

namespace {
// The fetch seam on the simulated link: honest answers (206 for a range, 200 for a whole file), no
// cache, each delivered at its arrival time.
struct link_sim final : fetch_client {
  byte_source* files = nullptr;
  std::string base;
  double latency = 0.1, bytes_per_s = 41e6;
  double link_free = 0;  // when the link has sent every byte asked for so far
  uint64_t bytes = 0;
  int requests = 0;
  struct pending { uint32_t id; fetch_sink* sink; fetch_request q; double at; };
  std::vector<pending> queue;
  uint32_t next = 1;
  double now = 0;

  uint32_t fetch_start(fetch_sink* sink, const fetch_request& q) override {
    uint64_t size = 0, n = 0;
    std::string err;
    const std::string file = q.url.substr(base.size());
    if (files->exists(file) && files->size(file, &size, &err)) n = q.length ? std::min<uint64_t>(q.length, size - std::min(size, q.begin)) : size;
    link_free = std::max(link_free, now + latency) + (double)n / bytes_per_s;
    queue.push_back({next, sink, q, link_free});
    requests++;
    return next++;
  }
  void fetch_cancel(uint32_t id) override {
    queue.erase(std::remove_if(queue.begin(), queue.end(), [&](const pending& p) { return p.id == id; }), queue.end());
  }
  void cache_store(fetch_sink*, const std::string&, const void*, size_t) override {}
  void forget_sink(fetch_sink* sink) override {
    queue.erase(std::remove_if(queue.begin(), queue.end(), [&](const pending& p) { return p.sink == sink; }), queue.end());
  }
  // Moves the clock to the next arrival and answers it; false when nothing is on its way.
  bool deliver_next() {
    if (queue.empty()) return false;
    auto first = std::min_element(queue.begin(), queue.end(), [](const pending& a, const pending& b) { return a.at < b.at; });
    const pending p = *first;
    queue.erase(first);
    now = std::max(now, p.at);
    fetch_response r;
    std::string body, err;
    const std::string file = p.q.url.substr(base.size());
    uint64_t size = 0;
    if (!files->exists(file) || !files->size(file, &size, &err)) {
      r.status = 404;
    } else {
      const uint64_t begin = p.q.length ? p.q.begin : 0;
      const uint64_t n = p.q.length ? std::min<uint64_t>(p.q.length, size - std::min(size, begin)) : size;
      body.resize((size_t)n);
      if (n) files->read(file, begin, (size_t)n, &body[0], &err);
      r.status = p.q.length ? 206 : 200;
      r.content_range_start = begin;
      r.total_size = size;
      bytes += n;
    }
    r.body = body.data();
    r.n = body.size();
    p.sink->on_fetch_progress(p.id, r.n, now);
    p.sink->on_fetch_response(p.id, r, now);
    return true;
  }
};
}  // namespace

int main(int argc, char** argv) {
  std::string dir;
  double latency_ms = 100, mbps = 328;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--dir")) dir = argv[i + 1];
    else if (!std::strcmp(argv[i], "--latency-ms")) latency_ms = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--mbps")) mbps = std::atof(argv[i + 1]);
  }
  mem_files planted;
  dir_source on_disk(dir);
  link_sim net;
  if (dir.empty()) planted.files = synth_model_planted_make();
  net.files = dir.empty() ? (byte_source*)&planted : (byte_source*)&on_disk;
  net.base = "https://hub.example/o/m/resolve/main/";
  net.latency = latency_ms / 1000;
  net.bytes_per_s = mbps * 1e6 / 8;
  model_location loc;
  std::string err;
  if (!model_location_parse(net.base, &loc, &err)) return std::fprintf(stderr, "%s\n", err.c_str()), 1;
  model_loader_options opt;
  opt.ask_above_bytes = UINT64_MAX;  // no tap to wait for
  opt.fetch.clock = nullptr;
  model_loader loader(&net, loc, 0, opt);
  for (int quiet = 0; quiet < 2;) {  // until nothing is on its way and two pumps in a row change nothing
    do loader.pump(net.now);
    while (loader.converting());
    if (loader.phase() == MODEL_READY || loader.phase() == MODEL_FAILED) break;
    quiet = net.deliver_next() ? 0 : quiet + 1;
  }
  if (loader.phase() != MODEL_READY) {
    const std::vector<opener_failure> f = loader.chunk_failures();
    return std::fprintf(stderr, "the model did not load (phase %d; %s: fault %d)\n", (int)loader.phase(),
                        f.empty() ? loader.failure().file.c_str() : f[0].file.c_str(),
                        f.empty() ? (int)loader.failure().error.fault : (int)f[0].error.fault), 1;
  }
  const double floor = (double)net.bytes / net.bytes_per_s;
  std::printf("| checkpoint | latency | link | requests | bytes | load (simulated) | bytes / bandwidth | ratio |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
  std::printf("| %s | %.0f ms | %.0f Mbit/s | %d | %.2f MB | %.2f s | %.2f s | %.2f |\n", dir.empty() ? "built-in" : dir.c_str(), latency_ms,
              mbps, net.requests, net.bytes / 1e6, net.now, floor, net.now / floor);
  return 0;
}
