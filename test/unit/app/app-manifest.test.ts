// app.yml is what GitHub registers the app from (the setup page posts it as the
// App manifest): an event no handler is subscribed to is never delivered, and a
// call the installation has no permission for is refused. The handlers are read
// from the app itself (every `app.on` undriftApp registers), the calls from the
// source (every route string), so a new handler or call that app.yml does not
// cover fails here, not on real GitHub.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { Probot } from "probot";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { undriftApp } from "../../../src/app/app.ts";
import type { UndriftQueues } from "../../../src/queue/create-queues.ts";
import { appManifest } from "../../../src/server/app-setup.ts";

const root = join(import.meta.dirname, "../../..");
const manifest = parseYaml(readFileSync(join(root, "app.yml"), "utf8")) as {
  default_events?: string[];
  default_permissions?: Record<string, "read" | "write">;
};

type Access = "read" | "write";
type Need = { permission: string; access: Access } | "none";

// The permission a webhook event needs to be delivered (GitHub's "Webhook events and payloads": each event's
// "Availability" and the permission it names); installation events reach every app.
const EVENT_PERMISSION: Record<string, Need> = {
  installation: "none",
  installation_repositories: "none",
  push: { permission: "contents", access: "read" },
  pull_request: { permission: "pull_requests", access: "read" },
  issues: { permission: "issues", access: "read" },
  issue_comment: { permission: "issues", access: "read" },
  check_run: { permission: "checks", access: "read" },
  check_suite: { permission: "checks", access: "read" },
};

// The permission each REST call needs with an installation token (GitHub's "Permissions required for GitHub
// Apps"), by path; the app's own (JWT) and a user's calls need none. Checked in order, first match wins.
const CALL_PERMISSION: Array<[RegExp, (method: string) => Need]> = [
  [/^\/(app|app\/installations|app-manifests\/[^/]+\/conversions|user|user\/installations.*)$/, () => "none"],
  [/^\/installation\/repositories$/, () => ({ permission: "metadata", access: "read" })],
  [/^\/repos\/[^/]+\/[^/]+$/, () => ({ permission: "metadata", access: "read" })],
  [/^\/repos\/[^/]+\/[^/]+\/collaborators\//, () => ({ permission: "metadata", access: "read" })],
  [/^\/repos\/[^/]+\/[^/]+\/(check-runs|commits\/[^/]+\/check-runs)/, accessBy("checks")],
  [/^\/repos\/[^/]+\/[^/]+\/issues/, accessBy("issues")],
  [/^\/repos\/[^/]+\/[^/]+\/pulls/, accessBy("pull_requests")],
  [/^\/repos\/[^/]+\/[^/]+\/(git|contents|tarball|branches|compare|commits)\//, accessBy("contents")],
];

function accessBy(permission: string): (method: string) => Need {
  return (method) => ({ permission, access: method === "GET" ? "read" : "write" });
}

/** Every event a handler of undriftApp listens to (`pull_request.opened` counts as `pull_request`). */
function handledEvents(): string[] {
  const events = new Set<string>();
  const app = {
    on(names: string | string[]) {
      for (const name of [names].flat()) events.add(name.split(".")[0] ?? name);
    },
    log: { info() {}, warn() {}, error() {}, debug() {}, child: () => app.log },
  };
  // Registration builds Redis stores but sends nothing: no connection is needed.
  const queues = { connection: {}, prefix: "manifest-test" } as unknown as UndriftQueues;
  undriftApp({ queues })(app as unknown as Probot, {} as never);
  return [...events].sort();
}

/** Every REST route string in src/, with the files it is in. */
function calledRoutes(): Map<string, string[]> {
  const routes = new Map<string, string[]>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".ts"))
        for (const [, route] of readFileSync(path, "utf8").matchAll(/"((?:GET|POST|PATCH|PUT|DELETE) \/[^".]+)"/g))
          routes.set(route!, [...(routes.get(route!) ?? []), relative(root, path)]);
    }
  };
  walk(join(root, "src"));
  return routes;
}

/** Whether app.yml grants `need`: write covers read. */
function granted(need: Need): boolean {
  if (need === "none") return true;
  const given = manifest.default_permissions?.[need.permission];
  return given === "write" || (given === "read" && need.access === "read");
}

describe("app.yml, the App manifest", () => {
  it("subscribes to every event a handler listens to, dashboard ticks (issues.edited) included", () => {
    const events = handledEvents();
    expect(events).toContain("issues");
    const missing = events.filter((event) => !manifest.default_events?.includes(event));
    expect(missing, "events handled but not subscribed in app.yml").toEqual([]);
  });

  it("grants the permission every handled event needs to be delivered", () => {
    const missing = handledEvents().flatMap((event) => {
      const need = EVENT_PERMISSION[event];
      if (need === undefined) return [`${event}: not in this test's table; add the permission GitHub names for it`];
      return granted(need) ? [] : [`${event}: needs ${JSON.stringify(need)}`];
    });
    expect(missing).toEqual([]);
  });

  it("grants the permission every GitHub call in src/ needs", () => {
    const routes = calledRoutes();
    expect(routes.size).toBeGreaterThan(20);
    const missing = [...routes].flatMap(([route, files]) => {
      const [method = "", path = ""] = route.split(" ");
      const rule = CALL_PERMISSION.find(([pattern]) => pattern.test(path.replace(/\{[^}]+\}/g, "x")));
      if (!rule) return [`${route} (${files.join(", ")}): not in this test's table; add the permission it needs`];
      const need = rule[1](method);
      return granted(need) ? [] : [`${route} (${files.join(", ")}): needs ${JSON.stringify(need)}`];
    });
    expect(missing).toEqual([]);
  });

  it("is what the setup page registers, with this server's URLs", () => {
    const posted = appManifest({
      baseUrl: "https://undrift.example.org",
      webhookUrl: "https://undrift.example.org/hook",
    });
    expect(posted).toMatchObject({
      default_events: manifest.default_events,
      default_permissions: manifest.default_permissions,
      hook_attributes: { url: "https://undrift.example.org/hook" },
      redirect_url: "https://undrift.example.org/probot/setup",
    });
  });
});
