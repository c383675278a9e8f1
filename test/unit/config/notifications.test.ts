// The two halves of notifications' config: the server's channels (in the
// cluster registry's file, URLs and secrets inline, from env or a file) and a
// repository's `notifications` list. Errors name file, line and field, and
// never show a URL.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ChannelAccessError,
  ChannelSecretError,
  channelFor,
  readSecret,
} from "../../../src/config/channel-registry.ts";
import { loadClusterRegistry, loadClusterRegistryText } from "../../../src/config/cluster-registry.ts";
import { loadConfig } from "../../../src/config/load-config.ts";

const lines = (...text: string[]) => `${text.join("\n")}\n`;
const FILE = "/etc/undrift/clusters.yml";
const cluster = ["clusters:", "  prod-eu:", "    inCluster: true", "    repositories: [acme/*]"];
const target = ["targets:", "  - name: infra", "    cluster: prod-eu", "    path: infra"];

const messageOf = (read: () => unknown) => {
  try {
    read();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected an error");
};

describe("the server's channels", () => {
  const registry = loadClusterRegistryText(
    lines(
      ...cluster,
      "channels:",
      "  platform-slack:",
      "    kind: slack",
      "    url: {env: SLACK_WEBHOOK_URL}",
      "    repositories: [acme/*]",
      "  audit-hook:",
      "    kind: webhook",
      "    url: https://hooks.example.org/undrift",
      "    secret: {file: hook-secret}",
      "    repositories: [acme/gitops]",
    ),
    FILE,
  );

  it("lets a listed repository use a channel, and refuses the others", () => {
    expect(channelFor(registry.channels, "platform-slack", "Acme/Apps").kind).toBe("slack");
    expect(() => channelFor(registry.channels, "audit-hook", "acme/apps")).toThrow(
      new ChannelAccessError('repository acme/apps may not use channel "audit-hook"'),
    );
    expect(() => channelFor(registry.channels, "nope", "acme/gitops")).toThrow('channel "nope" is not in the server');
  });

  it("names file, line and field of a bad channel without showing its URL", () => {
    const bad =
      (...entry: string[]) =>
      () =>
        loadClusterRegistryText(lines(...cluster, "channels:", "  ops:", ...entry), FILE);
    expect(messageOf(bad("    kind: pager", "    url: https://x.example", "    repositories: [acme/*]"))).toMatch(
      /^\/etc\/undrift\/clusters\.yml:7: channels\.ops\.kind: expected kind: slack, teams or webhook$/,
    );
    const withToken = messageOf(
      bad("    kind: slack", "    url: hooks.slack.com/T000/SECRETTOKEN", "    repositories: [acme/*]"),
    );
    expect(withToken).toMatch(/^\/etc\/undrift\/clusters\.yml:8: channels\.ops\.url: /);
    expect(withToken).not.toContain("SECRETTOKEN");
    expect(messageOf(bad("    kind: webhook", "    url: https://x.example", "    repositories: [acme/*]"))).toMatch(
      /clusters\.yml:7: channels\.ops\.secret: required field is missing$/,
    );
  });

  it("reads a secret from the environment or a file next to the registry, at send time", async () => {
    const dir = await mkdtemp(join(tmpdir(), "undrift-channels-"));
    try {
      const file = join(dir, "clusters.yml");
      await writeFile(
        file,
        lines(
          ...cluster,
          "channels:",
          "  hook:",
          "    kind: webhook",
          "    url: {env: HOOK_URL}",
          "    secret: {file: hook.key}",
          "    repositories: [acme/*]",
        ),
      );
      const loaded = await loadClusterRegistry(file);
      const hook = loaded.channels!.hook!;
      if (hook.kind !== "webhook") throw new Error("expected the webhook");
      expect(hook.secret).toEqual({ file: join(dir, "hook.key") });
      await writeFile(join(dir, "hook.key"), "k3y\n");
      expect(await readSecret(hook.secret, "hook secret")).toBe("k3y");
      expect(await readSecret(hook.url, "hook url", { HOOK_URL: "https://h.example/x" })).toBe("https://h.example/x");
      await expect(readSecret(hook.url, 'channel "hook" url', {})).rejects.toThrow(
        new ChannelSecretError('channel "hook" url: environment variable HOOK_URL is not set'),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("a repository's notifications", () => {
  it("is empty by default, so a repository without it sends nothing", () => {
    expect(loadConfig(lines(...target)).notifications).toEqual([]);
  });

  it("names channels with events and a reminder", () => {
    const config = loadConfig(
      lines(
        ...target,
        "notifications:",
        "  - channel: platform-slack",
        "    events: [drift, resolved, fight]",
        "    remind: 24h",
        "  - channel: audit-hook",
      ),
    );
    expect(config.notifications).toEqual([
      { channel: "platform-slack", events: ["drift", "resolved", "fight"], remind: "24h", remindMs: 86_400_000 },
      { channel: "audit-hook", events: ["drift", "resolved", "fight", "failing"], remind: "0s", remindMs: 0 },
    ]);
  });

  it("names file, line and field of a wrong entry", () => {
    const of = (...entry: string[]) => messageOf(() => loadConfig(lines(...target, "notifications:", ...entry)));
    expect(of("  - channel: ops", "    events: [drift, paged]")).toMatch(
      /^\.github\/undrift\.yml:7: notifications\[0\]\.events\[1\]: /,
    );
    expect(of("  - channel: ops", "    remind: 5m")).toBe(
      '.github/undrift.yml:7: notifications[0].remind: expected 0s (no reminder) or at least 1h, got "5m"',
    );
    expect(of("  - events: [drift]")).toMatch(/^\.github\/undrift\.yml:6: notifications\[0\]\.channel: /);
    expect(of("  - channel: ops", "    url: https://x")).toMatch(/^\.github\/undrift\.yml:7: notifications\[0\]/);
  });
});
