// `undrift revert --wait` as a person at a terminal meets it, against the test
// cluster, on a Deployment whose pods kwok keeps unready (so the wait would last
// the target's whole ten-minute timeout): on a terminal a progress line says what
// it waits for; Ctrl-C (or SIGTERM) stops it with the report of what it applied
// and exit code 130; on a pipe stderr carries nothing but the one line saying it
// was interrupted.
import { afterEach, describe, expect, it } from "vitest";
import type { RevertResult } from "../../src/model/change-set.ts";
import { startUndrift } from "../helpers/cli-process.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { eventually } from "../helpers/controllers.ts";
import { unreadyWebDeployment } from "../helpers/manifests.ts";
import { giveOwnNode } from "../helpers/own-node.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

let current: Scenario | undefined;
afterEach(() => current?.cleanup());

const settings = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  LOG_LEVEL: info
`;

/** A target of the never-ready Deployment and a ConfigMap, its namespace made, and `revert --wait` started. */
async function startRevert(flags: string[], options: { tty?: boolean } = {}) {
  current = scenario({
    files: { "manifests/web.yaml": unreadyWebDeployment, "manifests/settings.yaml": settings },
    target: { timeout: "10m" },
  });
  const s = current;
  await kubectl(["create", "namespace", s.namespace]);
  await giveOwnNode(s.namespace);
  const args = ["revert", "--repo", s.repoDir, "--target", s.target, "--kubeconfig", kubeconfigPath(), "--wait"];
  return { s, cli: startUndrift([...args, ...flags], options) };
}

/** Resolves once the revert's apply is in the cluster, as kubectl sees it. */
function applied(s: Scenario): Promise<string> {
  return eventually("the revert to create the Deployment", async () => {
    const name = await kubectl(["-n", s.namespace, "get", "deployment", "web", "-o", "name"]);
    return name.trim() || undefined;
  });
}

describe("interrupting revert --wait", () => {
  it("on SIGINT stops waiting, prints what it applied with the wait marked interrupted, and exits 130", async () => {
    const { s, cli } = await startRevert([]);
    await applied(s);
    cli.child.kill("SIGINT");
    expect(await cli.exited).toBe(130);

    const out = cli.stdout();
    expect(out).toMatch(new RegExp(`^created {2,}apps/v1 Deployment ${s.namespace}/web$`, "m"));
    expect(out).toMatch(new RegExp(`^created {2,}v1 ConfigMap ${s.namespace}/settings$`, "m"));
    expect(out).toMatch(/^ +health: not ready: interrupted while waiting: .+$/m);
    // On a pipe: no progress line, no terminal codes, only the line that says what happened.
    expect(cli.stderr()).toBe(
      "interrupted by SIGINT: stopping after the applies in flight; the report follows (SIGINT again quits at once)\n",
    );
    // What was applied stays applied: an interrupt stops undrift, not the rollout.
    expect(await kubectl(["-n", s.namespace, "get", "configmap", "settings", "-o", "name"])).toContain("settings");
  }, 150_000);

  it("on SIGTERM with --output json prints the JSON report of what it applied, saying it was interrupted", async () => {
    const { s, cli } = await startRevert(["--output", "json"]);
    await applied(s);
    cli.child.kill("SIGTERM");
    expect(await cli.exited).toBe(130);

    const report = JSON.parse(cli.stdout()) as RevertResult;
    expect(report.interrupted).toBe(true);
    expect(report.summary.created).toBe(2);
    const web = report.resources.find((r) => r.kind === "Deployment");
    expect(web).toMatchObject({ action: "created", health: { status: "not-ready", waited: true } });
    expect(web?.health?.message).toMatch(/^interrupted while waiting: /);
    expect(cli.stderr()).toMatch(/^interrupted by SIGTERM: [^\n]+\n$/);
  }, 150_000);

  it("on a terminal shows what it waits for on one line redrawn in place, and Ctrl-C erases it before the report", async () => {
    const { s, cli } = await startRevert([], { tty: true });
    const progress = "waiting for 1 of 2 (";
    // What a person sees: the wait's line (after two seconds of the first step; later steps at once).
    await cli.until("the progress line", (out) => out.includes(progress));
    cli.child.stdin!.write("\x03");
    expect(await cli.exited).toBe(130);

    const transcript = cli.stdout();
    const erase = "\r\x1b[2K";
    const draws = transcript.split(erase).slice(1);
    const waits = draws.filter((d) => d.startsWith(progress));
    expect(waits[0]).toMatch(new RegExp(`^waiting for 1 of 2 \\(\\d+s\\): Deployment ${s.namespace}/web \\(.+`));
    // Redrawn in place: no draw ends its line, so nothing of it stays in the scrollback.
    for (const draw of draws.slice(0, -1)) expect(draw).not.toContain("\n");
    // Erased before anything else is printed: the interrupt line and the report follow the last erase.
    const after = draws.at(-1)!;
    expect(after).toMatch(/^interrupted by SIGINT: stopping after the applies in flight/);
    // The terminal turns \n into \r\n.
    expect(after).toMatch(new RegExp(`\\r\\ncreated {2,}apps/v1 Deployment ${s.namespace}/web\\r\\n`));
    expect(after).toMatch(/ +health: not ready: interrupted while waiting: /);
  }, 150_000);
});
