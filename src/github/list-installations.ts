// Where the app is installed, every page of it: the app's installations (asked
// as the app) and one installation's repositories (asked as that installation),
// for the resync at boot and an installation whose payload left its repositories out.
import type { ProbotOctokit } from "probot";

/** Every installation of the app; `appOctokit` is `probot.auth()`'s, authenticated as the app. */
export function listInstallations(appOctokit: ProbotOctokit) {
  return appOctokit.paginate("GET /app/installations", { per_page: 100 });
}

/** Every repository the installation `octokit` is authenticated as may reach. */
export function listInstallationRepositories(octokit: ProbotOctokit) {
  return octokit.paginate("GET /installation/repositories", { per_page: 100 });
}
