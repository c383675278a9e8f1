// A repository's `notifications` less those naming a channel the server does
// not have or does not let it use: those are said in the log, once per scan,
// and the others still go out (a typo in one channel must not silence the rest).
import { ChannelAccessError, channelFor } from "../../config/channel-registry.ts";
import type { NotificationConfig } from "../../config/notification-schema.ts";
import type { WorkerDeps } from "../worker-deps.ts";

export function usableNotifications(params: {
  deps: Pick<WorkerDeps, "queues" | "registry" | "log">;
  repo: string;
  notifications: readonly NotificationConfig[];
}): NotificationConfig[] {
  const { deps, repo } = params;
  return params.notifications.filter((n) => {
    try {
      channelFor(deps.registry.channels, n.channel, repo);
      return true;
    } catch (error) {
      if (!(error instanceof ChannelAccessError)) throw error;
      deps.log.warn({ repo, channel: n.channel }, `notifications: ${error.message}; not sent there`);
      return false;
    }
  });
}
