// undrift start (npm start): the webhook receiver and the scan workers of every
// cluster in the registry, in one process, for one machine. Without APP_ID and
// PRIVATE_KEY it serves the setup page (server/app-setup.ts) and starts no worker.

import { startWeb } from "../server/web.ts";
import { start as spec } from "./command-specs.ts";
import { parseCommandArgs } from "./parse-command-args.ts";
import { serveUntilSignal } from "./serve-until-signal.ts";

export async function startCommand(argv: string[]): Promise<number> {
  parseCommandArgs(argv, spec.flags);
  const app = await startWeb({ workers: true }).catch((error: unknown) => {
    // A process that failed to start must not linger on whatever a library left open before the failure.
    setTimeout(() => process.exit(), 2000).unref();
    throw error;
  });
  return serveUntilSignal(() => app.close());
}
