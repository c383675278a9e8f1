// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Flux's ${var} syntax is the subject of these strings
// Flux's post-build substitution rules, with examples from fluxcd/pkg (kustomize/testdata/resources and
// kustomization_varsub_expected.yaml, envsubst/eval_test.go) and kustomize-controller's docs.
import { describe, expect, it } from "vitest";
import { expandTemplate } from "../../../../src/desired/post-build/expand-template.ts";
import { parseTemplate } from "../../../../src/desired/post-build/parse-template.ts";
import { type PostBuildVariables, substituteObjects } from "../../../../src/desired/post-build/substitute-objects.ts";
import { RenderError } from "../../../../src/desired/render-error.ts";
import type { KubeObject } from "../../../../src/model/types.ts";

const expand = (text: string, values: Record<string, string>, strict = false) =>
  expandTemplate(parseTemplate(text), { vars: new Map(Object.entries(values)), strict });

const vars = (values: Record<string, string>, secret: string[] = []): PostBuildVariables => ({
  values,
  from: Object.fromEntries(Object.keys(values).map((k) => [k, "spec.postBuild.substitute"])),
  secret,
});
const where = "Kustomization apps/app";
const run = (
  objects: KubeObject[],
  variables: PostBuildVariables,
  options: { always?: boolean; strict?: boolean } = {},
) => substituteObjects({ objects, variables, always: options.always ?? false, strict: options.strict ?? false, where });

describe("Flux's substitution syntax", () => {
  it("replaces ${var}, leaves $var alone, and makes $${var} the text ${var}", () => {
    expect(expand("a ${x} $x $${x} $$$${x} $ end$", { x: "1" })).toBe("a 1 $x ${x} $${x} $ end$");
    expect(expand("$$${x}", { x: "1" })).toBe("$1");
  });

  it("uses a default when the variable is unset or empty, with every default-style operator", () => {
    expect(expand("${a:=dev} ${a:-dev} ${a=dev} ${a:+dev} ${a:?dev}", {})).toBe("dev dev dev dev dev");
    expect(expand("${a:=dev}", { a: "" })).toBe("dev");
    expect(expand("${a:=dev}", { a: "prod" })).toBe("prod");
    expect(expand("${a:=${b}-x}", { b: "eu" })).toBe("eu-x");
  });

  it("reads an undefined variable as empty, or fails on it in strict mode unless it has a default", () => {
    expect(expand("[${missing}]", {})).toBe("[]");
    expect(() => expand("${missing}", {}, true)).toThrow('variable not set (strict mode): "missing"');
    expect(expand("${missing:=d}", {}, true)).toBe("d");
    expect(expand("${empty}", { empty: "" }, true)).toBe("");
  });

  it("has bash's string functions as envsubst's README lists them", () => {
    const v = { s: "hello-world", n: "abcdef" };
    expect(expand("${#s} ${s^} ${s^^} ${s,} ${s,,}", { ...v, s: "Hello" })).toBe("5 Hello HELLO hello hello");
    expect(expand("${n:2} ${n:1:3} ${n:1:-1} ${n:9} ${n:x}", v)).toBe("cdef bcd bcde  abcdef");
    // `:-` is the default operator, as in bash: not a negative offset.
    expect(expand("${n:-2}", v)).toBe("abcdef");
    expect(expand("${s/o/0} ${s//o/0} ${s/#hello/bye} ${s/%world/you} ${s/o/}", v)).toBe(
      "hell0-world hell0-w0rld bye-world hello-you hell-world",
    );
    expect(expand("${s#*o} ${s##*o} ${s%o*} ${s%%o*}", v)).toBe("-world rld hello-w hell");
  });

  it("fails as Flux fails on what it cannot parse", () => {
    for (const [text, why] of [
      ["${}", "unable to parse variable name"],
      ["${a.b}", "missing closing brace"],
      ["${a-b}", "missing closing brace"],
      ["${a", "missing closing brace"],
      ["${a:=b", "unable to parse substitution within function"],
      // The replacement may be empty, but its slash is not optional.
      ["${a/b}", "bad substitution"],
    ]) {
      expect(() => parseTemplate(text!), text).toThrow(why);
    }
  });
});

