// A dashboard job that failed for good: one comment on the tracking issue
// saying whose request failed and why, so the writer is not left waiting on a
// ticked box; the failure is audited too.
import { replyOnIssue } from "../../github/reply-on-issue.ts";
import { clip, oneLine } from "../../model/one-line.ts";
import type { DashboardJob } from "../../queue/jobs.ts";
import { recordAudit } from "../../state/record-audit.ts";
import type { WorkerDeps } from "../worker-deps.ts";

export async function reportDashboardFailure(params: {
  deps: WorkerDeps;
  job: DashboardJob;
  error: Error;
}): Promise<void> {
  const { deps, job, error } = params;
  const [owner = "", repo = ""] = job.repo.split("/");
  const why = clip(oneLine(error.message), 400);
  const octokit = await deps.probot.auth(job.installationId);
  const asked = job.boxes.map((b) => b.action).join(", ");
  await replyOnIssue({
    octokit,
    owner,
    repo,
    number: job.issue,
    body: `@${job.requestedBy}: undrift could not do what the ticked boxes ask (${asked}): ${why}`,
    step: `report the failed dashboard job on #${job.issue}`,
  });
  await recordAudit({
    queues: deps.queues,
    log: deps.log,
    entry: {
      event: "dashboard-failed",
      repo: job.repo,
      target: job.target,
      cluster: job.cluster,
      actor: job.requestedBy,
      outcome: `${asked} failed: ${why}`,
    },
  });
}
