// What helm prints that a test holds it to, apart from the noise of the client it is built on.

// client-go logs through klog ("E1207 13:11:39.135731   31812 request.go:1198] …").
// When `helm --wait` sees the release Ready it cancels the watches it polled with,
// and a body read still in flight is logged as an error with `context canceled`;
// the install has still succeeded. Seen on a loaded CI run (stop 40).
const canceledRead = /^[EWI]\d{4} [\d:.]+\s+\d+ \S+\] .*context canceled.*$/;

/** What helm said on stderr that a person would read as a warning or error: client-go's
 * log of a watch helm itself canceled is left out, everything else is kept. */
export function helmComplaints(stderr: string): string {
  return stderr
    .split("\n")
    .filter((line) => !canceledRead.test(line))
    .join("\n")
    .trim();
}
