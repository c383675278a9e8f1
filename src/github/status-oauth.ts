// Sign-in with GitHub for the status pages (server/status/) through the App's OAuth client, with octokit's OAuthApp:
// the authorize URL and the code's exchange both follow the API root (GHE_HOST,
// GHE_PROTOCOL), so GitHub Enterprise Server, or a test's loopback stand-in, serves them.
import { OAuthApp, Octokit } from "octokit";

export interface StatusOAuth {
  authorizeUrl(params: { state: string; redirectUrl: string }): string;
  /** The user's token for `code`, and how long it lives when it expires (a GitHub App's user tokens do). */
  exchange(params: { code: string; redirectUrl: string }): Promise<{ token: string; expiresInSeconds?: number }>;
}

/** The two methods used, typed for a GitHub App's client: octokit's own OAuthApp type fixes `clientType` to "oauth-app". */
interface GitHubAppOAuth {
  getWebFlowAuthorizationUrl(options: { state: string; redirectUrl: string }): { url: string };
  createToken(options: {
    code: string;
    redirectUrl: string;
  }): Promise<{ authentication: { token: string; expiresAt?: string } }>;
}

export function statusOAuth(params: { clientId: string; clientSecret: string; githubApi: string }): StatusOAuth {
  const app = new OAuthApp({
    clientType: "github-app",
    clientId: params.clientId,
    clientSecret: params.clientSecret,
    // Its requests' base decides the OAuth host: github.com for api.github.com, else the root without /api/v3.
    Octokit: Octokit.defaults({ baseUrl: params.githubApi, retry: { enabled: false }, throttle: { enabled: false } }),
  }) as unknown as GitHubAppOAuth;
  return {
    authorizeUrl: ({ state, redirectUrl }) => app.getWebFlowAuthorizationUrl({ state, redirectUrl }).url,
    async exchange({ code, redirectUrl }) {
      const { authentication } = await app.createToken({ code, redirectUrl });
      const { expiresAt } = authentication;
      const seconds = expiresAt ? Math.floor((Date.parse(expiresAt) - Date.now()) / 1000) : undefined;
      return { token: authentication.token, ...(seconds !== undefined ? { expiresInSeconds: seconds } : {}) };
    },
  };
}
