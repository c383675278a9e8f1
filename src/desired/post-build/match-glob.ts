// The glob of `${var#pattern}` and its kin, as fluxcd/pkg/envsubst's path.Match
// reads it (a fork of Go's path.Match): `*` any run, `?` one character,
// `[a-z]` / `[^a-z]` a class, `\x` the character x; unlike Go's, `*` and `?`
// also match `/`, and a trailing `*` matches the rest whatever it holds.

/** The pattern is malformed (an unclosed class, a trailing backslash): Flux then leaves the value as it is. */
export class BadPatternError extends Error {
  override name = "BadPatternError";
}

/** Whether `name` matches `pattern` whole; throws BadPatternError. */
export function matchGlob(pattern: string, name: string): boolean {
  let rest = pattern;
  let text = name;
  outer: while (rest.length > 0) {
    const { star, chunk, after } = scanChunk(rest);
    rest = after;
    if (star && chunk === "") return true;
    const here = matchChunk(chunk, text);
    if (here !== undefined && (here.length === 0 || rest.length > 0)) {
      text = here;
      continue;
    }
    if (star) {
      for (let i = 0; i < text.length; i++) {
        const later = matchChunk(chunk, text.slice(i + 1));
        if (later === undefined) continue;
        if (rest.length === 0 && later.length > 0) continue;
        text = later;
        continue outer;
      }
    }
    return false;
  }
  return text.length === 0;
}

/** Leading stars, then the pattern up to the next star outside a class. */
function scanChunk(pattern: string): { star: boolean; chunk: string; after: string } {
  let start = 0;
  while (pattern[start] === "*") start++;
  let inClass = false;
  let i = start;
  for (; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\" && i + 1 < pattern.length) i++;
    else if (c === "[") inClass = true;
    else if (c === "]") inClass = false;
    else if (c === "*" && !inClass) break;
  }
  return { star: start > 0, chunk: pattern.slice(start, i), after: pattern.slice(i) };
}

/** What is left of `text` after `chunk` matched its start, or undefined. */
function matchChunk(chunk: string, text: string): string | undefined {
  let c = chunk;
  let s = text;
  while (c.length > 0) {
    if (s.length === 0) return undefined;
    if (c[0] === "[") {
      const r = s[0]!;
      s = s.slice(1);
      c = c.slice(1);
      const negated = c[0] === "^";
      if (negated) c = c.slice(1);
      let matched = false;
      let ranges = 0;
      for (;;) {
        if (c[0] === "]" && ranges > 0) {
          c = c.slice(1);
          break;
        }
        const lo = escaped(c);
        c = lo.after;
        let hi = lo.char;
        if (c[0] === "-") {
          const h = escaped(c.slice(1));
          hi = h.char;
          c = h.after;
        }
        if (lo.char <= r && r <= hi) matched = true;
        ranges++;
      }
      if (matched === negated) return undefined;
    } else if (c[0] === "?") {
      s = s.slice(1);
      c = c.slice(1);
    } else {
      if (c[0] === "\\") {
        c = c.slice(1);
        if (c.length === 0) throw new BadPatternError("syntax error in pattern");
      }
      if (c[0] !== s[0]) return undefined;
      s = s.slice(1);
      c = c.slice(1);
    }
  }
  return s;
}

/** One character of a class, `\` escaping it; a class must go on after it. */
function escaped(chunk: string): { char: string; after: string } {
  let c = chunk;
  if (c.length === 0 || c[0] === "-" || c[0] === "]") throw new BadPatternError("syntax error in pattern");
  if (c[0] === "\\") {
    c = c.slice(1);
    if (c.length === 0) throw new BadPatternError("syntax error in pattern");
  }
  const after = c.slice(1);
  if (after.length === 0) throw new BadPatternError("syntax error in pattern");
  return { char: c[0]!, after };
}
