// A client whose GETs are conditional: each response's ETag and body are kept
// per URL, the next GET of that URL sends If-None-Match, and a 304 is answered
// from the kept body. GitHub does not count a 304 against the rate limit, so
// the lookups of a scan that finds nothing new (check run, tracking issue,
// drift PR) cost nothing, while anything that did change is read fresh.
//
//   const octokit = withConditionalGets({ octokit: context.octokit, store });
//   await ensureDriftPr({ octokit, ... });
import type { GitHubClient } from "./github-client.ts";
import { statusOf } from "./github-errors.ts";
import type { KeyValueStore } from "./key-value-store.ts";

export interface ConditionalGetsParams {
  octokit: GitHubClient;
  store: KeyValueStore;
  /** Larger responses are not kept (a page of issues with long bodies); they are simply read again. */
  maxBodyBytes?: number;
}

interface Kept {
  etag: string;
  data: unknown;
}

type Request = GitHubClient["request"];

export function withConditionalGets(params: ConditionalGetsParams): GitHubClient {
  const { octokit, store } = params;
  // The typed overloads cannot take a route known only at run time; this is the same function, untyped.
  const resolve = octokit.request.endpoint as unknown as (
    route: string,
    options: object,
  ) => { method: string; url: string };
  const maxBodyBytes = params.maxBodyBytes ?? 1024 * 1024;
  const conditional = async (route: string, options: Record<string, unknown> = {}) => {
    const endpoint = resolve(route, options);
    const headers = (options.headers ?? {}) as Record<string, string>;
    const streamed =
      (options.request as { parseSuccessResponseBody?: boolean } | undefined)?.parseSuccessResponseBody === false;
    // Writes, streamed downloads and requests that bring their own validator pass through untouched.
    if (endpoint.method !== "GET" || streamed || headers["if-none-match"])
      return octokit.request(route as never, options as never);
    const key = `undrift:etag:${endpoint.url}`;
    const raw = await store.get(key);
    const kept = raw ? (JSON.parse(raw) as Kept) : undefined;
    try {
      const response = await octokit.request(
        route as never,
        {
          ...options,
          headers: { ...headers, ...(kept ? { "if-none-match": kept.etag } : {}) },
        } as never,
      );
      const etag = (response as { headers: Record<string, string | undefined> }).headers.etag;
      const text = etag
        ? JSON.stringify({ etag, data: (response as { data: unknown }).data } satisfies Kept)
        : undefined;
      if (text && text.length <= maxBodyBytes) await store.set(key, text);
      return response;
    } catch (error) {
      if (statusOf(error) !== 304 || !kept) throw error;
      const answered = (error as { response?: { headers?: Record<string, string> } }).response?.headers ?? {};
      return { status: 200, url: endpoint.url, headers: { ...answered, etag: kept.etag }, data: kept.data };
    }
  };
  // `request` keeps Octokit's typed signature and its `defaults`/`endpoint` helpers; only the call is wrapped.
  const request = Object.assign(conditional, {
    defaults: octokit.request.defaults,
    endpoint: octokit.request.endpoint,
  }) as unknown as Request;
  return { request };
}
