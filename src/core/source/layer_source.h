// Where the live views' weights come from. One interface, two implementations:
//   pack_source        a converted weight pack (manifest.json, q8 files, probes.bin; docs/pack.md)
//   checkpoint_source  a Hugging Face checkpoint directory read by byte ranges, converted in the page
// A source moves bytes through the fetch seam (stream/fetch_seam.h), verifies them, converts
// them to the kernels' q8 layout and keeps a bounded amount resident. It hands out verified data
// only, and computes nothing the lesson shows: the lesson's modules (core/experiments/) read from it
// each frame and cache their own results, keyed by the source's generation.
//
// Layers are model layer numbers (0..num_layers-1) throughout; a source says which it can give.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/kernels/kernels.h"
#include "core/link/mlp_part.h"
#include "core/stream/stream_error.h"

struct mlp_gate_counts;

enum source_phase { SOURCE_EMPTY, SOURCE_OPENING, SOURCE_READY, SOURCE_FAILED };
enum source_kind { SOURCE_PACK, SOURCE_CHECKPOINT };  // for the words: "the pack's manifest", "the checkpoint's files"

struct source_probe {
  std::string label;                // the sentence, as the teacher gave it
  std::vector<int64_t> tokens;      // T token ids
  std::vector<std::string> pieces;  // T token texts, or empty when unknown
};

// What a source knows once it is open.
struct source_model {
  std::string model_id;     // "Qwen/Qwen3.5-0.8B"
  std::string revision;     // a checkpoint's revision ("main"), "" for a pack
  bool checkpoint = false;  // read from a checkpoint (model=), not a converted pack: the header says which
  bool synthetic = false;   // made by tools/make_checkpoint, not a trained model
  int64_t hidden = 0, intermediate = 0, num_layers = 0;
  std::vector<int> layers;  // the model layers this source can hand out, ascending
  std::vector<source_probe> probes;
  // A link's ids= the model cannot read: the first id outside its vocabulary (0..vocab-1), or -1.
  // The source then shows the lesson's sentence instead, and the page says which id (live_view).
  int64_t refused_id = -1, vocab = 0;
  int find_layer(int model_layer) const;  // index into layers, or -1
};

struct source_progress {
  uint64_t loaded = 0, total = 0;  // bytes of what the current wants need
  int loading = 0, failed = 0;     // requests in flight, needed ones that failed
  int converting = 0;              // chunks whose bytes are in (counted in loaded), still being converted
  int waiting = 0;                 // requests a host told to wait (429 with Retry-After): asked again soon
  bool paused = false;             // the user cancelled: nothing starts until retry
};

struct fetch_item;
// Adds one request to a progress sum: its bytes, those in (all when `done`), whether it is in
// flight or failed (a cancel is no failure). Each source decides which of its requests count.
void source_progress_add(source_progress* p, const fetch_item& it, bool done);
// Bytes are still on their way: requests in flight, chunks converting, a host's wait.
inline bool source_progress_moving(const source_progress& p) { return p.loading > 0 || p.converting > 0 || p.waiting > 0; }

// One failed file (or part of one), with why.
struct source_failure {
  std::string file;   // as the user would recognise it: "layer-011-gate.q8", "model.safetensors"
  std::string url;    // where it was asked for
  stream_error error;
};

// Adds a failure unless the same file already failed the same way (one line per file and reason).
void source_failure_add(std::vector<source_failure>* out, source_failure f);

struct layer_source {
  virtual ~layer_source() = default;
  virtual source_phase phase() const = 0;
  virtual source_kind kind() const = 0;
  virtual const std::string& location() const = 0;  // what it was opened with
  virtual const source_model& model() const = 0;    // meaningful when READY

  // What the view needs now: the layers whose gate results it shows, and one layer it needs
  // whole (gate, up and down), or -1. Anything else may be evicted.
  virtual void want(const std::vector<int>& result_layers, int whole_layer) = 0;
  // Starts what is needed next and gives up stalled requests (`now` in seconds).
  virtual void pump(double now) = 0;
  virtual void cancel() = 0;
  virtual void retry(double now) = 0;

  // Bumps whenever verified data arrives or resident data goes: results keyed by it recompute.
  virtual uint64_t generation() const = 0;
  // Verified data, or null while it is not in. The matrix marks its layer as used.
  virtual const std::vector<float>* probe_input(int probe) const = 0;  // (T, hidden) f32
  virtual const q8_matrix_view* matrix(int layer, mlp_part part) = 0;
  // Results that come with the source (a pack's precomputed silu(gate), (T, inter)), and the
  // counts at the lessons' threshold over all tokens that its index lists (a pack's manifest),
  // so a histogram shows before any weight. Sources without them return null / false.
  virtual const std::vector<float>* precomputed_silu(int probe, int layer) const { (void)probe, (void)layer; return nullptr; }
  virtual bool summary_counts(int layer, mlp_gate_counts* out) const {
    (void)layer, (void)out;
    return false;
  }

  // Progress of what the current wants need, for one layer or all (-1).
  virtual source_progress progress(int layer) const = 0;
  virtual std::vector<source_failure> failures() const = 0;
  // What the page should say that is no failure: a file that changed on the host, whose converted
  // data was dropped and which is read again (STREAM_FILE_CHANGED).
  virtual std::vector<source_failure> notices() const { return {}; }
  // The verified cache refused to keep something: "quota" or "unavailable" ("" when fine).
  virtual std::string storage_notice() const = 0;
  // For the benchmark and the header: body bytes received from the network and from the cache.
  virtual uint64_t bytes_from_network() const = 0;
  virtual uint64_t bytes_from_cache() const = 0;
  virtual uint64_t resident_bytes() const = 0;
  // Seconds of conversion done in pump (a checkpoint's, a slice at a time): in all, or the
  // longest in one pump. For the benchmark; a source that converts nothing says 0.
  virtual double convert_seconds(bool longest) const { (void)longest; return 0; }
};
