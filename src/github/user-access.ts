// What a signed-in person may see on the status page, asked of GitHub with
// their own token, never the App's: who they are, the App's installations they
// can reach, and an installation's repositories they can read.
import { Octokit } from "octokit";

export interface UserAccess {
  login(): Promise<string>;
  installations(): Promise<Array<{ id: number; account: string }>>;
  /** The readable repositories (`owner/name`, lowercased), or undefined when the installation is not theirs to see. */
  repositories(installationId: number): Promise<{ account?: string; repos: Set<string> } | undefined>;
}

export function userAccess(params: { token: string; baseUrl: string }): UserAccess {
  const octokit = new Octokit({
    auth: params.token,
    baseUrl: params.baseUrl,
    // A page load waits on these; a failure shows as an error page, and the person reloads.
    retry: { enabled: false },
    throttle: { enabled: false },
  });
  return {
    async login() {
      return (await octokit.request("GET /user")).data.login;
    },
    async installations() {
      const all = await octokit.paginate("GET /user/installations", { per_page: 100 });
      return all.map((i) => ({
        id: i.id,
        account: i.account && "login" in i.account ? i.account.login : String(i.id),
      }));
    },
    async repositories(installationId) {
      try {
        const repos = await octokit.paginate("GET /user/installations/{installation_id}/repositories", {
          installation_id: installationId,
          per_page: 100,
        });
        return {
          ...(repos[0] ? { account: repos[0].owner.login } : {}),
          repos: new Set(repos.map((r) => r.full_name.toLowerCase())),
        };
      } catch (error) {
        // GitHub answers 403 or 404 for an installation the person has no access to.
        const status = (error as { status?: number }).status;
        if (status === 403 || status === 404) return undefined;
        throw error;
      }
    },
  };
}
