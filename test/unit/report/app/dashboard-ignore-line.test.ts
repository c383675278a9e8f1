// The dashboard line of an ignore tick: first "being prepared", then, once the
// ignore job is done, the pull request it opened or updated, in the issue too.
import { describe, expect, it } from "vitest";
import { addLogLines, LOG_MARKER, replaceLogLine } from "../../../../src/report/app/dashboard-boxes.ts";
import { ignoreTickLine } from "../../../../src/report/app/dashboard-ignore-line.ts";

const items = [{ apiVersion: "v1", kind: "ConfigMap", namespace: "shop", name: "app-config", path: "/data/LOG_LEVEL" }];
const pending = ignoreTickLine({ requestedBy: "bob", items });

describe("an ignore tick's dashboard line", () => {
  it("says the pull request is being prepared while its job runs", () => {
    expect(pending).toBe(
      "@bob asked to ignore `v1 ConfigMap shop/app-config` `/data/LOG_LEVEL` → the ignore pull request is being prepared",
    );
  });

  it("names the pull request the job opened or updated, or says why there is none", () => {
    const url = "https://github.com/acme/gitops/pull/7";
    expect(ignoreTickLine({ requestedBy: "bob", items, outcome: { number: 7, url, lines: [] } })).toBe(
      `@bob asked to ignore \`v1 ConfigMap shop/app-config\` \`/data/LOG_LEVEL\` → #7 ${url}`,
    );
    expect(
      ignoreTickLine({ requestedBy: "bob", items, outcome: { lines: ["Not ignored: the object is missing"] } }),
    ).toBe(
      "@bob asked to ignore `v1 ConfigMap shop/app-config` `/data/LOG_LEVEL`: no pull request (Not ignored: the object is missing)",
    );
  });

  it("is rewritten in the issue where the tick wrote it, and nowhere else", () => {
    const other = "@alice asked for a rescan → scan queued";
    const body = addLogLines(`intro\n\n${LOG_MARKER}`, [other, pending]);
    const done = ignoreTickLine({ requestedBy: "bob", items, outcome: { number: 7, lines: [] } });
    expect(replaceLogLine(body, pending, done)).toBe(addLogLines(`intro\n\n${LOG_MARKER}`, [other, done]));
    expect(replaceLogLine(body, "@carol asked to ignore something else", done)).toBe(body);
  });
});
