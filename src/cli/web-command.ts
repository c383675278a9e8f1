// undrift web: the webhook receiver alone (Probot's server). Without APP_ID and
// PRIVATE_KEY it serves the setup page (server/app-setup.ts), which registers the app from app.yml.

import { startWeb } from "../server/web.ts";
import { web as spec } from "./command-specs.ts";
import { parseCommandArgs } from "./parse-command-args.ts";
import { serveUntilSignal } from "./serve-until-signal.ts";

export async function webCommand(argv: string[]): Promise<number> {
  parseCommandArgs(argv, spec.flags);
  const web = await startWeb({}).catch((error: unknown) => {
    // A process that failed to start must not linger on whatever a library left open before the failure.
    setTimeout(() => process.exit(), 2000).unref();
    throw error;
  });
  return serveUntilSignal(() => web.close());
}
