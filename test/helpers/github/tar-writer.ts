// Builds small tar archives by hand for the extraction tests, including the
// entries git never writes (devices, links out of the tree), which no
// well-behaved tool would produce on request.
import { gzipSync } from "node:zlib";

export interface TarSpec {
  path: string;
  type?: "file" | "dir" | "symlink" | "hardlink" | "char-device" | "block-device" | "fifo";
  content?: string | Buffer;
  linkTarget?: string;
  mode?: number;
}

const flags = { file: "0", dir: "5", symlink: "2", hardlink: "1", "char-device": "3", "block-device": "4", fifo: "6" };

/** A gzipped tar of `entries`, opened with a pax global header as `git archive` writes it. */
export function tarball(entries: TarSpec[], options: { gzip?: boolean; commit?: string } = {}): Buffer {
  const blocks: Buffer[] = [];
  const commit = options.commit ?? "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
  blocks.push(...record("pax_global_header", "g", paxBody({ comment: commit }), 0o666));
  for (const entry of entries) {
    const type = entry.type ?? "file";
    const content = type === "file" ? Buffer.from(entry.content ?? "") : Buffer.alloc(0);
    const mode = entry.mode ?? (type === "dir" ? 0o755 : 0o644);
    const long = Buffer.byteLength(entry.path) > 100 || Buffer.byteLength(entry.linkTarget ?? "") > 100;
    if (long) {
      const fields: Record<string, string> = { path: entry.path };
      if (entry.linkTarget) fields.linkpath = entry.linkTarget;
      blocks.push(...record("PaxHeader", "x", paxBody(fields), 0o644));
    }
    blocks.push(
      header({
        name: entry.path.slice(0, 100),
        flag: flags[type],
        size: content.length,
        mode,
        link: (entry.linkTarget ?? "").slice(0, 100),
      }),
    );
    blocks.push(...padded(content));
  }
  blocks.push(Buffer.alloc(1024));
  const tar = Buffer.concat(blocks);
  return options.gzip === false ? tar : gzipSync(tar);
}

function record(name: string, flag: string, body: Buffer, mode: number): Buffer[] {
  return [header({ name, flag, size: body.length, mode, link: "" }), ...padded(body)];
}

function padded(data: Buffer): Buffer[] {
  if (data.length === 0) return [];
  return [data, Buffer.alloc((512 - (data.length % 512)) % 512)];
}

function paxBody(fields: Record<string, string>): Buffer {
  let text = "";
  for (const [key, value] of Object.entries(fields)) {
    const rest = ` ${key}=${value}\n`;
    let length = Buffer.byteLength(rest) + 1;
    while (String(length).length + Buffer.byteLength(rest) !== length) length++;
    text += `${length}${rest}`;
  }
  return Buffer.from(text);
}

function header(h: { name: string; flag: string; size: number; mode: number; link: string }): Buffer {
  const b = Buffer.alloc(512);
  b.write(h.name, 0, 100, "utf8");
  b.write(octal(h.mode, 8), 100, "latin1");
  b.write(octal(0, 8), 108, "latin1");
  b.write(octal(0, 8), 116, "latin1");
  b.write(octal(h.size, 12), 124, "latin1");
  b.write(octal(1_700_000_000, 12), 136, "latin1");
  b.write("        ", 148, "latin1");
  b.write(h.flag, 156, "latin1");
  b.write(h.link, 157, 100, "utf8");
  b.write("ustar\u000000", 257, "latin1");
  let sum = 0;
  for (const byte of b) sum += byte;
  b.write(`${sum.toString(8).padStart(6, "0")}\u0000 `, 148, "latin1");
  return b;
}

function octal(n: number, width: number): string {
  return `${n.toString(8).padStart(width - 1, "0")}\u0000`;
}
