// The last step of GitHub's manifest flow (server/app-setup.ts): the one-time
// code GitHub hands back converts to the new app's credentials. Asked without
// credentials (there are none yet), so with a bare client, not the app's.
import { ProbotOctokit } from "probot";

/** The new app's id, slug, pem, webhook secret and OAuth client; `api` is the REST root (GHES: `…/api/v3`). */
export async function convertAppManifest(params: { api: string; code: string }) {
  const octokit = new ProbotOctokit({ baseUrl: params.api });
  const { data } = await octokit.request("POST /app-manifests/{code}/conversions", { code: params.code });
  return data;
}
