// With the default selector the tracking label is part of every desired object,
// so undrift sets it when it applies. With any other selector (Flux's or Argo
// CD's own labels) something else sets the labels, and undrift adds nothing.
import { DEFAULT_TRACKING_LABEL } from "./field-schemas.ts";
import type { TargetConfig } from "./schema.ts";

/** The label undrift must add to the target's desired objects, or undefined when the selector is not the default. */
export function trackingLabel(
  target: Pick<TargetConfig, "name" | "tracking">,
): { key: string; value: string } | undefined {
  const match = /^\s*([^=!\s]+)\s*==?\s*(\S+)\s*$/.exec(target.tracking.selector);
  if (match?.[1] !== DEFAULT_TRACKING_LABEL || match[2] !== target.name) return undefined;
  return { key: DEFAULT_TRACKING_LABEL, value: target.name };
}
