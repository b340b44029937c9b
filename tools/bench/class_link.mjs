// A student's phone opening the teacher's class link (ans=): how long from opening the link until
// the carried numbers are readable (in the early text, #lab-early, or the app's text mirror,
// #lab-text, whichever has them first), and what the page fetched meanwhile (no
// model worker, no weight). The link is made as a teacher makes it: the rule book on the built-in
// model with the city unit switched off and picked, then "Add to the class link". A measurement,
// not a test: prints a table, the median of N runs and, in brackets, the fastest and slowest run.
//
//   node tools/bench/class_link.mjs [--site build-wasm/site] [--runs 5] [--profile "fast 3G"]
//                                   [--fragment "#v=1&view=rules&off=23:75&layer=23&unit=75"]
import { startSite, NETWORK_PROFILES } from "../../tests/browser/browser.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const siteDir = opt("--site", "build-wasm/site");
const runs = Number(opt("--runs", "5"));
const teacher = opt("--fragment", "#v=1&view=rules&off=23:75&layer=23&unit=75&lang=en");
const only = opt("--profile", "");
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, hasTouch: true, isMobile: true };

const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const spread = (v) => `${median(v).toFixed(0)} (${Math.min(...v).toFixed(0)}-${Math.max(...v).toFixed(0)})`;

const site = await startSite(siteDir);

// The teacher's page: the answer on screen, then added to the link.
async function classLink() {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(site.base + teacher);
  await page.waitForFunction(() => window.labItemRect && window.labItemRect("class-add"), null, { timeout: 120000 });
  const r = await page.evaluate(() => window.labItemRect("class-add"));
  await page.mouse.click(r.x + r.w / 2, r.y + r.h / 2);
  await page.waitForFunction(() => location.hash.includes("ans="), null, { timeout: 30000 });
  const hash = await page.evaluate(() => location.hash);
  const mirror = await page.evaluate(() => document.getElementById("lab-text").textContent);
  await context.close();
  // A number the answer printed, to wait for on the student's page ("P: 20.9 % → 3.5 %").
  const carried = (mirror.match(/P: [0-9.]+ % → [0-9.]+ %/) || [])[0];
  if (!carried) throw new Error("the teacher's page printed no before → after:\n" + mirror);
  return { hash, carried };
}

const { hash, carried } = await classLink();
console.log(`a student's phone (390x844 at 3x) on the class link (${hash.length} characters), waiting for "${carried}"`);
console.log("ms from opening the link, median of " + runs + " (fastest-slowest)");
console.log("profile                              early text     carried numbers   model worker or weights fetched");
for (const profile of NETWORK_PROFILES.filter((p) => p.name.includes(only))) {
  const early = [], numbers = [];
  const heavy = new Set();
  for (let i = 0; i < runs; ++i) {
    const context = await site.browser.newContext(PHONE);
    const page = await context.newPage();
    if (profile.conditions) {
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", profile.conditions);
    }
    // When the number is first readable: in the early text (#lab-early) or in the app's mirror.
    await page.addInitScript((t) => {
      new MutationObserver(() => {
        const has = (id) => ((document.getElementById(id) || {}).textContent || "").includes(t);
        if (!window.labCarriedMs && (has("lab-early") || has("lab-text"))) window.labCarriedMs = performance.now();
      }).observe(document, { subtree: true, childList: true, characterData: true });
    }, carried);
    site.log.length = 0;
    await page.goto(site.base + hash);
    await page.waitForFunction(() => window.labCarriedMs, null, { timeout: 180000 });
    const t = await page.evaluate(() => ({ now: window.labCarriedMs, early: window.labEarlyTextMs }));
    numbers.push(t.now), early.push(t.early === undefined ? NaN : t.early);
    for (const r of site.log) if (/swiglu_model|\.safetensors/.test(r.path)) heavy.add(r.path);
    await context.close();
  }
  console.log(profile.name.padEnd(34) + spread(early).padStart(15) + spread(numbers).padStart(19) + "   " +
              (heavy.size ? [...heavy].join(", ") : "none"));
}
await site.close();
