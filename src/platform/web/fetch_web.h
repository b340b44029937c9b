// The fetch seam (core/stream/fetch_seam.h) in the browser: emscripten-fetch for the network
// (Range requests, progress, cancel) and IndexedDB for the verified cache, so a reload fetches
// no weights and a visited pack works offline. Every answer goes to the sink that asked, and
// asks the page for a frame.
#pragma once

#include <emscripten/fetch.h>

#include "core/stream/fetch_seam.h"

// The one client of the page; `on_event` is called after every answer (to draw a frame).
fetch_client* fetch_web_client(void (*on_event)());
