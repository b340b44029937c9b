// The fetch seam (core/stream/fetch_seam.h) in the browser: emscripten-fetch for the network
// (Range requests, progress, cancel) and IndexedDB for the verified cache, so a reload fetches
// no weights and a visited pack works offline. Every answer goes to the bound pack_stream and
// asks the page for frames.
#pragma once

#include "core/stream/fetch_seam.h"

struct pack_stream;
// The one client of the page; `on_event` is called after every answer (to draw a frame).
fetch_client* fetch_web_client(pack_stream* target, void (*on_event)());
