// Signed-in people of the status page: a random session id (the cookie carries
// it, signed) names a Redis record with the person's login and their GitHub
// token, which the page uses to check what they can read. The record expires
// with the token (8 hours for a GitHub App's user token) or sooner; signing out deletes it.
import { createHash, randomBytes } from "node:crypto";
import type { Redis } from "ioredis";

export interface StatusSession {
  login: string;
  token: string;
}

/** The longest a session lives, whatever the token's own expiry. */
export const SESSION_MAX_SECONDS = 8 * 3600;

export interface StatusSessions {
  /** A new session; returns its id and how long it lives. */
  create(session: StatusSession, expiresInSeconds?: number): Promise<{ id: string; maxAge: number }>;
  get(id: string): Promise<StatusSession | undefined>;
  delete(id: string): Promise<void>;
}

export function statusSessions(params: { redis: Redis; prefix: string }): StatusSessions {
  const { redis, prefix } = params;
  // The id is hashed before it names a key: reading Redis's keys gives no cookie to replay.
  const keyOf = (id: string) => `${prefix}:status-session:${createHash("sha256").update(id).digest("hex")}`;
  return {
    async create(session, expiresInSeconds) {
      const id = randomBytes(32).toString("base64url");
      const maxAge = Math.max(60, Math.min(SESSION_MAX_SECONDS, expiresInSeconds ?? SESSION_MAX_SECONDS));
      await redis.set(keyOf(id), JSON.stringify(session), "EX", maxAge);
      return { id, maxAge };
    },
    async get(id) {
      const raw = await redis.get(keyOf(id));
      return raw ? (JSON.parse(raw) as StatusSession) : undefined;
    },
    async delete(id) {
      await redis.del(keyOf(id));
    },
  };
}
