// The app itself (GET /app), asked as the app: the proof its credentials are
// accepted (the readiness check of `web` and `worker`), and its slug (bot-login.ts).
import type { Probot } from "probot";

export async function readApp(probot: Pick<Probot, "auth">) {
  return (await probot.auth()).request("GET /app");
}
