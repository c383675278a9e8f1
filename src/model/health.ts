// How an object stands after an apply: the words health checks, records and renderers share.

/** healthy; not-ready (may still get there); failed (will not without a change); timed-out (waited, never got there). */
export type HealthStatus = "healthy" | "not-ready" | "failed" | "timed-out";

export interface Health {
  status: HealthStatus;
  /** Why it is not healthy, in a person's words. */
  message?: string;
  /** Whether undrift waited for it; only a wait that ends badly makes a revert incomplete. */
  waited: boolean;
}

export type Readiness = Omit<Health, "waited">;
