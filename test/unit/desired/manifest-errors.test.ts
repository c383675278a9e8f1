import { describe, expect, it } from "vitest";
import { RenderError } from "../../../src/desired/render-error.ts";
import { renderTarget } from "../../../src/desired/render-target.ts";
import { tempRepo } from "./temp-repo.ts";

const apps = { name: "apps", path: "apps", render: "plain" } as const;
const web = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n";

async function renderError(files: Record<string, string>): Promise<RenderError> {
  const error = await renderTarget({ repoDir: await tempRepo(files), target: apps }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RenderError);
  expect((error as RenderError).message).not.toContain("\n");
  return error as RenderError;
}

describe("a broken document in a target's manifests is an error naming file and line, never dropped", () => {
  it("names a misspelt metadata field", async () => {
    const error = await renderError({
      "apps/web.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetdata:\n  name: web\n",
    });
    expect(error.message).toBe(
      'apps/web.yaml:3: document 0: unknown top-level field "metdata" (did you mean "metadata"?)',
    );
    expect(error).toMatchObject({ file: "apps/web.yaml", line: 3 });
  });

  it("names a document without metadata.name", async () => {
    const error = await renderError({
      "apps/web.yaml": `${web}---\napiVersion: v1\nkind: Service\nmetadata:\n  labels: {a: b}\n`,
    });
    expect(error.message).toBe("apps/web.yaml:8: document 1: Service has no metadata.name");
  });

  it("names a document without apiVersion, or without kind", async () => {
    expect((await renderError({ "apps/web.yaml": "kind: Service\nmetadata:\n  name: web\n" })).message).toBe(
      "apps/web.yaml:1: document 0: no apiVersion",
    );
    expect((await renderError({ "apps/web.yaml": "apiVersion: v1\nmetadata:\n  name: web\n" })).message).toBe(
      "apps/web.yaml:1: document 0: no kind",
    );
  });

  it("names an object that lost both apiVersion and kind but kept its metadata", async () => {
    const error = await renderError({ "apps/web.yaml": "metadata:\n  name: web\nspec: {}\n" });
    expect(error.message).toBe("apps/web.yaml:1: document 0: no apiVersion and kind");
  });

  it("names a scalar document among objects", async () => {
    const error = await renderError({ "apps/web.yaml": `${web}---\njust a string\n` });
    expect(error.message).toBe("apps/web.yaml:6: document 1: the document is a string, not a Kubernetes object");
  });

  it("names a List item that is not an object", async () => {
    const text =
      "apiVersion: v1\nkind: List\nitems:\n  - apiVersion: v1\n    kind: ServiceAccount\n  - just a string\n";
    const error = await renderError({ "apps/list.yaml": text });
    expect(error.message).toBe("apps/list.yaml:4: document 0: List item 0: ServiceAccount has no metadata.name");
  });

  it("names the field of a Secret whose data is not base64, without its value", async () => {
    const secret =
      "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  user: YWRtaW4=\n  password: hunter2!\n";
    const error = await renderError({ "apps/secret.yaml": secret });
    expect(error.message).toBe('apps/secret.yaml:7: document 0: Secret "db": data.password is not valid base64');
    expect(error.message).not.toContain("hunter2");
  });

  it.each([
    ["text after a block scalar indicator", "  password: |  s3cr3t-value", "apps/secret.yaml:6: Not a YAML token"],
    ["a bad escape", '  password: "s3cr3t\\qvalue"', "apps/secret.yaml:6: Invalid escape sequence"],
    [
      "a tag its value does not fit",
      "  password: !!int s3cr3t-value",
      "apps/secret.yaml:6: cannot decode a !!str as a !!int",
    ],
  ])("names the line of a YAML mistake in a Secret without quoting its value (%s)", async (_, line, message) => {
    const secret = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\nstringData:\n${line}\n`;
    const error = await renderError({ "apps/secret.yaml": secret });
    expect(error.message).toBe(message);
    expect(error.message).not.toContain("s3cr3t");
  });

  it("names a YAML 1.1 boolean in a ConfigMap's data as kubectl does (cannot unmarshal bool into string)", async () => {
    const cm =
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: flags\n  namespace: shop\ndata:\n  mode: fast\n  enabled: yes\n";
    const error = await renderError({ "apps/cm.yaml": cm });
    expect(error.message).toBe(
      'apps/cm.yaml:8: document 0: ConfigMap "flags": data.enabled: cannot unmarshal bool into Go struct field ConfigMap.data of type string (YAML 1.1 reads yes, no, on and off as booleans: quote the value)',
    );
    expect(error).toMatchObject({ file: "apps/cm.yaml", line: 8 });
  });

  it.each([
    [
      "a number in a label",
      "metadata:\n  name: x\n  labels:\n    version: 1.5\n",
      4,
      "metadata.labels.version: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string",
    ],
    [
      "a bool in an annotation",
      "metadata:\n  name: x\n  annotations:\n    sidecar: on\n",
      4,
      "metadata.annotations.sidecar: cannot unmarshal bool into Go struct field ObjectMeta.metadata.annotations of type string",
    ],
    [
      "a mapping in binaryData",
      "metadata:\n  name: x\nbinaryData:\n  blob: {a: b}\n",
      4,
      "binaryData.blob: cannot unmarshal object into Go struct field ConfigMap.binaryData of type []uint8",
    ],
    [
      "a list as data",
      "metadata:\n  name: x\ndata:\n  - a\n",
      3,
      "data: cannot unmarshal array into Go struct field ConfigMap.data of type map[string]string",
    ],
  ])("names every non-string value of a string map (%s)", async (_, rest, line, why) => {
    const error = await renderError({ "apps/cm.yaml": `apiVersion: v1\nkind: ConfigMap\n${rest}` });
    expect(error.message.split(" (YAML 1.1")[0]).toBe(`apps/cm.yaml:${line + 2}: document 0: ConfigMap "x": ${why}`);
  });

  it("names a non-string Secret stringData or data value without quoting any value", async () => {
    const head = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n";
    const stringData = await renderError({ "apps/s.yaml": `${head}stringData:\n  user: admin\n  port: 5432\n` });
    expect(stringData.message).toBe(
      'apps/s.yaml:7: document 0: Secret "db": stringData.port: cannot unmarshal number into Go struct field Secret.stringData of type string',
    );
    const data = await renderError({ "apps/s.yaml": `${head}data:\n  tls: true\n` });
    expect(data.message.split(" (YAML 1.1")[0]).toBe(
      'apps/s.yaml:6: document 0: Secret "db": data.tls: cannot unmarshal bool into Go struct field Secret.data of type []uint8',
    );
    expect(`${stringData.message}${data.message}`).not.toMatch(/admin|5432/);
  });

  it("takes quoted values and nulls in string maps, as the API server does", async () => {
    const cm =
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  labels: {v: "1.5"}\ndata:\n  enabled: "yes"\n  empty:\n';
    const { objects } = await renderTarget({ repoDir: await tempRepo({ "apps/cm.yaml": cm }), target: apps });
    expect(objects[0]!.object).toMatchObject({ data: { enabled: "yes", empty: null } });
  });

  it("still skips files that are plainly not manifests, and empty documents, with why", async () => {
    const repoDir = await tempRepo({
      "apps/web.yaml": `---\n# only a comment\n---\n${web}---\n`,
      "apps/values.yaml": "replicas: 3\nimage: web:1\n",
      "apps/hosts.yaml": "- a.example.com\n- b.example.com\n",
    });
    const { objects, skipped } = await renderTarget({ repoDir, target: apps });
    expect(objects.map((o) => o.object.metadata.name)).toEqual(["web"]);
    expect(skipped).toEqual([
      {
        file: "apps/hosts.yaml",
        document: 0,
        reason: "not a Kubernetes object: the document is a sequence, not a mapping",
      },
      { file: "apps/values.yaml", document: 0, reason: "not a Kubernetes object: no string apiVersion and kind" },
    ]);
  });

  it("reads `defaultMode: 0755` as the 493 kubectl sends", async () => {
    const pod =
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  volumes:\n    - name: s\n      secret: {secretName: s, defaultMode: 0755}\n";
    const { objects } = await renderTarget({ repoDir: await tempRepo({ "apps/pod.yaml": pod }), target: apps });
    expect(objects[0]!.object).toMatchObject({ spec: { volumes: [{ secret: { defaultMode: 493 } }] } });
  });
});
