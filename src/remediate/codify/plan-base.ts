// The identity part of a plan: which object, in which state.

import type { Pairing } from "../../drift/build-report.ts";
import { keyString, objectKey } from "../../model/object-key.ts";
import type { DriftStatus } from "../../model/types.ts";
import type { ObjectPlan } from "./object-plan.ts";

export function planBase(pairing: Pairing, status: DriftStatus): Omit<ObjectPlan, "ops"> {
  const object = (pairing.desired?.object ?? pairing.live)!;
  const { apiVersion, kind } = object;
  const { name, namespace } = object.metadata;
  return {
    id: keyString(objectKey(object)),
    ref: { apiVersion, kind, name, ...(namespace ? { namespace } : {}) },
    status,
    pairing,
  };
}
