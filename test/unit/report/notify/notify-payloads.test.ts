// What each channel kind is sent for a scan's report: Slack Block Kit, a Teams
// Adaptive Card, and the signed JSON of a generic webhook. Built from a real
// engine report with a Secret edited by hand, so that no Secret value, plain or
// base64, can reach any channel.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { buildReport } from "../../../../src/drift/build-report.ts";
import type { DriftReport } from "../../../../src/model/types.ts";
import { buildNotice } from "../../../../src/report/notify/build-notice.ts";
import type { Notice } from "../../../../src/report/notify/notice.ts";
import { slackMessage } from "../../../../src/report/notify/slack-message.ts";
import { teamsCard } from "../../../../src/report/notify/teams-card.ts";
import { verifyWebhook, webhookRequest } from "../../../../src/report/notify/webhook-body.ts";
import { compare, fixtureCase } from "../../drift/drift-fixtures.ts";

const base64 = (text: string) => Buffer.from(text).toString("base64");
const secrets = ["s3cret-pa55w0rd", "hunter2-hotfix", "shop-app"].flatMap((v) => [v, base64(v)]);

async function secretReport(): Promise<DriftReport> {
  const pair = fixtureCase("secret-edited");
  const comparison = await compare(pair);
  const report = buildReport({
    target: "shop",
    revision: "0c5f3e1a9b8c7d6e5f40312a9b8c7d6e5f403120",
    pairings: [
      {
        desired: { object: pair.desired, source: { file: "shop/secret.yaml", document: 0 } },
        live: pair.live,
        comparison,
      },
    ],
    problems: [],
  });
  // Who made the edit, as write-record attribution adds it.
  report.resources[0]!.changes[0]!.actor = {
    username: "alice",
    groups: ["sre", "system:authenticated"],
    at: "2026-11-30T10:21:09Z",
    confidence: "exact",
  };
  return report;
}

const links = {
  repository: "https://github.com/acme/gitops",
  check: "https://github.com/acme/gitops/runs/42",
  issue: "https://github.com/acme/gitops/issues/7",
};

async function notice(): Promise<Notice> {
  return buildNotice({
    event: "drift",
    repo: "acme/gitops",
    cluster: "prod-eu",
    report: await secretReport(),
    summary: "",
    links,
  });
}

describe("the notice of a scan", () => {
  it("names the target, cluster, counts, objects with their field paths and who changed them", async () => {
    const n = await notice();
    expect(n).toMatchObject({
      event: "drift",
      target: "shop",
      cluster: "prod-eu",
      counts: { drifted: 1, missing: 0, orphaned: 0 },
      objects: [
        { label: "v1 Secret shop/db-credentials", status: "drifted", fields: ["/data/password"], moreFields: 0 },
      ],
      actors: ["alice (sre)"],
    });
  });
});

describe("Slack", () => {
  it("is Block Kit: a header, the facts as fields, the objects, who, and buttons to act from", async () => {
    // Read back as the receiver parses it.
    const message = JSON.parse(JSON.stringify(slackMessage(await notice())));
    expect(message.text).toBe("Drift found: shop on prod-eu (1 drifted, 0 missing, 0 orphaned)");
    expect(message.blocks.map((b: { type: string }) => b.type)).toEqual([
      "header",
      "section",
      "section",
      "context",
      "actions",
    ]);
    expect(message.blocks[0]!.text).toEqual({ type: "plain_text", text: "Drift found: shop on prod-eu" });
    expect(message.blocks[1]!.fields.map((f: { text: string }) => f.text)).toEqual([
      "*Repository*\nacme/gitops",
      "*Target*\nshop",
      "*Cluster*\nprod-eu",
      "*Objects*\n1 drifted, 0 missing, 0 orphaned",
    ]);
    expect(message.blocks[2]!.text.text).toBe("• `v1 Secret shop/db-credentials` drifted: `/data/password`");
    expect(message.blocks[3]!.elements[0].text).toBe("Changed by alice (sre)");
    expect(
      message.blocks[4]!.elements.map((e: { text: { text: string }; url: string }) => [e.text.text, e.url]),
    ).toEqual([
      ["Tracking issue", links.issue],
      ["Check run", links.check],
      ["Repository", links.repository],
    ]);
  });

  it("escapes cluster text so it cannot mention a channel or forge a link", async () => {
    const n = await notice();
    n.objects[0]!.label = "v1 ConfigMap shop/<!channel>";
    const text = JSON.stringify(slackMessage(n));
    expect(text).not.toContain("<!channel>");
    expect(text).toContain("&lt;!channel&gt;");
  });
});

describe("Teams", () => {
  it("is one Adaptive Card with the facts and open-URL actions", async () => {
    const body = JSON.parse(JSON.stringify(teamsCard(await notice())));
    expect(body.type).toBe("message");
    expect(body.attachments).toHaveLength(1);
    const { contentType, content } = body.attachments[0]!;
    expect(contentType).toBe("application/vnd.microsoft.card.adaptive");
    expect(content).toMatchObject({ type: "AdaptiveCard", version: "1.4" });
    expect(content.body[0]).toMatchObject({
      type: "TextBlock",
      text: "Drift found: shop on prod-eu",
      weight: "Bolder",
    });
    expect(content.body[1].facts).toContainEqual({ title: "Changed by", value: "alice (sre)" });
    expect(content.actions).toContainEqual({ type: "Action.OpenUrl", title: "Tracking issue", url: links.issue });
  });
});

describe("the generic webhook", () => {
  it("signs timestamp.body with HMAC-SHA256 as GitHub does, and a receiver refuses a replay", async () => {
    const now = new Date("2026-12-02T12:00:00Z");
    const { body, headers } = webhookRequest({ notice: await notice(), delivery: "n-abc", secret: "shh", now });
    expect(headers["x-undrift-timestamp"]).toBe("1796212800");
    const expected = createHmac("sha256", "shh").update(`1796212800.${body}`).digest("hex");
    expect(headers["x-undrift-signature-256"]).toBe(`sha256=${expected}`);
    expect(headers["x-undrift-event"]).toBe("drift");
    expect(JSON.parse(body)).toMatchObject({ version: 1, delivery: "n-abc", event: "drift", target: "shop" });
    const check = {
      secret: "shh",
      body,
      timestamp: headers["x-undrift-timestamp"]!,
      signature: headers["x-undrift-signature-256"]!,
    };
    expect(verifyWebhook({ ...check, now })).toBe(true);
    expect(verifyWebhook({ ...check, now: new Date(now.getTime() + 600_000) })).toBe(false);
    expect(verifyWebhook({ ...check, body: body.replace("shop", "shoq"), now })).toBe(false);
    expect(verifyWebhook({ ...check, secret: "other", now })).toBe(false);
  });
});

describe("a drifted Secret", () => {
  it("never reaches any channel, plain or base64", async () => {
    const n = await notice();
    const sent = [
      JSON.stringify(slackMessage(n)),
      JSON.stringify(teamsCard(n)),
      webhookRequest({ notice: n, delivery: "n-1", secret: "k" }).body,
    ];
    for (const text of sent) for (const value of secrets) expect(text).not.toContain(value);
  });
});
