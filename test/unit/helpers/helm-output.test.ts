// helm's stderr as chart-install reads it: client-go's log of a watch helm canceled is
// not a complaint; a warning or error helm itself prints is.
import { describe, expect, it } from "vitest";
import { helmComplaints } from "../../helpers/helm-output.ts";

describe("helmComplaints", () => {
  it("leaves out client-go's log of a body read that helm --wait canceled", () => {
    const stderr =
      'E1207 13:11:39.135731   31812 request.go:1198] "Unexpected error when reading response body" err="context canceled"\n';
    expect(helmComplaints(stderr)).toBe("");
  });

  it("keeps helm's own warnings and any other client-go error", () => {
    const warning = "WARNING: Kubernetes configuration file is group-readable. This is insecure.";
    const refused = 'E1207 13:11:39.135731   31812 memcache.go:265] "Unhandled Error" err="connection refused"';
    expect(helmComplaints(`${warning}\n${refused}\n`)).toBe(`${warning}\n${refused}`);
    expect(helmComplaints("Error: INSTALLATION FAILED: context canceled")).toBe(
      "Error: INSTALLATION FAILED: context canceled",
    );
  });
});
