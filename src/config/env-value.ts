// An environment variable as the server's settings read it: trimmed, and
// unset when blank (a Helm value left empty renders `NAME: ""`).

export function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  return env[name]?.trim() || undefined;
}
