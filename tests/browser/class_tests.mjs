// Browser tests of the class link (ans=): the teacher's answers travel in the link, a phone with no
// model shows them and checks them, and the revision the host served travels with them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startHub } from "./hub.mjs";
import { openPage, mirror, hash, waitForMirror, clickItem, bringIntoView } from "./browser.mjs";
import { TIMEOUT, PHONE, ownAnswer, modelCli } from "./model_common.mjs";

export function registerClassTests(test, { expect, expectIncludes, shot, cli }) {
  const { forwardIn, forward, llamaCheckpoint } = modelCli(cli);

  // A Hub link on `main` names the commit the Hub served its files from (X-Repo-Commit), where the
  // Hub's CORS headers let the page read it; a class link carries it, and the student's page says
  // it. Without the header exposed, the revision is the digest of the shards' ETags. The Hub here
  // is huggingface.co itself, routed to the built-in model's files (no network is needed).
  test("hf: on main the class link carries the commit the Hub served (X-Repo-Commit), when the page may read it", async (site) => {
    const commit = "2fc06364715b967f1860aea9cf38778875588b17";
    const dir = path.join(site.dir, "models", "synthetic");
    const hub = (expose) => async (route) => {
      const q = route.request();
      const cors = { "Access-Control-Allow-Origin": "*",
                     "Access-Control-Expose-Headers": "Content-Range, Content-Length, ETag" + (expose ? ", X-Repo-Commit" : "") };
      if (q.method() === "OPTIONS") return route.fulfill({ status: 204, headers: { ...cors, "Access-Control-Allow-Headers": "Range" } });
      const m = /^\/swiglu-lab\/hub-model\/resolve\/main\/([\w.-]+)$/.exec(new URL(q.url()).pathname);
      const file = m && path.join(dir, m[1]);
      if (!file || !fs.existsSync(file)) return route.fulfill({ status: 404, headers: cors, body: "Entry not found" });
      const bytes = fs.readFileSync(file);
      const headers = { ...cors, "X-Repo-Commit": commit, ETag: `"${bytes.length}-${m[1]}"`, "Accept-Ranges": "bytes" };
      const r = /^bytes=(\d+)-(\d+)$/.exec(q.headers()["range"] || "");
      if (!r) return route.fulfill({ status: 200, headers, body: bytes });
      const a = Number(r[1]), b = Math.min(Number(r[2]), bytes.length - 1);
      return route.fulfill({ status: 206, headers: { ...headers, "Content-Range": `bytes ${a}-${b}/${bytes.length}` }, body: bytes.subarray(a, b + 1) });
    };
    for (const expose of [true, false]) {
      const teacher = await openPage(site, "#v=1&view=flow&lang=en&model=hf:swiglu-lab/hub-model",
                                     { routes: [["https://huggingface.co/**", hub(expose)]] });
      await waitForMirror(teacher, "ratio", TIMEOUT);
      await ownAnswer(teacher);
      await clickItem(teacher, "class-add");
      await waitForMirror(teacher, "In the class link: 1 answers", TIMEOUT);
      const link = await teacher.evaluate(() => location.hash);
      expect(teacher.labErrors.length === 0, "page errors: " + teacher.labErrors.join("; "));
      await teacher.context().close();
      const student = await openPage(site, link + "&lang=zh", PHONE);
      await waitForMirror(student, "老师的浏览器", TIMEOUT);
      const text = await mirror(student);
      const said = /（版本 ([^）]+)）/.exec(text);
      expect(said, `the student's page names no revision:\n${text.slice(0, 400)}`);
      if (expose) expect(said[1] === commit.slice(0, 12), `revision ${said[1]}, not the Hub's commit ${commit.slice(0, 12)}`);
      else expect(/^[0-9a-f]{12}$/.test(said[1]) && said[1] !== commit.slice(0, 12), `revision ${said[1]}: not the ETags' digest`);
      await student.context().close();
    }
  });

  // The class link (ans=): the teacher's page computes the rule book (then with the most active unit
  // off) and the flow, adds each to the link; a phone opens that link with the model's host gone and
  // shows every carried number as the teacher's page printed it, with no model worker; a prepared
  // switch-off toggles; "Check them yourself" (the host back) says all agree. On the built-in model,
  // on a Qwen3.5-layout checkpoint served Hub-like, and on a Llama-named one.
  const answerPart = (text) => text.slice(text.indexOf("Prompt: "));
  for (const which of ["built-in", "qwen-hub", "llama-hub"])
    test(`class link (${which}): the teacher's answers travel in the link; a phone without the model's host shows them, toggles a prepared unit, and checks them`, async (site) => {
      let h = null, model = "", extra = "", unit = null;
      if (which === "built-in") {
        unit = forward(site, ["--text", "中国的首都是"]).units[0];
      } else if (which === "qwen-hub") {
        const root = fs.mkdtempSync(path.join(os.tmpdir(), "lab-qwen-"));
        const dir = path.join(root, "swiglu-lab", "qwen-whole");
        fs.cpSync(path.join(site.dir, "models", "synthetic"), dir, { recursive: true });
        h = await startHub(root);
        model = `&model=${h.base}/swiglu-lab/qwen-whole/resolve/main/`;
        unit = forwardIn(dir, ["--text", "中国的首都是"]).units[0];
      } else {
        const root = llamaCheckpoint();
        h = await startHub(root);
        model = `&model=${h.base}/swiglu-lab/llama-whole/resolve/main/`;
        extra = "&ids=5,17,42,99,3,7";
        unit = forwardIn(path.join(root, "swiglu-lab", "llama-whole"), ["--ids", "5,17,42,99,3,7"]).units[0];
      }
      try {
        const off = `rules-off-${unit.layer}-${unit.unit}`;
        const teacher = await openPage(site, `#v=1&view=rules&lang=en${model}${extra}`);
        await waitForMirror(teacher, "writes toward", TIMEOUT);
        await ownAnswer(teacher);
        const answers = [];
        const press = async (page, name, phone = false) => {
          await bringIntoView(page, name, { phone, height: phone ? 844 : 800 });
          await clickItem(page, name);
        };
        const add = async (n) => {
          await press(teacher, "class-add", false);
          await waitForMirror(teacher, `In the class link: ${n} answers`, TIMEOUT);
          answers.push(answerPart(await mirror(teacher)));
        };
        await add(1);
        await press(teacher, off, false);
        await waitForMirror(teacher, "Switched off: ", TIMEOUT);
        await waitForMirror(teacher, "The tokens that rise most", TIMEOUT);
        await add(2);
        await press(teacher, off, false);  // on again
        await teacher.waitForFunction(() => !document.getElementById("lab-text").textContent.includes("Switched off: "), null, { timeout: TIMEOUT });
        await press(teacher, "view-flow", false);
        await waitForMirror(teacher, "ratio", TIMEOUT);
        // The flow asks the rule book's first question (no unit picked): that answer serves both, so
        // adding it replaces the first and the link still holds 2.
        await add(2);
        const link = await teacher.evaluate(() => location.hash);
        expect(link.includes("ans="), `the teacher's link carries no answers: ${link}`);
        await teacher.context().close();

        // The student: a phone; every request to the model's host fails from here on.
        const heard = h ? h.log.length : 0;
        const student = await openPage(site, link.replace("view=flow", "view=rules"), PHONE);
        const gone = (r) => r.abort();
        await student.context().route(/\/models\/synthetic\/|\/swiglu-lab\//, gone);
        await waitForMirror(student, "Computed in the teacher's browser", TIMEOUT);
        await waitForMirror(student, "writes toward", TIMEOUT);
        expect(answerPart(await mirror(student)) === answers[0], `the student's rule book differs:\n${answerPart(await mirror(student))}\n---\n${answers[0]}`);
        await press(student, off, true);
        await waitForMirror(student, "The tokens that rise most", TIMEOUT);
        expect(answerPart(await mirror(student)) === answers[1], "the prepared switch-off differs from the teacher's");
        await press(student, off, true);
        await student.waitForFunction(() => !document.getElementById("lab-text").textContent.includes("Switched off: "), null, { timeout: TIMEOUT });
        await press(student, "view-flow", true);
        await waitForMirror(student, "ratio", TIMEOUT);
        expect(answerPart(await mirror(student)) === answers[2], "the student's flow differs from the teacher's");
        expect(!(await student.evaluate(() => !!Module.labModel)), "the student's page started the model worker");
        if (h) expect(h.log.length === heard, `the student's page asked the model's host: ${h.log.slice(heard).map((e) => e.path).join(", ")}`);
        await shot(student, `class-link-${which}-phone`);
        // Check them yourself, with the host back.
        await student.context().unroute(/\/models\/synthetic\/|\/swiglu-lab\//, gone);
        await press(student, "class-check", true);
        await waitForMirror(student, "All 2 answers in the link agree with the model", TIMEOUT);
        expect(student.labErrors.length === 0, "page errors: " + student.labErrors.join("; "));
        await student.context().close();
      } finally {
        if (h) h.hub.close();
      }
    });
}
