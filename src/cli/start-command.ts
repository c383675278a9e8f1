// undrift start (npm start): the webhook receiver and the scan workers of every
// cluster in the registry, in one process, for one machine. Without APP_ID and
// PRIVATE_KEY it serves the setup page (app/app-setup.ts) and starts no worker.

import { start as spec } from "./command-specs.ts";
import { parseCommandArgs } from "./parse-command-args.ts";
import { serveUntilSignal } from "./serve-until-signal.ts";
import { startWeb } from "./start-web.ts";

export async function startCommand(argv: string[]): Promise<number> {
  parseCommandArgs(argv, spec.flags);
  const app = await startWeb({ workers: true }).catch((error: unknown) => {
    // A process that failed to start must not linger on whatever a library left open before the failure.
    setTimeout(() => process.exit(), 2000).unref();
    throw error;
  });
  return serveUntilSignal(() => app.close());
}
