// A drift PR retitled in place with the new drift's title and body (and moved
// to the base branch the config names now): after a scan that found other
// drift, and after an open whose answer was lost but whose PR exists.
import type { Writes } from "./github-writes.ts";

export interface UpdateDriftPrParams {
  writes: Writes;
  number: number;
  title: string;
  /** The body with its marker. */
  body: string;
  /** The base branch to move the PR to; absent keeps its base. */
  base?: string | undefined;
  /** The update finishes an open already recorded (openDriftPr's recovery): it is sent without a record of its own. */
  partOfOpen?: boolean;
}

export async function updateDriftPr(params: UpdateDriftPrParams): Promise<void> {
  const { writes, number } = params;
  const values = {
    pull_number: number,
    title: params.title,
    body: params.body,
    ...(params.base === undefined ? {} : { base: params.base }),
  };
  const route = "PATCH /repos/{owner}/{repo}/pulls/{pull_number}";
  const step = `update pull request #${number}`;
  if (params.partOfOpen) await writes.send(route, values, step);
  else await writes.request(route, values, { summary: step });
}
