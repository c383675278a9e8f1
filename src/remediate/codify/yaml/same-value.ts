// The check every edit passes before it is kept: the edited document must read
// back as exactly the intended value. Empty maps and lists count as absent,
// because removing a field's last key removes the field (as apply treats them).

type Json = unknown;
const isRecord = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether two plain values are equal, types included (`"1"` is not `1`), empty maps and lists left out. */
export function sameValue(a: Json, b: Json): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(value: Json): Json {
  if (Array.isArray(value)) return value.map(canonical).filter((v) => !isEmptyCollection(v));
  if (isRecord(value)) {
    const out: Record<string, Json> = {};
    for (const key of Object.keys(value).sort()) {
      const v = canonical(value[key]);
      if (v !== undefined && !isEmptyCollection(v)) out[key] = v;
    }
    return out;
  }
  return value;
}

function isEmptyCollection(v: Json): boolean {
  return Array.isArray(v) ? v.length === 0 : isRecord(v) && Object.keys(v).length === 0;
}
