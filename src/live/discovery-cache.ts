// Discovery kept on disk between runs, as kubectl keeps it in ~/.kube/cache/discovery:
// one file per API server, keyed by its URL, holding only the kinds the server
// serves (never a credential) and the ETags of the documents they came from.
// Where: $UNDRIFT_DISCOVERY_CACHE, else <$UNDRIFT_CACHE or ~/.cache/undrift>/discovery
// (undrift's own folder, beside its tool cache; kubectl's files are not touched).
// UNDRIFT_DISCOVERY_CACHE=off keeps nothing.
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import type { ApiResource } from "./api-resource.ts";

/** kubectl's disk cache trusts discovery for 6 hours (cli-runtime's ToDiscoveryClient). */
export const discoveryTtlMs = 6 * 60 * 60 * 1000;

const formatVersion = 1;

/** What one discovery pass left for the next run. */
export interface CachedDiscovery {
  server: string;
  /** When the core group (/api) was last read from the server, epoch ms. */
  fetchedAt: number;
  /** The ETag of the aggregated /apis document, to ask whether the groups changed. */
  groupsEtag?: string;
  /** Whether the server offered aggregated discovery (else the per-group walk was used). */
  aggregated: boolean;
  core: ApiResource[];
  groups: ApiResource[];
  /** `group/version` of each API group the server could not discover (an APIService whose backend is down). */
  unavailable?: string[];
}

/** Usage: `const cache = DiscoveryCache.fromEnv(); await cache?.read(server)`. */
export class DiscoveryCache {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  /** The cache the environment asks for; undefined when UNDRIFT_DISCOVERY_CACHE=off. */
  static fromEnv(env: NodeJS.ProcessEnv = process.env): DiscoveryCache | undefined {
    const explicit = env.UNDRIFT_DISCOVERY_CACHE;
    if (explicit === "off") return undefined;
    return new DiscoveryCache(explicit || join(env.UNDRIFT_CACHE || join(homedir(), ".cache", "undrift"), "discovery"));
  }

  /** `127.0.0.1_6443-<hash>.json`: readable as kubectl's host_port folders, the hash keeping two URLs apart. */
  fileFor(server: string): string {
    const readable = server
      .replace(/^https?:\/\//, "")
      .replace(/[^\w.-]/g, "_")
      .slice(0, 80);
    const digest = createHash("sha256").update(server).digest("hex").slice(0, 12);
    return join(this.dir, `${readable}-${digest}.json`);
  }

  /** The entry for `server`, or undefined when there is none or it cannot be read (a cache miss, asked again). */
  async read(server: string): Promise<CachedDiscovery | undefined> {
    try {
      const entry = JSON.parse(await readFile(this.fileFor(server), "utf8")) as CachedDiscovery & { format?: number };
      if (entry.format !== formatVersion || entry.server !== server) return undefined;
      if (!Array.isArray(entry.core) || !Array.isArray(entry.groups)) return undefined;
      return entry;
    } catch {
      return undefined; // no file yet, or one cut short or written by another version: discover afresh
    }
  }

  /** Writes the entry atomically (a rename), so a concurrent run reads the old file or the new, never half of one. */
  async write(entry: CachedDiscovery): Promise<void> {
    const file = this.fileFor(entry.server);
    const partial = `${file}.${process.pid}.${Date.now()}.partial`;
    try {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      await writeFile(partial, JSON.stringify({ format: formatVersion, ...entry }), { mode: 0o600 });
      await rename(partial, file);
    } catch {
      await rm(partial, { force: true }).catch(() => undefined);
      // A read-only home (a container) only costs the next run its discovery requests; the scan goes on.
    }
  }
}
