// Where the page's main thread goes in its long tasks: records a Chromium trace over CDP and
// splits each task over a threshold on the renderer's main thread into what ran inside it (the
// page's JS by function, WebGL/GPU work, style and paint, garbage collection, the rest). Used by
// model_page.mjs --trace; the raw trace is kept for chrome://tracing or Perfetto.
import fs from "node:fs";

const CATEGORIES = [
  "toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute", "v8", "blink", "gpu", "cc",
];

export async function startTrace(context, page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Tracing.start", { traceConfig: { includedCategories: CATEGORIES, recordMode: "recordAsMuchAsPossible" },
                                    transferMode: "ReturnAsStream" });
  return cdp;
}

// Ends the trace, writes it to `file` (the trace event format) and returns its events.
export async function endTrace(cdp, file) {
  const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
  await cdp.send("Tracing.end");
  const { stream } = await done;
  const parts = [];
  for (;;) {
    const { data, eof, base64Encoded } = await cdp.send("IO.read", { handle: stream, size: 1 << 22 });
    parts.push(base64Encoded ? Buffer.from(data, "base64") : Buffer.from(data));
    if (eof) break;
  }
  await cdp.send("IO.close", { handle: stream });
  const text = Buffer.concat(parts).toString("utf8");
  fs.writeFileSync(file, text);
  const parsed = JSON.parse(text);
  return Array.isArray(parsed) ? parsed : parsed.traceEvents;
}

// The renderer main threads: the threads named CrRendererMain.
function mainThreads(events) {
  const keys = new Set();
  for (const e of events)
    if (e.ph === "M" && e.name === "thread_name" && e.args && e.args.name === "CrRendererMain") keys.add(`${e.pid}:${e.tid}`);
  return keys;
}

// What a slice inside a task is, for the split: JS by its function and script, else its name.
function label(e, stack) {
  const d = (e.args && e.args.data) || {};
  // Time in V8 under a JS call is counted as that call's (its compile, its GC are said apart).
  const js = stack.slice().reverse().find((s) => s.label.startsWith("JS "));
  if (js && /^(V8\.|v8\.)/.test(e.name) && !/GC|Compile|compile/.test(e.name)) return js.label;
  if (e.name === "FunctionCall" || e.name === "EvaluateScript" || e.name === "v8.callFunction")
    return `JS ${d.functionName || "(anonymous)"} ${String(d.url || "").split("/").pop()}`.trim();
  if (e.name === "TimerFire" || e.name === "FireAnimationFrame" || e.name === "EventDispatch") return `${e.name} ${d.type || ""}`.trim();
  return e.name;
}

// Tasks over `overMs` on the main threads, each split by self time (a slice's time less its
// children's) over everything nested in it, the largest first: where the time really went.
export function longTasks(events, overMs = 50) {
  const threads = mainThreads(events);
  const byThread = new Map();
  for (const e of events)
    if (e.ph === "X" && typeof e.dur === "number" && threads.has(`${e.pid}:${e.tid}`)) {
      const k = `${e.pid}:${e.tid}`;
      if (!byThread.has(k)) byThread.set(k, []);
      byThread.get(k).push(e);
    }
  const t0 = events.reduce((m, e) => (e.ts > 0 && e.ts < m ? e.ts : m), Infinity);
  const isTask = (e) => e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask";
  const tasks = [];
  for (const slices of byThread.values()) {
    slices.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
    let task = null, stack = [];
    const close = () => {
      if (!task) return;
      while (stack.length) { const s = stack.pop(); task.self.set(s.label, (task.self.get(s.label) || 0) + s.self / 1000); }
      if (task.dur >= overMs * 1000) {
        const parts = [...task.self.entries()].sort((a, b) => b[1] - a[1]);
        tasks.push({ at: (task.ts - t0) / 1e6, ms: task.dur / 1000, parts });
      }
    };
    for (const e of slices) {
      if (!task || e.ts >= task.ts + task.dur) {  // outside the current top-level task
        close();
        task = isTask(e) ? { ts: e.ts, dur: e.dur, self: new Map() } : null;
        stack = task ? [{ e, label: "task's own", self: e.dur }] : [];
        continue;
      }
      while (stack.length > 1 && e.ts >= stack[stack.length - 1].e.ts + stack[stack.length - 1].e.dur) {
        const s = stack.pop();
        task.self.set(s.label, (task.self.get(s.label) || 0) + s.self / 1000);
      }
      const end = Math.min(e.ts + e.dur, stack[stack.length - 1].e.ts + stack[stack.length - 1].e.dur);
      stack[stack.length - 1].self -= end - e.ts;
      stack.push({ e, label: label(e, stack), self: end - e.ts });
    }
    close();
  }
  return tasks.sort((a, b) => a.at - b.at);
}

// Every wait of the main threads for the GPU process (CommandBufferProxyImpl::WaitForGetOffset),
// over the whole trace, by the GL call that waited (the compositor's GLES2::ReadPixels, the
// page's glGetIntegerv, ...): total ms, how many, the longest.
export function gpuWaits(events) {
  const threads = mainThreads(events);
  const slices = events.filter((e) => e.ph === "X" && typeof e.dur === "number" && threads.has(`${e.pid}:${e.tid}`))
    .sort((a, b) => a.pid - b.pid || a.tid - b.tid || a.ts - b.ts || b.dur - a.dur);
  const byCall = new Map();
  let stack = [], thread = "";
  for (const e of slices) {
    if (`${e.pid}:${e.tid}` !== thread) thread = `${e.pid}:${e.tid}`, stack = [];
    while (stack.length && e.ts >= stack[stack.length - 1].ts + stack[stack.length - 1].dur) stack.pop();
    if (e.name === "CommandBufferProxyImpl::WaitForGetOffset") {
      const gl = stack.slice().reverse().find((s) => /^GLES2/.test(s.name) && !/^GLES2::?Implementation(Base)?::WaitForCmd/.test(s.name));
      const call = gl ? gl.name : stack.length ? stack[stack.length - 1].name : "(top level)";
      const w = byCall.get(call) || { ms: 0, count: 0, longest: 0 };
      w.ms += e.dur / 1000, w.count++, w.longest = Math.max(w.longest, e.dur / 1000);
      byCall.set(call, w);
    }
    stack.push(e);
  }
  return [...byCall.entries()].map(([call, w]) => ({ call, ...w })).sort((a, b) => b.ms - a.ms);
}

// Everything inside the long tasks added up by what it is, the largest first.
export function longTaskTotals(tasks) {
  const sum = new Map();
  for (const t of tasks) for (const [k, ms] of t.parts) sum.set(k, (sum.get(k) || 0) + ms);
  return [...sum.entries()].sort((a, b) => b[1] - a[1]);
}
