// `undrift <command> --help`: usage line, one line per flag and examples, all
// from the command's spec, the same flags its parser is given.
import type { CommandSpec, Flag } from "./command-specs.ts";

export function renderCommandHelp(name: string, spec: CommandSpec): string {
  const flags = Object.entries(spec.flags);
  const required = flags.filter(([, f]) => f.required).map(([long, f]) => spelling(long, f));
  const usage = [
    "undrift",
    name,
    ...(spec.positional ? [spec.positional] : []),
    ...required,
    ...(flags.length > required.length ? ["[options]"] : []),
  ].join(" ");
  const rows: [string, string][] = [
    ...flags.map(([long, f]): [string, string] => [
      `${f.short ? `-${f.short}, ` : "    "}${spelling(long, f)}`,
      describe(f),
    ]),
    ["-h, --help", "this text"],
  ];
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return [
    `undrift ${name}: ${spec.summary}`,
    "",
    "Usage:",
    `  ${usage}`,
    "",
    "Options:",
    ...rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`),
    "",
    "Examples:",
    ...spec.examples.map((e) => `  ${e}`),
    ...(spec.exitCodes ? ["", `Exit codes: ${spec.exitCodes}.`] : []),
    "",
  ].join("\n");
}

function spelling(long: string, flag: Flag): string {
  return flag.type === "string" ? `--${long} ${flag.value ?? "VALUE"}` : `--${long}`;
}

function describe(flag: Flag): string {
  const required = flag.required ? (flag.unless ? ` (required unless ${flag.unless})` : " (required)") : "";
  const fallback = flag.type === "string" && flag.default !== undefined ? ` (default: ${String(flag.default)})` : "";
  return `${flag.description}${required}${fallback}`;
}
