// Each mode's handler, by the mode's name in the config (Mode, config/schema.ts):
// a mode the config allows and that has no handler here fails to compile.
import type { Mode } from "../config/schema.ts";
import { codifyHandler } from "./codify/codify-handler.ts";
import { healHandler } from "./heal/heal-handler.ts";
import type { ModeHandler } from "./mode-handler.ts";
import { revertHandler } from "./revert/revert-handler.ts";
import { warnHandler } from "./warn/warn-handler.ts";

const handlers = { warn: warnHandler, codify: codifyHandler, revert: revertHandler, heal: healHandler };

/** The plan a mode makes (each handler has its own). */
export type PlanOf<M extends Mode> = (typeof handlers)[M] extends ModeHandler<infer Plan> ? Plan : never;

/** A Record<Mode, ModeHandler>, each mode's handler with that mode's plan. */
export const modeHandlers: { [M in Mode]: ModeHandler<PlanOf<M>> } = handlers;
