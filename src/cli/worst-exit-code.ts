/** The exit code of several runs: an error (2) over drift (1) over in sync (0), as one target's would be. */
export function worstExitCode(codes: readonly number[]): number {
  return codes.reduce((worst, code) => Math.max(worst, code), 0);
}
