// Manifests reach the scan as kubectl reads them: an octal file mode applied by kubectl is in sync,
// and a typo that would drop a document stops the scan with the file and line to fix.
import { afterEach, describe, expect, it } from "vitest";
import { kubectl } from "../helpers/cluster.ts";
import { type Scenario, scenario } from "../helpers/scenario.ts";

let current: Scenario | undefined;
afterEach(() => current?.cleanup());

const pod = `apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: $NS
spec:
  containers:
    - name: web
      image: nginx:1.27
  volumes:
    - name: scripts
      configMap:
        name: scripts
        defaultMode: 0755
`;

describe("undrift scan reads manifests as kubectl does", () => {
  it("finds a `defaultMode: 0755` that kubectl applied in sync", async () => {
    current = scenario({ files: { "manifests/pod.yaml": pod } });
    await kubectl(["create", "namespace", current.namespace]);
    const applied = await kubectl(
      ["apply", "--server-side", "--field-manager", "undrift", "-f", "-"],
      pod.replaceAll("$NS", current.namespace),
    );
    expect(applied).toContain("serverside-applied");
    await kubectl(["label", "pod", "web", "-n", current.namespace, `undrift.dev/target=${current.target}`]);
    const live = await kubectl([
      "get",
      "pod",
      "web",
      "-n",
      current.namespace,
      "-o",
      "jsonpath={.spec.volumes[0].configMap.defaultMode}",
    ]);
    expect(live).toBe("493");
    const result = await current.scan();
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/in sync/);
  });

  it("stops with exit 2 and one line naming file and line when a document misspells metadata", async () => {
    current = scenario({
      files: { "manifests/web.yaml": "apiVersion: v1\nkind: ConfigMap\nmetdata:\n  name: web\ndata:\n  a: b\n" },
    });
    const result = await current.scan();
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim()).toBe(
      'manifests/web.yaml:3: document 0: unknown top-level field "metdata" (did you mean "metadata"?)',
    );
  });
});
