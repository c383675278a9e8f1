// node scripts/slack-picture.ts [out.png]: docs/slack-message.png, the README's
// picture of a drift message in Slack. The message is the real Block Kit
// payload (src/report/notify/slack-message.ts) of a real notice; this script only
// draws its blocks the way Slack's client lays them out (header, two-column
// fields, sections, grey context, buttons), in Debian's Chromium through
// playwright-core. Slack's own renderer is not available offline, so the fonts
// and spacing are Slack-like, not Slack's; the words and the structure are the
// message's own. Run it again when the message changes.
import { join } from "node:path";
import { chromium } from "playwright-core";
import type { DriftReport } from "../src/model/types.ts";
import { buildNotice } from "../src/report/notify/build-notice.ts";
import { slackMessage } from "../src/report/notify/slack-message.ts";

interface Block {
  type: string;
  text?: { type: string; text: string };
  fields?: Array<{ text: string }>;
  elements?: Array<{ type: string; text: string | { text: string }; url?: string }>;
}

const report: DriftReport = {
  target: "infra",
  revision: "3f0c9a1e5b7d2c4f6a8e0b1d3c5e7f9a1b3c5d7e",
  summary: { inSync: 14, drifted: 2, missing: 1, orphaned: 0 },
  resources: [
    {
      apiVersion: "apps/v1",
      kind: "Deployment",
      namespace: "shop",
      name: "web",
      status: "drifted",
      changes: [
        {
          path: "/spec/replicas",
          desired: 2,
          live: 4,
          actor: { username: "alice", groups: ["sre"], at: "2026-12-02T10:02:11Z", confidence: "exact" },
        },
        { path: "/spec/template/spec/containers/0/image", desired: "nginx:1.27", live: "nginx:1.28" },
      ],
    },
    {
      apiVersion: "v1",
      kind: "ConfigMap",
      namespace: "shop",
      name: "app-config",
      status: "drifted",
      changes: [{ path: "/data/LOG_LEVEL", desired: "info", live: "debug" }],
    },
    { apiVersion: "v1", kind: "Service", namespace: "shop", name: "web-canary", status: "missing", changes: [] },
  ],
  problems: [],
  fingerprint: "9d3b1c0a",
};

const message = slackMessage(
  buildNotice({
    event: "drift",
    repo: "acme/gitops",
    cluster: "prod-eu",
    report,
    summary: "",
    since: "2026-12-02T10:04:00Z",
    links: {
      repository: "https://github.com/acme/gitops",
      issue: "https://github.com/acme/gitops/issues/7",
      check: "https://github.com/acme/gitops/runs/42",
    },
  }),
) as { blocks: Block[] };

const escapeHtml = (text: string) => text.replace(/&(?!amp;|lt;|gt;)/g, "&amp;").replace(/"/g, "&quot;");
/** Slack mrkdwn (already escaped by the message) as HTML: *bold*, `code`, line breaks. */
const mrkdwn = (text: string) =>
  escapeHtml(text)
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*([^*\n]+)\*/g, "<b>$1</b>")
    .replace(/\n/g, "<br>");

function blockHtml(block: Block): string {
  switch (block.type) {
    case "header":
      return `<div class="header">${escapeHtml(block.text?.text ?? "")}</div>`;
    case "section":
      if (block.fields)
        return `<div class="fields">${block.fields.map((f) => `<div>${mrkdwn(f.text)}</div>`).join("")}</div>`;
      return `<div class="section">${mrkdwn(block.text?.text ?? "")}</div>`;
    case "context":
      return `<div class="context">${(block.elements ?? []).map((e) => `<span>${mrkdwn(String(e.text))}</span>`).join("")}</div>`;
    case "actions":
      return `<div class="actions">${(block.elements ?? [])
        .map((e) => `<span class="button">${escapeHtml(typeof e.text === "string" ? e.text : e.text.text)}</span>`)
        .join("")}</div>`;
    default:
      throw new Error(`slack-picture: no drawing for a ${block.type} block; add one`);
  }
}

const page = `<!doctype html><html><head><meta charset="utf-8"><style>
body { margin: 0; background: #fff; font: 15px/1.47 "Lato", "Helvetica Neue", Arial, sans-serif; color: #1d1c1d; }
.message { display: flex; gap: 8px; padding: 16px 20px; width: 640px; }
.avatar { width: 36px; height: 36px; border-radius: 6px; background: #2e7d5b; color: #fff; font-weight: 700;
  display: flex; align-items: center; justify-content: center; flex: none; }
.name { font-weight: 900; } .app { background: #e8e8e8; color: #616061; font-size: 10px; font-weight: 700;
  padding: 1px 3px; border-radius: 2px; margin: 0 4px; } .time { color: #616061; font-size: 12px; }
.header { font-size: 18px; font-weight: 900; margin: 6px 0; }
.fields { display: grid; grid-template-columns: 1fr 1fr; gap: 8px 16px; margin: 6px 0; }
.section { margin: 8px 0; }
code { font: 12px Monaco, Menlo, Consolas, monospace; color: #e01e5a; background: #f6f6f6;
  border: 1px solid #ddd; border-radius: 3px; padding: 1px 3px; }
.context { color: #616061; font-size: 13px; margin: 8px 0; display: flex; gap: 12px; flex-wrap: wrap; }
.context code { font-size: 11px; }
.actions { display: flex; gap: 8px; margin-top: 10px; }
.button { border: 1px solid #bbb; border-radius: 4px; padding: 3px 12px; font-weight: 700; font-size: 13px; }
</style></head><body><div class="message"><div class="avatar">u</div><div>
<div><span class="name">undrift</span><span class="app">APP</span><span class="time">10:04 AM</span></div>
${message.blocks.map(blockHtml).join("\n")}
</div></div></body></html>`;

const out = process.argv[2] ?? join(import.meta.dirname, "../docs/slack-message.png");
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
try {
  const tab = await browser.newPage({ viewport: { width: 680, height: 400 }, deviceScaleFactor: 2 });
  await tab.setContent(page);
  await tab.locator(".message").screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
}
