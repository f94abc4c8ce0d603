// The demo pages, the sandbox's own pages and its provider pages on a
// phone's width (412 and 360 px): no horizontal scrolling, and the log's
// "what happened" column wide enough to read a URL (not a character or two
// a line). Each page is filled first (a flow run, so its log holds the
// long lines), then measured; a screenshot of each at 412 px goes to
// tests/artifacts/screenshots/412-*.png for a person to look at.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { SHOTS, sandboxSuite } from "../tools/sandbox.mjs";

const suite = sandboxSuite();

/**
 * What overflows the viewport: the document's scroll width beyond the
 * window's, and each log line whose "what" column is narrower than
 * `minWhat` px.
 */
async function overflow(page, minWhat) {
  return page.evaluate((minWhat) => {
    const width = document.documentElement.clientWidth;
    const problems = [];
    const scroll = document.documentElement.scrollWidth;
    if (scroll > width) {
      const wide = [...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > width + 0.5)
        .slice(0, 3)
        .map((e) => `${e.tagName.toLowerCase()}${e.className ? "." + e.className : ""} (${Math.round(e.getBoundingClientRect().right)} px)`);
      problems.push(`the page is ${scroll} px wide in a ${width} px window: ${wide.join(", ")}`);
    }
    for (const what of document.querySelectorAll("ol.log .what")) {
      const w = what.getBoundingClientRect().width;
      if (w < minWhat) problems.push(`a log line's text is ${Math.round(w)} px wide: "${what.textContent.slice(0, 40)}"`);
    }
    return problems;
  }, minWhat);
}

/** Fills a page by running its flow; resolves once the page shows its end. */
const FILL = {
  async "/demo/h5.html"(page) {
    await page.check("input[name=wap-fallback][value=web]");
    await page.click("#wap-pay");
    await page.waitForURL(/\/sim\/wallet1\/cashier\?/, { timeout: 10000 });
    await page.click("button[value=pay]");
    await page.click("text=Return to the merchant");
    await page.waitForURL(/\/demo\/h5\.html/);
    await page.locator("#wallet1_wap [data-merchant]").waitFor({ timeout: 10000 });
  },
  async "/demo/life.html?bridge_mode=succeed"(page) {
    await page.click("#authorize");
    await page.click("button[value=allow]");
    await page.locator("#life [data-merchant]").waitFor({ timeout: 10000 });
  },
  async "/demo/official.html?bridge_mode=cancel"(page) {
    await page.click("#authorize");
    await page.click("button[value=allow]");
    await page.locator("#official [data-merchant]").waitFor({ timeout: 10000 });
  },
  async "/demo/miniprogram.html"(page) {
    await page.click("#pay");
    await page.locator("#mini [data-merchant]").waitFor({ timeout: 10000 });
    await page.click("#launch-run");
  },
  async "/demo/verify.html"(page) {
    await page.click("#card-send");
    await page.locator("#card [data-role=result][data-status]").waitFor({ timeout: 10000 });
  },
};

/** The sandbox's own pages and its provider pages, reached from a fresh page. */
async function providerPages(page) {
  const seen = [];
  await page.goto(`${suite.base}/sim`);
  seen.push(["sim", page.url()]);
  await page.goto(`${suite.base}/demo/h5.html`);
  await page.check("input[name=wap-fallback][value=web]");
  await page.click("#wap-pay");
  await page.waitForURL(/\/sim\/wallet1\/cashier\?/, { timeout: 10000 });
  seen.push(["cashier", page.url()]);
  await page.goto(`${suite.base}/demo/life.html?bridge_mode=succeed`);
  await page.click("#authorize");
  await page.waitForURL(/\/sim\/wallet1\/authorize/);
  seen.push(["consent", page.url()]);
  return seen;
}

for (const width of [412, 360]) {
  test(`at ${width} px every page fits the width and its log is readable`, async () => {
    const context = await suite.browser.newContext({ viewport: { width, height: 915 } });
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const problems = [];
    const check = async (name) => {
      for (const p of await overflow(page, 180)) problems.push(`${name}: ${p}`);
      if (width === 412) await page.screenshot({ path: join(SHOTS, `412-${name}.png`), fullPage: true });
    };
    await page.goto(`${suite.base}/`);
    await check("index");
    for (const [path, fill] of Object.entries(FILL)) {
      await page.goto(`${suite.base}${path}`);
      await fill(page);
      await check(path.replace(/^\/demo\/|\.html.*$/g, ""));
    }
    for (const [name, url] of await providerPages(page)) {
      await page.goto(url);
      await check(name);
    }
    assert.deepEqual(problems, []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
