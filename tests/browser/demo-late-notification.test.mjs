// verify.html when a verification's notification comes late: the sandbox
// here notifies 32 s after the check (NOTIFY_DELAY_MS), past the page's wait
// for it, so the page must turn to checkresult, the source of truth, and
// end on the verification's result (not on "no notification"). A wrong secret is said to be the request's
// refused signature (90102). Its own sandbox; pkg/ as demo.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { sandboxSuite, watchErrors } from "../tools/sandbox.mjs";

const suite = sandboxSuite({ NOTIFY_DELAY_MS: "32000" });

async function open(path) {
  const page = watchErrors(await suite.browser.newPage({ viewport: { width: 412, height: 915 } }));
  await page.goto(`${suite.base}${path}`);
  return page;
}

const field = (page, name) => page.locator(`#card [data-role=result] [data-field="${name}"]`).textContent();

test("a notification later than the page's wait: checkresult gives the result", { timeout: 90_000 }, async () => {
  const page = await open("/demo/verify.html");
  const queries = [];
  page.on("request", (r) => r.url().includes("/api/v1/checkresult") && queries.push(r.url()));
  await page.click("#card-form [data-sample=consistent]");
  await page.check("#card-async");
  await page.click("#card-send");
  await page.locator('#card [data-role=result][data-status="pending"]').waitFor({ timeout: 10000 });
  const seqId = await field(page, "seq_id");
  await page.locator('#card [data-role=result][data-status="consistent"]').waitFor({ timeout: 60000 });
  assert.equal(await field(page, "seq_id"), seqId);
  assert.equal(await field(page, "resp_code"), "00");
  const box = await page.locator("#card [data-role=result]").textContent();
  assert.match(box, /by checkresult/);
  const log = await page.locator("#card [data-role=log]").textContent();
  assert.match(log, /no notification for .* within 15 s: asking checkresult/);
  assert.match(log, /checkresult: consistent \(20000\)/);
  assert.doesNotMatch(log, /no_notification/);
  assert.ok(queries.length >= 1, "checkresult was asked");
  await page.locator("#card-send:enabled").waitFor();
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("a wrong secret: the service refused the request's signature (90102), said as such", async () => {
  const page = await open("/demo/verify.html");
  await page.locator("#credentials summary").click();
  await page.fill("#cred-secret", "not-the-sandbox-secret");
  await page.locator("#cred-secret").dispatchEvent("change");
  await page.click("#card-form [data-sample=consistent]");
  await page.click("#card-send");
  await page.locator('#card [data-role=result][data-status="90102"]').waitFor({ timeout: 10000 });
  assert.match(await field(page, "message"), /refused the request's signature \(90102\)/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("the samples of every sandbox rule: consistent, inconsistent, exception, for the card and the ID check", async () => {
  const page = await open("/demo/verify.html");
  for (const [form, section, send] of [["#card-form", "#card", "#card-send"], ["#name-form", "#name", "#name-send"]]) {
    for (const [sample, state, resp] of [["consistent", "consistent", "00"], ["inconsistent", "inconsistent", "01"], ["exception", "exception", "99"]]) {
      await page.click(`${form} [data-sample=${sample}]`);
      await page.click(send);
      await page.locator(`${section} [data-role=result][data-status="${state}"]`).waitFor({ timeout: 10000 });
      assert.equal(await page.locator(`${section} [data-role=result] [data-field="resp_code"]`).textContent(), resp, `${section} ${sample}`);
      await page.locator(`${send}:enabled`).waitFor();
    }
  }
  // Times are 24-hour with milliseconds, like the log's.
  for (const t of await page.locator("[data-role=log] time").allTextContents()) assert.match(t, /^\d\d:\d\d:\d\d\.\d{3}$/);
  assert.deepEqual(page.errors, []);
  await page.close();
});
