// Freezes a value of plain data (objects, arrays, primitives) all the way down
// and hands it back: a value many callers share, such as a repository's parsed
// config, can then be shared without a copy for each, and an edit by any of
// them throws a TypeError (modules are strict) instead of reaching the others.

export function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}
