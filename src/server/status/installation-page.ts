// One installation's status page for one person: the repositories their own
// token can read (GitHub's answer, asked on every load so a revoked access
// shows at once), and of the installation's recorded targets only those.
import type { Redis } from "ioredis";
import type { UserAccess } from "../../github/user-access.ts";
import { html } from "../../report/status/html.ts";
import { renderStatusPage } from "../../report/status/render-status-page.ts";
import { renderNotice } from "../../report/status/status-layout.ts";
import { statusHistory } from "../../state/status-history.ts";

export async function installationPage(params: {
  installationId: number;
  login: string;
  access: UserAccess;
  redis: Redis;
  prefix: string;
  githubWeb: string;
}): Promise<{ status: number; body: string }> {
  const { installationId, login } = params;
  const readable = await params.access.repositories(installationId);
  if (!readable) {
    return {
      status: 404,
      body: renderNotice({
        title: "No such installation",
        login,
        paragraphs: [
          "undrift is not installed there, or you cannot read any of its repositories.",
          html`<a href="/status">See your installations</a>`,
        ],
      }),
    };
  }
  const rows = await statusHistory({ redis: params.redis, prefix: params.prefix }).read({ installationId });
  const visible = rows.filter((row) => readable.repos.has(row.status.repo.toLowerCase()));
  return {
    status: 200,
    body: renderStatusPage({
      login,
      account: readable.account ?? `installation ${installationId}`,
      rows: visible,
      githubWeb: params.githubWeb,
    }),
  };
}
