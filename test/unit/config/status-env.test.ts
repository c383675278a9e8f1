// The status page's settings: on only with both halves of the OAuth client, and
// GitHub's sign-in and API roots following GHE_HOST and GHE_PROTOCOL as Probot's do.
import { describe, expect, it } from "vitest";
import { parseStatusEnv } from "../../../src/config/status-env.ts";

describe("parseStatusEnv", () => {
  it("is off without an OAuth client, and on github.com by default", () => {
    expect(parseStatusEnv({})).toEqual({ githubWeb: "https://github.com", githubApi: "https://api.github.com" });
  });

  it("follows GitHub Enterprise Server's host and protocol", () => {
    const env = parseStatusEnv({
      GITHUB_CLIENT_ID: "Iv23li",
      GITHUB_CLIENT_SECRET: "s3cr3t",
      GHE_HOST: "ghe.example.com",
      GHE_PROTOCOL: "http",
      UNDRIFT_BASE_URL: "https://undrift.example.com/",
    });
    expect(env).toMatchObject({
      oauth: { clientId: "Iv23li", clientSecret: "s3cr3t" },
      githubWeb: "http://ghe.example.com",
      githubApi: "http://ghe.example.com/api/v3",
    });
    expect(env.baseUrl?.origin).toBe("https://undrift.example.com");
  });

  it("refuses half an OAuth client, naming the missing variable and never the value", () => {
    expect(() => parseStatusEnv({ GITHUB_CLIENT_SECRET: "s3cr3t" })).toThrow(/^GITHUB_CLIENT_ID: required/);
    try {
      parseStatusEnv({ GITHUB_CLIENT_SECRET: "s3cr3t" });
    } catch (error) {
      expect(String(error)).not.toContain("s3cr3t");
    }
    expect(() => parseStatusEnv({ UNDRIFT_BASE_URL: "undrift.example.com" })).toThrow(/^UNDRIFT_BASE_URL: expected/);
  });
});
