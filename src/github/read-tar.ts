// A small streaming reader of tar archives as `git archive` (and so GitHub's
// tarball endpoint) writes them: ustar headers, pax extended headers for long
// names, GNU long-name entries, a pax global header carrying the commit. It
// only parses; what is safe to write is extract-tarball's decision.
//
//   for await (const entry of readTar({ source: gunzipped })) { ... entry.data ... }
import { SnapshotError } from "./snapshot-error.ts";

export type TarEntryType =
  | "file"
  | "directory"
  | "symlink"
  | "hardlink"
  | "char-device"
  | "block-device"
  | "fifo"
  | "unknown";

export interface TarEntry {
  type: TarEntryType;
  /** The path as the archive names it (pax and GNU long names applied). */
  path: string;
  /** Symlink or hardlink target. */
  linkTarget: string;
  mode: number;
  size: number;
  /** The raw type flag, for messages about unknown ones. */
  flag: string;
  /** A file's content (empty for other types). */
  data: Buffer;
}

export interface ReadTarParams {
  source: AsyncIterable<Uint8Array>;
  /** A larger file is refused before its content is read. */
  maxFileBytes: number;
}

const block = 512;
// Pax and GNU long-name records hold a path or two; anything bigger is not what git writes.
const maxMetaBytes = 1 << 20;

export async function* readTar(params: ReadTarParams): AsyncGenerator<TarEntry> {
  const input = byteReader(params.source);
  let pax: Record<string, string> = {};
  let longName: string | undefined;
  let longLink: string | undefined;
  for (;;) {
    const header = await input.read(block);
    if (!header) throw new SnapshotError("corrupt", "the archive ends without its end-of-archive blocks");
    if (header.every((b) => b === 0)) return;
    verifyChecksum(header);
    const flag = String.fromCharCode(header[156] ?? 0);
    const size = Number(pax.size ?? readNumber(header, 124, 12));
    const ustar = header.toString("latin1", 257, 262) === "ustar";
    const name = cString(header, 0, 100);
    const prefix = ustar ? cString(header, 345, 155) : "";
    const padded = Math.ceil(size / block) * block;

    if (flag === "x" || flag === "g" || flag === "L" || flag === "K") {
      if (size > maxMetaBytes)
        throw new SnapshotError("corrupt", `a ${flag} header of ${size} bytes is larger than any path`);
      const data = await input.read(padded);
      if (!data) throw new SnapshotError("corrupt", "the archive ends inside a header");
      const body = data.subarray(0, size);
      // A global header ('g') applies to the whole archive; git uses it only for the commit id, so it is read and dropped.
      if (flag === "x") pax = parsePax(body);
      if (flag === "L") longName = cString(body, 0, body.length);
      if (flag === "K") longLink = cString(body, 0, body.length);
      continue;
    }
    const type = entryType(flag);
    if (type === "file" && size > params.maxFileBytes) {
      throw new SnapshotError(
        "too-large",
        `${pax.path ?? longName ?? name}: ${size} bytes, more than the ${params.maxFileBytes} allowed for one file`,
      );
    }
    const entry: TarEntry = {
      type,
      path: pax.path ?? longName ?? (prefix ? `${prefix}/${name}` : name),
      linkTarget: pax.linkpath ?? longLink ?? cString(header, 157, 100),
      mode: Number(readNumber(header, 100, 8)),
      size,
      flag,
      data: Buffer.alloc(0),
    };
    pax = {};
    longName = undefined;
    longLink = undefined;
    if (type === "file") {
      const data = await input.read(padded);
      if (!data) throw new SnapshotError("corrupt", `${entry.path}: the archive ends inside the file`);
      entry.data = data.subarray(0, size);
    } else if (!(await input.skip(padded))) {
      throw new SnapshotError("corrupt", `${entry.path}: the archive ends inside the entry`);
    }
    yield entry;
  }
}

function entryType(flag: string): TarEntryType {
  switch (flag) {
    case "0":
    case "\0":
    case "7":
      return "file";
    case "1":
      return "hardlink";
    case "2":
      return "symlink";
    case "3":
      return "char-device";
    case "4":
      return "block-device";
    case "5":
      return "directory";
    case "6":
      return "fifo";
    default:
      return "unknown";
  }
}

function verifyChecksum(header: Buffer): void {
  const text = header.toString("latin1", 148, 156).replace(/\0.*$/s, "").trim();
  const stored = /^[0-7]+$/.test(text) ? Number.parseInt(text, 8) : Number.NaN;
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < block; i++) {
    const byte = i >= 148 && i < 156 ? 0x20 : header[i]!;
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  if (stored !== unsigned && stored !== signed) {
    throw new SnapshotError(
      "corrupt",
      `header checksum mismatch at "${cString(header, 0, 100)}": not a tar archive, or a damaged one`,
    );
  }
}

/** Octal text, or base-256 (high bit set) for values octal cannot hold. */
function readNumber(buffer: Buffer, offset: number, length: number): bigint {
  const first = buffer[offset]!;
  if (first & 0x80) {
    let value = BigInt(first & 0x7f);
    for (let i = 1; i < length; i++) value = (value << 8n) | BigInt(buffer[offset + i]!);
    return value;
  }
  const text = buffer
    .toString("latin1", offset, offset + length)
    .replace(/\0.*$/s, "")
    .trim();
  if (text === "") return 0n;
  if (!/^[0-7]+$/.test(text))
    throw new SnapshotError("corrupt", `not an octal number in a tar header: ${JSON.stringify(text)}`);
  return BigInt(`0o${text}`);
}

function cString(buffer: Buffer, offset: number, length: number): string {
  const slice = buffer.subarray(offset, offset + length);
  const end = slice.indexOf(0);
  return slice.subarray(0, end === -1 ? slice.length : end).toString("utf8");
}

/** Pax records: `<length> <key>=<value>\n`, the length counting the whole record. */
function parsePax(body: Buffer): Record<string, string> {
  const fields: Record<string, string> = {};
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    const length = Number(body.toString("latin1", at, space));
    if (space === -1 || !Number.isInteger(length) || length <= 0 || at + length > body.length) {
      throw new SnapshotError("corrupt", "a pax header record is malformed");
    }
    const record = body.toString("utf8", space + 1, at + length - 1);
    const eq = record.indexOf("=");
    if (eq > 0) fields[record.slice(0, eq)] = record.slice(eq + 1);
    at += length;
  }
  return fields;
}

/** Reads exact byte counts from a stream of chunks, holding no more than one request's worth. */
function byteReader(source: AsyncIterable<Uint8Array>) {
  const iterator = source[Symbol.asyncIterator]();
  let chunks: Buffer[] = [];
  let buffered = 0;
  const fill = async (n: number): Promise<boolean> => {
    while (buffered < n) {
      const next = await iterator.next();
      if (next.done) return false;
      const chunk = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
      chunks.push(chunk);
      buffered += chunk.length;
    }
    return true;
  };
  const take = (n: number): Buffer => {
    const all = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    const rest = all.subarray(n);
    chunks = rest.length > 0 ? [rest] : [];
    buffered = rest.length;
    return all.subarray(0, n);
  };
  return {
    async read(n: number): Promise<Buffer | undefined> {
      return (await fill(n)) ? take(n) : undefined;
    },
    async skip(n: number): Promise<boolean> {
      let left = n;
      while (left > 0) {
        if (buffered === 0 && !(await fill(1))) return false;
        const step = Math.min(left, buffered);
        take(step);
        left -= step;
      }
      return true;
    },
  };
}
