import { describe, expect, it } from "vitest";
import { isSameRepository, repositoryOfUrl } from "../../../src/discover/source-url.ts";

const gitops = { host: "github.com", owner: "acme", repo: "gitops" };

describe("isSameRepository", () => {
  it.each([
    "https://github.com/acme/gitops",
    "https://github.com/acme/gitops.git",
    "https://github.com/acme/gitops/",
    "https://x-access-token:abc@github.com/acme/gitops.git",
    "ssh://git@github.com/acme/gitops.git",
    "ssh://git@github.com:22/acme/gitops",
    "git@github.com:acme/gitops.git",
    "github.com:acme/gitops",
    "https://GitHub.com/Acme/GitOps.git",
  ])("reads %s as this repository", (url) => {
    expect(isSameRepository(url, gitops)).toBe(true);
  });

  it.each([
    "https://github.com/acme/gitops-staging",
    "https://github.com/other/gitops",
    "https://ghe.example.com/acme/gitops",
    "git@gitlab.com:acme/gitops.git",
    "https://github.com/acme/gitops/tree/main",
    "file:///srv/git/acme/gitops",
    "/srv/git/gitops",
    "not a url",
  ])("does not read %s as this repository", (url) => {
    expect(isSameRepository(url, gitops)).toBe(false);
  });

  it("names the host, owner and repository of an scp-like URL", () => {
    expect(repositoryOfUrl("git@ghe.example.com:Platform/Infra.git")).toEqual({
      host: "ghe.example.com",
      owner: "platform",
      repo: "infra",
    });
  });
});
