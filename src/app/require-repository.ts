// A delivery about one repository (push, pull_request, issue_comment, issues)
// whose `repository` is not one: GitHub never sends it, but a correctly signed
// one (a replay tool, a proxy that rewrote the body) would otherwise fail with
// a TypeError and a 500, which GitHub retries and a person reads as our bug.
// It is refused with 400 and the reason, before the delivery is claimed.
import { UndriftError } from "../model/undrift-error.ts";

/** A delivery that cannot be acted on as sent; `status` is the HTTP answer @octokit/webhooks' middleware gives. */
export class WebhookPayloadError extends UndriftError {
  override name = "WebhookPayloadError";
  readonly permanent = true;
  readonly status = 400;
}

/** What Probot's context carries that this reads. */
interface RepositoryContext {
  id: string;
  name: string;
  payload: object;
}

/** Wraps the handler of an event about one repository: a delivery without a whole `repository` gets 400. */
export function requireRepository<C extends RepositoryContext>(run: (context: C) => Promise<void>) {
  return async (context: C): Promise<void> => {
    const why = repositoryProblem((context.payload as { repository?: unknown }).repository);
    if (why) throw new WebhookPayloadError(`${context.name} delivery ${context.id}: ${why}`);
    await run(context);
  };
}

// The fields the handlers read: the repository's name, its owner's login, and `full_name` (a push's owner).
function repositoryProblem(repository: unknown): string | undefined {
  if (typeof repository !== "object" || repository === null) {
    return `payload.repository is ${repository === null ? "null" : typeof repository}; this event names the repository it is about`;
  }
  const { name, full_name, owner } = repository as { name?: unknown; full_name?: unknown; owner?: { login?: unknown } };
  if (typeof name !== "string") return "payload.repository.name is not a string";
  if (typeof full_name !== "string") return "payload.repository.full_name is not a string";
  if (typeof owner?.login !== "string") return "payload.repository.owner.login is not a string";
  return undefined;
}
