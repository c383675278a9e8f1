import { stripVTControlCharacters, styleText } from "node:util";
import { describe, expect, it } from "vitest";
import type { ObjectRecord, RevertResult } from "../../../../src/model/change-set.ts";
import { renderRevertText } from "../../../../src/report/revert/render-revert-text.ts";
import { revertExitCode } from "../../../../src/stages/revert/revert-exit-code.ts";

function result(resources: ObjectRecord[], dryRun = false): RevertResult {
  const summary = { created: 0, configured: 0, unchanged: 0, deleted: 0, deleting: 0, skipped: 0, failed: 0 };
  for (const r of resources) summary[r.action]++;
  return {
    target: "shop",
    revision: "abc",
    dryRun,
    wait: "dependencies",
    summary,
    resources,
    problems: [],
    stats: { requests: 1, durationMs: 1 },
  };
}

const web = { apiVersion: "apps/v1", kind: "Deployment", namespace: "shop", name: "web" };
const cm = { apiVersion: "v1", kind: "ConfigMap", namespace: "shop", name: "old" };

describe("the text of a revert", () => {
  it("prints a summary, then one line per object with its fields, takeovers, conflicts and health", () => {
    const text = renderRevertText(
      result([
        {
          ...web,
          action: "configured",
          changes: ["/spec/template/spec/containers/0/image"],
          takenFrom: ["kubectl-set"],
          health: { status: "not-ready", message: "1 of 3 replicas updated", waited: false },
        },
        { ...cm, action: "skipped", guard: "opted-out", reason: "opted out by annotation undrift.dev/prune: disabled" },
        {
          ...web,
          name: "api",
          action: "failed",
          reason: 'conflict: a field owned by "hpa"; force: true in the target takes them',
          conflicts: [{ field: ".spec.replicas", manager: "hpa" }],
        },
        { ...cm, name: "same", action: "unchanged", health: { status: "healthy", waited: false } },
      ]),
    );
    expect(text).toBe(`shop: 1 configured, 1 unchanged, 1 skipped, 1 failed
configured  apps/v1 Deployment shop/web
            fields: /spec/template/spec/containers/0/image
            taken over from: kubectl-set
            health: not ready: 1 of 3 replicas updated
skipped     v1 ConfigMap shop/old: opted out by annotation undrift.dev/prune: disabled
failed      apps/v1 Deployment shop/api: conflict: a field owned by "hpa"; force: true in the target takes them
            conflict: .spec.replicas owned by "hpa"
unchanged   v1 ConfigMap shop/same
`);
  });

  it("says when nothing was changed because it was a dry run", () => {
    expect(renderRevertText(result([{ ...cm, action: "deleted" }], true))).toMatch(
      /^shop \(dry run, nothing changed\): 1 deleted\n/,
    );
  });

  it("colours the actions only when told to, and the text is the same without the codes", () => {
    const records: ObjectRecord[] = [
      { ...web, action: "configured" },
      { ...cm, action: "deleted" },
      { ...cm, name: "kept", action: "skipped", guard: "opted-out", reason: "opted out" },
    ];
    const plain = renderRevertText(result(records));
    const coloured = renderRevertText(result(records), { color: true });
    expect(plain).not.toContain("\u001b[");
    expect(coloured).toContain(styleText("green", "configured  ", { validateStream: false }));
    expect(coloured).toContain(styleText("red", "deleted     ", { validateStream: false }));
    expect(coloured).toContain(styleText("yellow", "skipped     ", { validateStream: false }));
    expect(stripVTControlCharacters(coloured)).toBe(plain);
  });

  it("keeps control characters from the cluster out of the terminal", () => {
    const text = renderRevertText(
      result([{ ...cm, action: "failed", reason: "apply refused: \u001b[31mred\u001b[0m" }]),
    );
    expect(text).not.toContain("\u001b");
  });

  it("names the kubeconfig context and server written to in the summary line, when told them", () => {
    const cluster = { context: "kind-prod", server: "https://127.0.0.1:6443" };
    const text = renderRevertText(result([{ ...cm, action: "unchanged" }], true), { cluster });
    expect(text.split("\n")[0]).toBe(
      "shop (dry run, nothing changed): 1 unchanged (context kind-prod, server https://127.0.0.1:6443)",
    );
  });
});

describe("the exit code of a revert", () => {
  it("is 0 when everything asked for was done, orphans left because prune was not asked for included", () => {
    expect(
      revertExitCode(
        result([
          { ...web, action: "configured" },
          { ...cm, action: "skipped", guard: "not-requested" },
        ]),
      ),
    ).toBe(0);
  });

  it("is 0 when health was only reported, 1 when a wait for it ended badly", () => {
    const reported = { status: "not-ready", waited: false } as const;
    expect(revertExitCode(result([{ ...web, action: "created", health: reported }]))).toBe(0);
    const timedOut = { status: "timed-out", waited: true } as const;
    expect(revertExitCode(result([{ ...web, action: "created", health: timedOut }]))).toBe(1);
  });

  it("is 0 for an orphan opted out of prune, with --prune as without (the same situation, one exit code)", () => {
    expect(revertExitCode(result([{ ...cm, action: "skipped", guard: "opted-out" }]))).toBe(0);
    expect(revertExitCode(result([{ ...cm, action: "skipped", guard: "not-requested" }]))).toBe(0);
  });

  it("is 0 for an orphan another target declares, and for a prune a finalizer still holds", () => {
    expect(revertExitCode(result([{ ...cm, action: "skipped", guard: "declared-elsewhere" }]))).toBe(0);
    expect(revertExitCode(result([{ ...cm, action: "deleting", reason: "deletion pending" }]))).toBe(0);
  });

  it("is 1 while another target's objects are unknown", () => {
    expect(revertExitCode(result([{ ...cm, action: "skipped", guard: "others-unknown" }]))).toBe(1);
  });

  it("is 1 when an object failed or a prune was refused", () => {
    expect(revertExitCode(result([{ ...web, action: "failed" }]))).toBe(1);
    expect(revertExitCode(result([{ ...cm, action: "skipped", guard: "max-percent" }]))).toBe(1);
  });

  it("is 130 when a signal stopped it, whatever its records say (the shell's code for Ctrl-C)", () => {
    const interrupted = { ...result([{ ...web, action: "configured" }]), interrupted: true } as const;
    expect(revertExitCode(interrupted)).toBe(130);
  });
});
