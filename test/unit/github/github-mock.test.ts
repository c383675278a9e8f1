import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { checkRequest } from "../../helpers/github/check-request.ts";
import { useGitHubMock } from "../../helpers/github-mock.ts";

const api = "https://api.github.com";
const post = (path: string, body: unknown) =>
  checkRequest({ method: "POST", url: api + path, body: JSON.stringify(body) });

describe("the OpenAPI request check", () => {
  it("passes a request that GitHub's description allows", () => {
    const result = post("/repos/acme/gitops/check-runs", {
      name: "undrift/infra",
      head_sha: "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
      status: "completed",
      conclusion: "neutral",
      output: { title: "2 drifted", summary: "..." },
    });
    expect(result.problems).toEqual([]);
    expect(result.operation?.operationId).toBe("checks/create");
  });

  it("refuses a path that is no operation", () => {
    const result = checkRequest({ method: "GET", url: `${api}/repos/acme/gitops/check-run`, body: "" });
    expect(result.problems).toEqual([
      "GET /repos/acme/gitops/check-run: matches no operation of GitHub's REST API description",
    ]);
  });

  it("refuses a method the path does not have", () => {
    const result = checkRequest({ method: "DELETE", url: `${api}/repos/acme/gitops/pulls/3`, body: "" });
    expect(result.problems[0]).toMatch(/matches no operation/);
  });

  it("refuses a body without a required field", () => {
    const result = post("/repos/acme/gitops/git/refs", { ref: "refs/heads/undrift/codify/infra" });
    expect(result.problems).toEqual([
      "POST /repos/acme/gitops/git/refs (git/create-ref, POST /repos/{owner}/{repo}/git/refs): body.sha: required",
    ]);
  });

  it("refuses a field of the wrong type", () => {
    const result = post("/repos/acme/gitops/check-runs", { name: "undrift/infra", head_sha: 42 });
    expect(result.problems.join("\n")).toMatch(/body\.head_sha: expected string, got number 42/);
  });

  it("refuses a value outside an enum, checked inside nested objects too", () => {
    const result = post("/repos/acme/gitops/git/trees", {
      tree: [{ path: "a.yaml", mode: "644", type: "blob", content: "x" }],
    });
    expect(result.problems.join("\n")).toMatch(/body\.tree\[0\]\.mode: "644" is not one of/);
  });

  it("refuses a field the operation does not take, which GitHub would drop silently", () => {
    const result = post("/repos/acme/gitops/pulls", {
      title: "t",
      head: "undrift/codify/infra",
      base: "main",
      labels: ["drift"],
    });
    expect(result.problems.join("\n")).toMatch(/body\.labels: not a parameter of this operation/);
  });

  it("checks path parameters' types, and required and unknown query parameters", () => {
    const badNumber = checkRequest({ method: "PATCH", url: `${api}/repos/acme/gitops/issues/abc`, body: "{}" });
    expect(badNumber.problems.join("\n")).toMatch(/path parameter issue_number: expected integer/);
    const noQuery = checkRequest({ method: "GET", url: `${api}/search/issues`, body: "" });
    expect(noQuery.problems.join("\n")).toMatch(/query parameter q: required/);
    const typo = checkRequest({
      method: "GET",
      url: `${api}/repos/acme/gitops/commits/abc/check-runs?checkname=x`,
      body: "",
    });
    expect(typo.problems.join("\n")).toMatch(/query parameter checkname: not a parameter/);
  });

  it("matches a ref with encoded or plain slashes to the same operation", () => {
    const encoded = checkRequest({
      method: "PATCH",
      url: `${api}/repos/acme/gitops/git/refs/heads%2Fundrift%2Fcodify%2Finfra`,
      body: JSON.stringify({ sha: "abc", force: true }),
    });
    const plain = checkRequest({
      method: "PATCH",
      url: `${api}/repos/acme/gitops/git/refs/heads/undrift/codify/infra`,
      body: JSON.stringify({ sha: "abc", force: true }),
    });
    expect(encoded.problems).toEqual([]);
    expect(plain.problems).toEqual([]);
    expect(encoded.pathParams.ref).toBe("heads/undrift/codify/infra");
    expect(plain.operation?.operationId).toBe("git/update-ref");
  });

  it("prefers a literal segment over a parameter", () => {
    const result = checkRequest({ method: "GET", url: `${api}/repos/acme/gitops/issues/comments`, body: "" });
    expect(result.operation?.operationId).toBe("issues/list-comments-for-repo");
  });

  it("strips GitHub Enterprise Server's /api/v3 prefix", () => {
    const result = checkRequest({
      method: "GET",
      url: "https://ghe.example/api/v3/repos/acme/gitops/pulls?state=open",
      body: "",
      baseUrl: "https://ghe.example/api/v3",
    });
    expect(result.problems).toEqual([]);
    expect(result.operation?.operationId).toBe("pulls/list");
  });
});

