// Holds GitHub's answer to one request while a test breaks something under the
// app (restarts Redis, kills a worker): GitHub has acted on the request, the
// app has not heard back. Wraps a GitHubMock, so fakeRepo's calls can be held.
//
//   const held = holdReply(github, (call) => call.method === "POST" && call.path.endsWith("/pulls"));
//   const gh = fakeRepo({ github: held.github, head });
//   await held.reached; /* break something */ held.release();
import type { ExpectedCall, GitHubMock, LoggedRequest } from "./github-mock.ts";
import { gate } from "./redis.ts";

export interface HeldReply {
  /** The mock to declare calls on; the first request of a call that `match`es is held. */
  github: GitHubMock;
  /** Resolves with the held request once GitHub has acted on it. */
  reached: Promise<LoggedRequest>;
  /** Lets GitHub's answer go. */
  release(): void;
}

export function holdReply(github: GitHubMock, match: (call: ExpectedCall) => boolean): HeldReply {
  const released = gate();
  let reach!: (request: LoggedRequest) => void;
  const reached = new Promise<LoggedRequest>((resolve) => {
    reach = resolve;
  });
  let holding = true;
  const hold = async (request: LoggedRequest) => {
    if (!holding) return;
    holding = false;
    reach(request);
    await released.promise;
  };
  return {
    github: { ...github, expect: (call) => github.expect(match(call) ? { ...call, hold } : call) },
    reached,
    release: () => released.open(),
  };
}
