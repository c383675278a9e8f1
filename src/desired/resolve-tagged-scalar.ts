// What an explicitly tagged YAML scalar (`!!float 1`, `!!int "3"`, `!!str 0644`)
// means to the Kubernetes YAML decoder (sigs.k8s.io/yaml's go-yaml v2 fork), as
// its `resolve` does: the text is resolved as a plain scalar would be, and the
// tag must agree with what it resolved to, except that an integer may be read as
// a float; any text is a !!str, !!binary is base64, and a tag the decoder does
// not resolve (a local `!foo`, `!!merge`) leaves the text a string. A mismatch is
// the decoder's own error without the text (`cannot decode a !!float as a !!int`).
import { type PlainScalar, resolvePlainScalar } from "./resolve-plain-scalar.ts";

export type TaggedScalar = PlainScalar | { type: "error"; message: string };

const core = "tag:yaml.org,2002:";
const resolvable = new Set(["bool", "int", "float", "null", "timestamp"]);
const INT64_MAX = 2n ** 63n - 1n;

/** The value go-yaml v2 gives the scalar text `text` (after quotes and block indicators) tagged `tag`. */
export function resolveTaggedScalar(tag: string, text: string): TaggedScalar {
  const name = tag.startsWith(core) ? tag.slice(core.length) : undefined;
  if (name === "binary") return decodeBinary(text);
  if (name === undefined || !resolvable.has(name)) return { type: "string", value: text };
  // Only an explicit !!timestamp makes the decoder try the text as a timestamp, which it then hands on as written.
  if (name === "timestamp" && isTimestamp(text)) return { type: "string", value: text };
  const resolved = resolvePlainScalar(text);
  if (resolved.type === name) return resolved;
  // go-yaml turns an int64 into a float for !!float, but not a uint64 past int64's range.
  if (name === "float" && resolved.type === "int" && resolved.value <= INT64_MAX) {
    return { type: "float", value: Number(resolved.value) };
  }
  const found = resolved.type === "string" ? "str" : resolved.type;
  // go-yaml quotes the text here; undrift does not, since the text may be a Secret's value.
  return { type: "error", message: `cannot decode a !!${found} as a !!${name}` };
}

// base64.StdEncoding.DecodeString: padded, the standard alphabet, line breaks skipped.
function decodeBinary(text: string): TaggedScalar {
  const data = text.replace(/[\r\n]/g, "");
  if (data.length % 4 !== 0 || !/^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(data)) {
    return { type: "error", message: "!!binary value contains invalid base64 data" };
  }
  // Go keeps the bytes as a string; JSON then writes each invalid UTF-8 sequence as U+FFFD, as the decoder does here.
  return { type: "string", value: new TextDecoder().decode(Buffer.from(data, "base64")) };
}

// go-yaml v2's allowedTimestampFormats, as Go's time.Parse reads them: short date fields, 'T', 't' or a space
// before the time, optional fractional seconds, and a zone (Z or ±hh:mm) unless the time follows a space.
const timestampForms = [
  /^(\d{4})-(\d{1,2})-(\d{1,2})[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(?:[.,]\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/,
  /^(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{1,2}):(\d{1,2})(?:[.,]\d+)?$/,
  /^(\d{4})-(\d{1,2})-(\d{1,2})$/,
];

function isTimestamp(text: string): boolean {
  for (const form of timestampForms) {
    const match = form.exec(text);
    if (!match) continue;
    const [year, month, day, hour = 0, minute = 0, second = 0, zoneHour = 0, zoneMinute = 0] = match
      .slice(1)
      .map((part) => (part === undefined ? undefined : Number(part)));
    const leap = year! % 4 === 0 && (year! % 100 !== 0 || year! % 400 === 0);
    const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month!) ? 30 : 31;
    return (
      month! >= 1 &&
      month! <= 12 &&
      day! >= 1 &&
      day! <= days &&
      hour < 24 &&
      minute < 60 &&
      second < 60 &&
      zoneHour <= 24 &&
      zoneMinute <= 60
    );
  }
  return false;
}
