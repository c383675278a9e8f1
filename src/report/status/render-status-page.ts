// The status page of one installation, rendered on the server: a chart of the
// objects out of sync per target over 14 days (drawn by uPlot from the JSON
// the page carries), then a row per target with its state, last scan and
// links, and under a target out of sync its objects with who changed which
// field and when. Names, paths and managers only: the records hold no value.
import { objectName } from "../../model/object-label.ts";
import { type Html, html, safeHref, scriptJson } from "./html.ts";
import { statusLayout } from "./status-layout.ts";
import { driftCount, type StatusObject, type TargetHistory, type TargetStatus } from "./status-summary.ts";

export function renderStatusPage(params: {
  login: string;
  account: string;
  rows: readonly TargetHistory[];
  /** The GitHub web root (`https://github.com`, or the Enterprise server's): check runs are linked there. */
  githubWeb: string;
}): string {
  const { rows } = params;
  const chart = {
    series: rows.map((r) => ({ label: `${r.status.repo} ${r.status.target}`, points: r.points })),
  };
  const body = html`
    <section class="chart">
      <h2>Objects out of sync, last 14 days</h2>
      <div id="chart" aria-label="objects out of sync per target over the last 14 days"></div>
      <script type="application/json" id="chart-data">${scriptJson(chart)}</script>
    </section>
    <section>
      <h2>Targets</h2>
      ${
        rows.length === 0
          ? html`<p class="empty">No scans recorded yet for the repositories you can read.</p>`
          : html`<table class="targets">
        <thead><tr><th>Repository</th><th>Target</th><th>Cluster</th><th>State</th><th>Last scan</th><th>Links</th></tr></thead>
        ${rows.map((r) => targetRows(r.status, params.githubWeb))}
      </table>`
      }
    </section>`;
  return statusLayout({ title: `undrift · ${params.account}`, login: params.login, body, chart: true });
}

function targetRows(status: TargetStatus, githubWeb: string): Html {
  const count = driftCount(status);
  const { drifted, missing, orphaned } = status.counts;
  const detail = [
    drifted ? `${drifted} drifted` : "",
    missing ? `${missing} missing` : "",
    orphaned ? `${orphaned} orphaned` : "",
  ].filter(Boolean);
  return html`<tbody class="target state-${status.state}" data-target="${status.repo} ${status.target}">
    <tr>
      <td><a href="${`${githubWeb}/${status.repo}`}">${status.repo}</a></td>
      <td>${status.target}</td>
      <td>${status.cluster}</td>
      <td><span class="state">${status.state}</span>${detail.length > 0 ? html` <span class="counts">${detail.join(", ")}</span>` : ""}</td>
      <td>${status.scannedAt ? time(status.scannedAt) : "never"}</td>
      <td class="links">${links(status, githubWeb)}</td>
    </tr>
    ${status.failure ? html`<tr class="failure"><td colspan="6">Last scan failed at ${time(status.failure.at)}: ${status.failure.message}</td></tr>` : ""}
    ${
      count > 0 && status.objects.length > 0
        ? html`<tr class="objects"><td colspan="6"><ul>${status.objects.map(objectItem)}${
            status.moreObjects > 0 ? html`<li>and ${status.moreObjects} more (see the tracking issue)</li>` : ""
          }</ul></td></tr>`
        : ""
    }
  </tbody>`;
}

function links(status: TargetStatus, githubWeb: string): Html {
  const issue = safeHref(status.links.issue);
  const pr = safeHref(status.links.pr);
  return html`${issue ? html`<a href="${issue}">tracking issue</a>` : ""}${
    pr ? html`<a href="${pr}">pull request</a>` : ""
  }${status.revision ? html`<a href="${`${githubWeb}/${status.repo}/commit/${status.revision}/checks`}">check run</a>` : ""}`;
}

function objectItem(object: StatusObject): Html {
  const name = `${object.kind} ${objectName({ name: object.name, ...(object.namespace ? { namespace: object.namespace } : {}) })}`;
  return html`<li class="object"><span class="object-name">${name}</span> <span class="status">${object.status}</span>${
    object.deletedBy ? html` deleted by <span class="person">${object.deletedBy}</span>` : ""
  }${
    object.changes.length > 0
      ? html`<ul>${object.changes.map(
          (c) =>
            html`<li class="change"><code>${c.path}</code>${
              c.by
                ? html` changed by <span class="person">${c.by}</span>${c.manager ? html` with <span class="manager">${c.manager}</span>` : ""}`
                : c.manager
                  ? html` changed by <span class="manager">${c.manager}</span>`
                  : ""
            }${c.changedAt ? html` at ${time(c.changedAt)}` : ""}</li>`,
        )}${object.moreChanges > 0 ? html`<li>and ${object.moreChanges} more fields</li>` : ""}</ul>`
      : ""
  }</li>`;
}

/** A time as people read it in UTC, with the exact instant in `datetime`. */
function time(iso: string): Html {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return html`${iso}`;
  return html`<time datetime="${at.toISOString()}">${at.toISOString().slice(0, 16).replace("T", " ")} UTC</time>`;
}