const deployment = (): KubeObject => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: {
    name: "app",
    namespace: "apps",
    labels: { environment: "${cluster_env:=dev}", region: "${cluster_region}" },
  },
  spec: {
    replicas: "${replicas}",
    template: {
      metadata: { annotations: { "prometheus.io/scrape": "${prometheus_scrape:=false}" } },
      spec: { containers: [{ name: "nginx", image: "${image}" }] },
    },
  },
});

describe("substituting a Kustomization's built objects", () => {
  it("substitutes as fluxcd/pkg's varsub test expects, a quoted value staying a string and a plain one taking its type", () => {
    const [out] = run(
      [deployment()],
      vars({
        cluster_env: "prod",
        cluster_region: "eu-central-1",
        prometheus_scrape: '"true"',
        image: "nginx:1.21.4",
        replicas: "3",
      }),
    );
    expect(out!.object).toEqual({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "app", namespace: "apps", labels: { environment: "prod", region: "eu-central-1" } },
      spec: {
        replicas: 3,
        template: {
          metadata: { annotations: { "prometheus.io/scrape": "true" } },
          spec: { containers: [{ name: "nginx", image: "nginx:1.21.4" }] },
        },
      },
    });
    expect(out!.sensitive).toEqual([]);
  });

  it("leaves an object labelled or annotated kustomize.toolkit.fluxcd.io/substitute: disabled as built", () => {
    for (const key of ["labels", "annotations"] as const) {
      const object = deployment();
      object.metadata[key] = { ...object.metadata[key], "kustomize.toolkit.fluxcd.io/substitute": "disabled" };
      expect(run([object], vars({ cluster_env: "prod" }))[0]!.object).toBe(object);
    }
  });

  it("substitutes nothing when there is no variable at all, defaults included, unless substituteStrategy is Always", () => {
    const object = deployment();
    expect(run([object], vars({}))[0]!.object).toBe(object);
    const always = run([object], vars({}), { always: true })[0]!.object;
    // An empty value leaves `region:` with nothing after it, which YAML reads as null: Flux's text substitution does so too.
    expect(always.metadata.labels).toEqual({ environment: "dev", region: null });
  });

  it("fails naming the Kustomization and the field of a variable whose name Flux refuses", () => {
    const variables: PostBuildVariables = {
      values: { ok: "1", "bad.name": "2" },
      from: { ok: "spec.postBuild.substitute", "bad.name": "spec.postBuild.substituteFrom[1]" },
      secret: [],
    };
    expect(() => run([deployment()], variables)).toThrow(
      new RenderError(
        'Kustomization apps/app: spec.postBuild.substituteFrom[1]: "bad.name" is not a valid variable name (must match ^[_A-Za-z][_A-Za-z0-9]*$)',
      ),
    );
  });

  it("fails a variable used without a default in strict mode, naming the object and never a value", () => {
    expect(() => run([deployment()], vars({ image: "s3cret-image" }), { strict: true })).toThrow(
      'Kustomization apps/app: spec.postBuild: Deployment/apps/app: variable substitution failed: variable not set (strict mode): "cluster_region"',
    );
  });

  it("names the fields a Secret's value reached, however it was transformed, and only those", () => {
    const [out] = run(
      [deployment()],
      vars({ image: "registry/app:1", replicas: "3", cluster_region: "eu", cluster_env: "x" }, ["image", "replicas"]),
    );
    expect(out!.object.spec).toMatchObject({ replicas: 3 });
    expect(out!.sensitive).toEqual(["/spec/replicas", "/spec/template/spec/containers/0/image"]);
    const object = deployment();
    object.metadata.labels = { short: "${image:0:3}", size: "${#image}", other: "${cluster_env}" };
    expect(run([object], vars({ image: "hunter2", cluster_env: "x" }, ["image"]))[0]!.sensitive).toEqual([
      "/metadata/labels/short",
      "/metadata/labels/size",
      "/spec/template/spec/containers/0/image",
    ]);
  });
});
