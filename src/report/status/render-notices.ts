// The status page's small pages: turned off (and how to turn it on), and the
// installations a signed-in person can choose from.
import { html } from "./html.ts";
import { renderNotice } from "./status-layout.ts";

/** What an operator reads at /status while GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET are unset. */
export function offPage(baseUrl: string): string {
  return renderNotice({
    title: "undrift status page is off",
    paragraphs: [
      "The status page needs sign-in with GitHub, and the server has no OAuth client configured.",
      html`To turn it on: in the GitHub App's settings, generate a client secret and set the callback URL to
        <code>${baseUrl}/status/callback</code>; then start the server with <code>GITHUB_CLIENT_ID</code> and
        <code>GITHUB_CLIENT_SECRET</code> set (and <code>UNDRIFT_BASE_URL</code> to the address people use).`,
      html`See <code>docs/status-page.md</code> in undrift's repository.`,
    ],
  });
}

export function renderInstallations(params: {
  login: string;
  installations: ReadonlyArray<{ id: number; account: string }>;
}): string {
  const { installations } = params;
  return renderNotice({
    title: "undrift status",
    login: params.login,
    paragraphs:
      installations.length === 0
        ? ["undrift is not installed on any account whose repositories you can read."]
        : [
            "Choose an installation:",
            html`<ul class="installations">${installations.map(
              (i) => html`<li><a href="${`/status/${i.id}`}">${i.account}</a></li>`,
            )}</ul>`,
          ],
  });
}
