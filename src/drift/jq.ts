// jq for ignore rules: each evaluation runs on the config layer's jq thread,
// bounded in time, and still answers synchronously, so the engine stays pure.
import { runJq } from "../config/jq-runner.ts";
import type { Jq } from "./ignore-rules.ts";

const jq: Jq = {
  paths: (value, expression) => runJq(value, `[path(${expression})]`) as Array<Array<string | number>>,
};

/** The jq the engine takes; a promise, as callers already await it. */
export function loadJq(): Promise<Jq> {
  return Promise.resolve(jq);
}