describe("the GitHub mock", () => {
  const github = useGitHubMock();

  it("answers a declared call and logs it with its operation", async () => {
    github.expect({
      method: "GET",
      path: "/repos/acme/gitops/pulls",
      query: { state: "open" },
      reply: { body: [{ number: 7 }] },
    });
    const { data } = await github.octokit().request("GET /repos/{owner}/{repo}/pulls", {
      owner: "acme",
      repo: "gitops",
      state: "open",
    });
    expect(data).toEqual([{ number: 7 }]);
    expect(github.requests.map((r) => [r.method, r.path, r.operationId, r.status])).toEqual([
      ["GET", "/repos/acme/gitops/pulls", "pulls/list", 200],
    ]);
    expect(github.writes()).toEqual([]);
  });

  it("refuses an undeclared request with a message naming it", async () => {
    const octokit = github.octokit();
    await expect(
      octokit.request("POST /repos/{owner}/{repo}/issues", { owner: "acme", repo: "gitops", title: "x" }),
    ).rejects.toThrow();
    const violations = await github.verify();
    expect(violations[0]).toMatch(
      /^unexpected request POST https:\/\/api\.github\.com\/repos\/acme\/gitops\/issues \(issues\/create\)/,
    );
  });

  it("refuses a declared request whose body breaks the description, as GitHub would with a 422", async () => {
    github.expect({ method: "POST", path: "/repos/acme/gitops/git/refs", reply: { status: 201, body: {} } });
    const octokit = github.octokit();
    const sent = octokit.request("POST /repos/{owner}/{repo}/git/refs", {
      owner: "acme",
      repo: "gitops",
      ref: "refs/heads/x",
    } as never);
    await expect(sent).rejects.toMatchObject({ status: 422 });
    expect((await github.verify()).join("\n")).toMatch(/git\/create-ref.*body\.sha: required/);
  });

  it("refuses a declared request whose body is not the one the test expects", async () => {
    github.expect({
      method: "PATCH",
      path: "/repos/acme/gitops/issues/4",
      body: { state: "closed" },
      reply: { body: {} },
    });
    const sent = github.octokit().request("PATCH /repos/{owner}/{repo}/issues/{issue_number}", {
      owner: "acme",
      repo: "gitops",
      issue_number: 4,
      state: "open",
    });
    await expect(sent).rejects.toMatchObject({ status: 422 });
    expect(await github.verify()).toEqual([
      'PATCH /repos/acme/gitops/issues/4: body {"state":"open"} does not match {"state":"closed"}',
    ]);
  });

  it("refuses a request to a path that is no GitHub operation, even when declared", async () => {
    github.expect({ method: "GET", path: "/repos/acme/gitops/drift", reply: { body: {} } });
    await expect(github.octokit().request("GET /repos/acme/gitops/drift")).rejects.toMatchObject({ status: 422 });
    expect(await github.verify()).toEqual([
      "GET /repos/acme/gitops/drift: matches no operation of GitHub's REST API description",
    ]);
  });

  it("reports a declared call that was never made", async () => {
    github.expect({ method: "GET", path: "/repos/acme/gitops", reply: { body: {} } });
    github.expect({ method: "GET", path: "/repos/acme/gitops/pulls", times: 2, reply: { body: [] } });
    await github.octokit().request("GET /repos/{owner}/{repo}/pulls", { owner: "acme", repo: "gitops" });
    expect(await github.verify()).toEqual([
      "declared but not requested: GET /repos/acme/gitops",
      "declared but not requested (1 of 2): GET /repos/acme/gitops/pulls",
    ]);
  });

  it("lets loopback through for the test cluster and Redis, unlogged, and nothing else", async () => {
    const server = createServer((_, res) => res.end("cluster"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      expect(await (await fetch(`http://127.0.0.1:${port}/version`)).text()).toBe("cluster");
      expect(github.requests).toEqual([]);
      expect(await github.verify()).toEqual([]);
    } finally {
      server.close();
    }
    await expect(fetch("https://example.com/")).rejects.toThrow();
    expect((await github.verify())[0]).toMatch(/unexpected request GET https:\/\/example\.com\//);
  });
});
