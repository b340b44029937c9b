// Browser tests of the whole model's views on the built-in synthetic whole model the site serves:
// the model worker is fetched only when such a view opens; the rule book's top tokens and the
// flow's ratios equal `swiglu forward --json` on the same files (the CLI runs the same core
// natively); a tap switches a unit off, the link gets off=, every probability shows before → after
// as the CLI's --off says; a student opening the link sees the same. Screenshots on a laptop and a
// phone, in English and Chinese.
import { openPage, mirror, hash, waitForMirror, clickItem, bringIntoView, settledItems, screenNumbersNotInMirror, typeInField } from "./browser.mjs";
import { TIMEOUT, PHONE, pct, fontsSettled, ownAnswer, modelCli, viewWords } from "./model_common.mjs";

export function registerModelTests(test, { expect, expectIncludes, shot, cli }) {
  const { forward } = modelCli(cli);
  const words = viewWords;

  test("model: no view without the whole model fetches its worker; the rule book does, once (and its precomputed answers), and the weights whole, as brotli", async (site) => {
    const from = site.log.length;
    const page = await openPage(site, "#v=1&view=gates&lang=en");
    const asked = [];
    page.on("request", (r) => asked.push(new URL(r.url()).pathname));
    await waitForMirror(page, "(live)", TIMEOUT);
    expect(!asked.some((p) => /model_worker|swiglu_model/.test(p)), `the gates view fetched the model worker: ${asked.join(", ")}`);
    await clickItem(page, "view-rules");
    await waitForMirror(page, "P: ", TIMEOUT);
    await ownAnswer(page);  // the built-in model's precomputed numbers come first; the model's own replace them
    await waitForMirror(page, "P: ", TIMEOUT);
    for (const f of ["model_worker.js", "swiglu_model.js", "swiglu_model.wasm", "answers.txt"])
      expect(asked.filter((p) => p.endsWith("/" + f)).length === 1, `${f} fetched ${asked.filter((p) => p.endsWith("/" + f)).length} times`);
    // The 2.4 MB shard: its header by a range, then the file whole (no Range), so the host sent its
    // brotli twin (1.7 MB); nothing else of it.
    const shard = site.log.slice(from).filter((r) => r.path.startsWith("/models/synthetic/") && r.path.endsWith(".safetensors"));
    const whole = shard.filter((r) => r.range === "");
    expect(whole.length === 1 && whole[0].encoding === "br" && shard.length === 2 && /^bytes=0-\d+$/.test(shard.find((r) => r.range).range),
      `the shard's requests: ${JSON.stringify(shard)}`);
    expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
    await page.context().close();
  });

  for (const lang of ["en", "zh"])
    test(`model ${lang}: the rule book's top tokens and a unit switched off, as swiglu forward computes them`, async (site) => {
      const w = words[lang];
      const base = forward(site, ["--text", "中国的首都是"]);
      for (const screen of [{}, PHONE]) {
        const where = screen.phone ? "phone" : "laptop";
        const from = site.log.length;
        const page = await openPage(site, `#v=1&view=rules&lang=${lang}`, screen);
        const first = base.top[0];
        const row = `id ${first.id}${w.sep}P${w.colon}${pct(first.p)}`;
        await waitForMirror(page, row, TIMEOUT);
        await ownAnswer(page);  // the screen then stays: no loading line moving under the comparison or a tap
        const text = await mirror(page);
        expectIncludes(text, w.synthetic, `${where}: the mirror says the model is synthetic`);
        for (const t of base.top) expectIncludes(text, `id ${t.id}${w.sep}P${w.colon}${pct(t.p)}`, `${where}: the top 10`);
        const missing = await screenNumbersNotInMirror(page);
        expect(missing.length === 0, `${where}: numbers on screen not in the mirror: ${missing.join(" | ")}`);
        await fontsSettled(page);
        await shot(page, `model-rules-${lang}-${where}`);
        // The most active unit switched off by a tap: off= in the link, before → after for every token.
        const unit = base.units[0];
        const button = `rules-off-${unit.layer}-${unit.unit}`;
        await bringIntoView(page, button, { phone: !!screen.phone, height: screen.phone ? 844 : 800 });
        await clickItem(page, button);
        await page.waitForFunction((u) => location.hash.includes(`off=${u}`), `${unit.layer}:${unit.unit}`, { timeout: TIMEOUT });
        const off = forward(site, ["--text", "中国的首都是", "--off", `${unit.layer}:${unit.unit}`]);
        const before = off.before_top[0];
        await waitForMirror(page, `id ${before.id}${w.sep}P${w.colon}${pct(before.p_before)} → ${pct(before.p)}`, TIMEOUT);
        await fontsSettled(page);
        await shot(page, `model-rules-off-${lang}-${where}`);
        // The link as a student opens it: the same before → after.
        const link = await hash(page);
        const student = await openPage(site, link, screen);
        await waitForMirror(student, `id ${before.id}${w.sep}P${w.colon}${pct(before.p_before)} → ${pct(before.p)}`, TIMEOUT);
        await fontsSettled(student);
        // The built-in model's pieces are in the string table's Chinese font: no slice of the full fonts.
        const slices = site.log.slice(from).filter((r) => r.path.startsWith("/fonts/slices/")).map((r) => r.path);
        expect(slices.length === 0, `${where}: the built-in model's rule book fetched slices of the full fonts: ${slices.join(" ")}`);
        expect(page.labErrors.length === 0 && student.labErrors.length === 0, "page errors: " + [...page.labErrors, ...student.labErrors].join("; "));
        await student.context().close();
        await page.context().close();
      }
    });

  for (const lang of ["en", "zh"])
    test(`model ${lang}: what each MLP adds, a row a layer, as swiglu forward computes it`, async (site) => {
      const w = words[lang];
      const run = forward(site, ["--text", "中国的首都是"]);
      for (const screen of [{}, PHONE]) {
        const where = screen.phone ? "phone" : "laptop";
        const page = await openPage(site, `#v=1&view=flow&lang=${lang}`, screen);
        const last = run.flow.length - 1;
        await waitForMirror(page, `${w.layer(last)}${w.colon}|MLP|`, TIMEOUT);
        await ownAnswer(page);
        const text = await mirror(page);
        for (let l = 0; l < run.flow.length; l++) {
          const f = run.flow[l];
          expectIncludes(text, `${w.layer(l)}${w.colon}|MLP|${w.colon}${f.mlp_l2.toFixed(6)}`, `${where}: layer ${l}'s |MLP|`);
        }
        await fontsSettled(page);
        await shot(page, `model-flow-${lang}-${where}`);
        await page.context().close();
      }
    });

  // Lesson 001's exercise as a quiz, from its link alone: no view opened the flow before.
  const QUIZ_WORDS = {
    en: { offPart: ", with Layer 23, unit 75 switched off)", right: "Right.", wrong: "Not this one." },
    zh: { offPart: "上，关闭 第 23 层，单元 75）", right: "答对了。", wrong: "不对。" },
  };
  for (const lang of ["en", "zh"])
    test(`model ${lang}: the flow's quiz question answered from its link on a phone, the switch-off named`, async (site) => {
      const q = QUIZ_WORDS[lang];
      const run = forward(site, ["--text", "中国的首都是", "--off", "23:75"]);
      const ratios = run.flow.map((f) => f.mlp_l2 / f.out_l2);
      const largest = ratios.indexOf(Math.max(...ratios));
      const page = await openPage(site, `#v=1&view=quiz&quiz=flow&off=23:75&lang=${lang}`, PHONE);
      await waitForMirror(page, q.offPart, TIMEOUT);
      await typeInField(page, "quiz-answer", String(largest === 0 ? 1 : largest - 1));
      await waitForMirror(page, q.wrong, TIMEOUT);
      await typeInField(page, "quiz-answer", String(largest));
      await waitForMirror(page, q.right, TIMEOUT);
      expectIncludes(await hash(page), "off=23:75", "the link");
      expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
      await shot(page, `model-quiz-flow-${lang}-phone`);
      await page.context().close();
    });

  for (const lang of ["en", "zh"])
    test(`model ${lang}: the flow's chart, a bar tapped marks its layer; a picked unit switched off on a phone`, async (site) => {
      const w = words[lang];
      for (const screen of [{}, PHONE]) {
        const where = screen.phone ? "phone" : "laptop";
        const page = await openPage(site, `#v=1&view=flow&lang=${lang}`, screen);
        await waitForMirror(page, `${w.layer(23)}${w.colon}|MLP|`, TIMEOUT);
        await ownAnswer(page);
        await bringIntoView(page, "flow-layer-23", { phone: !!screen.phone, height: screen.phone ? 844 : 800 });
        await clickItem(page, "flow-layer-23");
        await page.waitForFunction(() => location.hash.includes("layer=23"), null, { timeout: TIMEOUT });
        await waitForMirror(page, `${w.layer(23)}${w.colon}(`, TIMEOUT);  // "(picked)" on its row
        const chart = (await settledItems(page)).find((it) => it.name === "flow-chart");
        expect(chart && chart.y1 - chart.y0 <= (screen.phone ? 844 : 800) * 0.45, `${where}: the chart is ${chart && chart.y1 - chart.y0} px tall`);
        await fontsSettled(page);
        await shot(page, `model-flow-marked-${lang}-${where}`);
        expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
        await page.context().close();
      }
      // The picked unit switched off, on a phone: every label on screen or one swipe away.
      const page = await openPage(site, `#v=1&view=rules&layer=23&tok=3&unit=75&off=18:65,23:75&lang=${lang}`, PHONE);
      await waitForMirror(page, `silu(gate) × up${w.colon}`, TIMEOUT);
      const items = await settledItems(page);
      const cut = items.filter((it) => !it.reachable).map((it) => it.name + it.text);
      expect(cut.length === 0, `cut off on a phone: ${cut.join(" | ")}`);
      await fontsSettled(page);
      await shot(page, `model-rules-off-picked-${lang}-phone`);
      await bringIntoView(page, "rules-picked-off", { phone: true, height: 844 });
      await fontsSettled(page);
      await shot(page, `model-rules-off-picked-unit-${lang}-phone`);
      expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
      await page.context().close();
    });

  for (const lang of ["en", "zh"])
    test(`model ${lang}: the rule book and the flow on a projector (ui=present): the type 1.4x once the model's fonts are in, no offer or Clear`, async (site) => {
      const PROJECTOR = { width: 1920, height: 1080 };
      for (const view of ["rules&off=23:75", "flow"]) {
        // The prompt's line (one line on both layouts) once the model's own fonts are in.
        const height = async (link) => {
          const page = await openPage(site, link, PROJECTOR);
          await waitForMirror(page, `${words[lang].layer(23)}`, TIMEOUT);
          await ownAnswer(page);
          await fontsSettled(page);
          const items = await settledItems(page);
          const prompt = items.find((it) => it.text && it.text.startsWith(lang === "en" ? "Prompt" : "提示"));
          return { page, items, line: prompt ? prompt.y1 - prompt.y0 : 0 };
        };
        const normal = await height(`#v=1&view=${view}&lang=${lang}`);
        await normal.page.context().close();
        const present = await height(`#v=1&view=${view}&lang=${lang}&ui=present`);
        expect(normal.line > 0 && present.line >= normal.line * 1.3, `${view}: a line ${normal.line} px, on the projector ${present.line} px`);
        for (const name of ["model-offer-whole", "cache-clear"])
          expect(!present.items.some((it) => it.name === name), `${view}: ${name} on the projector`);
        await shot(present.page, `model-${view.replace(/&.*/, "")}-present-${lang}`);
        expect(present.page.labErrors.length === 0, "page errors: " + present.page.labErrors.join("; "));
        await present.page.context().close();
      }
    });

  // fmt_percent (number_format.cpp): the gates view's shares, two decimals.
  const pct2 = (share) => (100 * share).toFixed(2) + " %";
  for (const lang of ["en", "zh"])
    test(`model ${lang}: the gates view on the stream (in=stream), each layer's shares as swiglu forward counts them`, async (site) => {
      const w = words[lang];
      const run = forward(site, ["--text", "中国的首都是", "--gates", "0,11,23"]);
      for (const screen of [{}, PHONE]) {
        const where = screen.phone ? "phone" : "laptop";
        const page = await openPage(site, `#v=1&view=gates&in=stream&lang=${lang}`, screen);
        const share = (c) => c.open / c.total, neg = (c) => c.negative / c.total;
        await waitForMirror(page, `${w.layer(23)}`, TIMEOUT);
        await waitForMirror(page, pct2(share(run.gates_stream[2])), TIMEOUT);
        await ownAnswer(page);
        const text = await mirror(page);
        for (let i = 0; i < 3; i++) {
          for (const c of [run.gates_stream[i], run.gates_shortcut[i]]) {
            expectIncludes(text, pct2(share(c)), `${where}: layer ${run.gate_layers[i]}'s open share`);
            expectIncludes(text, pct2(neg(c)), `${where}: layer ${run.gate_layers[i]}'s negative share`);
          }
        }
        expectIncludes(text, lang === "en" ? "the residual stream each layer really reads" : "每一层真正读到的残差流", `${where}: the input said`);
        const missing = await screenNumbersNotInMirror(page);
        expect(missing.length === 0, `${where}: numbers on screen not in the mirror: ${missing.join(" | ")}`);
        await fontsSettled(page);
        await shot(page, `model-gates-stream-${lang}-${where}`);
        // One tap back to the lessons' recipe: the pack's histograms, in=embed in the link.
        await bringIntoView(page, "gates-in-embed", { phone: !!screen.phone, height: screen.phone ? 844 : 800 });
        await clickItem(page, "gates-in-embed");
        await page.waitForFunction(() => location.hash.includes("in=embed"), null, { timeout: TIMEOUT });
        await waitForMirror(page, lang === "en" ? "the lessons' recipe" : "课程的做法", TIMEOUT);
        await waitForMirror(page, lang === "en" ? "(live)" : "(实时)", TIMEOUT);  // the pack's histograms, computed here
        expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
        await page.context().close();
      }
    });

  for (const lang of ["en", "zh"])
    test(`model ${lang}: the rule book's units at a picked token and a picked unit's condition, as swiglu forward computes them`, async (site) => {
      const w = words[lang];
      const screen = lang === "zh" ? PHONE : {};
      const where = screen.phone ? "phone" : "laptop";
      const page = await openPage(site, `#v=1&view=rules&lang=${lang}`, screen);
      await waitForMirror(page, `P${w.colon}`, TIMEOUT);
      await ownAnswer(page);
      await bringIntoView(page, "rules-token-1", { phone: !!screen.phone, height: screen.phone ? 844 : 800 });
      await clickItem(page, "rules-token-1");
      await page.waitForFunction(() => location.hash.includes("tok=1"), null, { timeout: TIMEOUT });
      const at1 = forward(site, ["--text", "中国的首都是", "--position", "1"]);
      const u = at1.units[0];
      await waitForMirror(page, `${w.layer(u.layer)}`, TIMEOUT);
      await waitForMirror(page, u.value.toFixed(6), TIMEOUT);
      const pick = `rules-pick-${u.layer}-${u.unit}`;
      await bringIntoView(page, pick, { phone: !!screen.phone, height: screen.phone ? 844 : 800 });
      await clickItem(page, pick);
      await page.waitForFunction((p) => location.hash.includes(`layer=${p.layer}`) && location.hash.includes(`unit=${p.unit}`), u, { timeout: TIMEOUT });
      const picked = forward(site, ["--text", "中国的首都是", "--position", "1", "--unit", `${u.layer}:${u.unit}`]);
      for (const v of picked.picked_per_token) await waitForMirror(page, `silu(gate) × up${w.colon}${v.toFixed(6)}`, TIMEOUT);
      const text = await mirror(page);
      for (const g of picked.picked_gate) expectIncludes(text, `silu(gate)${w.colon}${g.toFixed(6)}`, "the picked unit's silu(gate)");
      for (const x of picked.picked_up) expectIncludes(text, `up${w.colon}${x.toFixed(6)}`, "the picked unit's up");
      const missing = await screenNumbersNotInMirror(page);
      expect(missing.length === 0, `${where}: numbers on screen not in the mirror: ${missing.join(" | ")}`);
      await bringIntoView(page, "rules-picked-off", { phone: !!screen.phone, height: screen.phone ? 844 : 800 });
      await fontsSettled(page);
      await shot(page, `model-rules-picked-${lang}-${where}`);
      // Its weights: the weights view on the same checkpoint, its layer and unit.
      await bringIntoView(page, "rules-weights", { phone: !!screen.phone, height: screen.phone ? 844 : 800 });
      await clickItem(page, "rules-weights");
      await page.waitForFunction(() => location.hash.includes("view=weights") && location.hash.includes("model=models%2Fsynthetic%2F") || location.hash.includes("model=models/synthetic/"), null, { timeout: TIMEOUT });
      await waitForMirror(page, "W_gate", TIMEOUT);
      await fontsSettled(page);
      await shot(page, `model-rules-weights-${lang}-${where}`);
      expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
      await page.context().close();
    });
}
