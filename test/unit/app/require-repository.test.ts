// A signed delivery about a repository that names none is refused with 400 and why, through Probot's own webhook
// middleware (signature checked, then the handler), before any handler reads it: not a 500 with a TypeError.
import { createHmac, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { pino } from "pino";
import { createNodeMiddleware, Probot } from "probot";
import { afterEach, describe, expect, it } from "vitest";
import { requireRepository } from "../../../src/app/require-repository.ts";
import { pushPayload } from "../../helpers/app-payloads.ts";
import { appPrivateKey } from "../../helpers/app-process-setup.ts";

const secret = "undrift-unit-secret";
const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** The middleware of a Probot app whose push handler is wrapped; returns a signed POST and the pushes handled. */
async function app() {
  const handled: string[] = [];
  const probot = new Probot({ appId: 1, privateKey: appPrivateKey(), secret, log: pino({ level: "silent" }) });
  const middleware = await createNodeMiddleware(
    (a: Probot) => {
      a.on(
        "push",
        requireRepository(async (context) => {
          handled.push(context.payload.repository.full_name);
        }),
      );
    },
    { probot },
  );
  const server = createServer((req, res) => middleware(req, res, () => res.writeHead(404).end()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => server.close());
  const { port } = server.address() as { port: number };
  const deliver = async (payload: object, id: string = randomUUID()) => {
    const body = JSON.stringify(payload);
    const response = await fetch(`http://127.0.0.1:${port}/api/github/webhooks`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-github-event": "push",
        "x-github-delivery": id,
        "x-hub-signature-256": `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`,
      },
      body,
    });
    return { status: response.status, body: await response.text() };
  };
  return { deliver, handled };
}

const push = () =>
  pushPayload({ owner: "acme", repo: "gitops", installationId: 7 }, { before: "a".repeat(40), after: "b".repeat(40) });

describe("a signed delivery about a repository", () => {
  it("is refused with 400 and the reason when its repository is null", async () => {
    const { deliver, handled } = await app();
    const answer = await deliver({ ...push(), repository: null }, "d-1");
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({
      error:
        "WebhookPayloadError: push delivery d-1: payload.repository is null; this event names the repository it is about",
    });
    expect(handled).toEqual([]);
  });

  it("is refused with 400 naming the field when the repository lacks one the handlers read", async () => {
    const { deliver } = await app();
    const payload = push();
    delete (payload.repository as Record<string, unknown>).full_name;
    const answer = await deliver(payload, "d-2");
    expect(answer).toEqual({
      status: 400,
      body: JSON.stringify({
        error: "WebhookPayloadError: push delivery d-2: payload.repository.full_name is not a string",
      }),
    });
  });

  it("reaches the handler when the repository is whole", async () => {
    const { deliver, handled } = await app();
    expect((await deliver(push())).status).toBe(200);
    expect(handled).toEqual(["acme/gitops"]);
  });
});
