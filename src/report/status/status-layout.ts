// The frame every status page shares: the title, who is signed in with a sign-out
// button, the stylesheet, and (for the page with a chart) uPlot and status.js,
// all from the app's own /status/assets/: the Content-Security-Policy allows no
// inline script and no other origin.
import { type Html, html } from "./html.ts";

/** Where the app serves the page's script, stylesheet and uPlot. */
export const ASSETS_PATH = "/status/assets";

export function statusLayout(params: { title: string; login?: string; body: Html; chart?: boolean }): string {
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${params.title}</title>
${params.chart ? html`<link rel="stylesheet" href="${ASSETS_PATH}/uPlot.min.css">` : ""}
<link rel="stylesheet" href="${ASSETS_PATH}/status.css">
${params.chart ? html`<script src="${ASSETS_PATH}/uPlot.iife.min.js" defer></script><script src="${ASSETS_PATH}/status.js" defer></script>` : ""}
</head>
<body>
<header>
  <h1>${params.title}</h1>
  ${
    params.login
      ? html`<form method="post" action="/status/logout" class="who">Signed in as <strong class="login">${params.login}</strong> <button type="submit">Sign out</button></form>`
      : ""
  }
</header>
<main>${params.body}</main>
</body>
</html>
`;
  return page.text;
}

/** A page of a few paragraphs: the page turned off, no access, the installations to choose from. */
export function renderNotice(params: { title: string; login?: string; paragraphs: Array<Html | string> }): string {
  return statusLayout({
    title: params.title,
    ...(params.login ? { login: params.login } : {}),
    body: html`<section class="notice">${params.paragraphs.map((p) => html`<p>${p}</p>`)}</section>`,
  });
}
