// Equality-based label selectors, as `kubectl get -l` takes them: `k=v`, `k==v`,
// `k!=v`, `k`, `!k`, comma separated. Set-based forms (`in`, `notin`) are not
// accepted: undrift also has to add the default tracking label, which needs `=`.
import { UndriftError } from "../model/undrift-error.ts";

/** One requirement of a label selector. */
export interface LabelRequirement {
  key: string;
  operator: "=" | "!=" | "exists" | "!exists";
  value?: string;
}

/** Thrown for a selector Kubernetes would reject; the message says which part is wrong. */
export class LabelSelectorError extends UndriftError {
  override name = "LabelSelectorError";
  readonly permanent = true;
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const REQUIREMENT = /^(!?)\s*([^=!\s]+)\s*(?:(==|=|!=)\s*(\S*))?$/;

/** Parses an equality-based label selector; throws LabelSelectorError when it is not one. */
export function parseLabelSelector(selector: string): LabelRequirement[] {
  if (selector.trim() === "") {
    throw new LabelSelectorError("an empty selector would select every object in the cluster");
  }
  if (/[()]|\s(in|notin)\s/.test(selector)) {
    throw new LabelSelectorError(`set-based selectors (in, notin) are not supported: "${selector}"`);
  }
  return selector.split(",").map((part) => parseRequirement(part.trim()));
}

function parseRequirement(part: string): LabelRequirement {
  const match = REQUIREMENT.exec(part);
  if (!match) throw new LabelSelectorError(`"${part}" is not one of k=v, k==v, k!=v, k or !k`);
  const [, not, key = "", operator, value] = match;
  checkKey(key);
  if (operator === undefined) return { key, operator: not ? "!exists" : "exists" };
  if (not) throw new LabelSelectorError(`"${part}" is not one of k=v, k==v, k!=v, k or !k`);
  if (value === undefined || (value !== "" && (value.length > 63 || !LABEL_NAME.test(value)))) {
    throw new LabelSelectorError(`"${value}" in "${part}" is not a valid label value`);
  }
  return { key, operator: operator === "!=" ? "!=" : "=", value };
}

function checkKey(key: string): void {
  const slash = key.lastIndexOf("/");
  const prefix = slash === -1 ? undefined : key.slice(0, slash);
  const name = key.slice(slash + 1);
  const prefixOk = prefix === undefined || (prefix.length <= 253 && DNS_SUBDOMAIN.test(prefix));
  if (!prefixOk || name.length > 63 || !LABEL_NAME.test(name)) {
    throw new LabelSelectorError(`"${key}" is not a valid label key`);
  }
}

/** Whether the selector has a term only labelled objects match (`k=v`, `k`): `!k` and `k!=v` also match every object without the label. */
export function hasPositiveTerm(requirements: LabelRequirement[]): boolean {
  return requirements.some((r) => r.operator === "=" || r.operator === "exists");
}
