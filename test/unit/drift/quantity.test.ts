import { describe, expect, it } from "vitest";
import { isQuantityPath, parseQuantity, sameQuantity } from "../../../src/drift/quantity.ts";

describe("resource quantities", () => {
  it.each([
    ["0.5", "500m"],
    [0.5, "500m"],
    [".5", "500m"],
    ["1Gi", "1024Mi"],
    ["1Mi", "1024Ki"],
    ["1e3", "1k"],
    ["1E3", "1k"],
    ["1e-3", "1m"],
    ["1500m", "1.5"],
    [1, "1"],
    ["2", "2000m"],
    ["128974848000m", "123Mi"],
    ["129M", "129e6"],
    ["1E", "1000P"],
    ["0", "0Mi"],
  ])("%j is the same amount as %j", (a, b) => {
    expect(sameQuantity(a, b)).toBe(true);
    expect(sameQuantity(b, a)).toBe(true);
  });

  it.each([
    ["1", "1m"],
    ["1Gi", "1G"],
    ["1k", "1Ki"],
    ["1E", "1"],
    ["500m", "0.05"],
    ["100Mi", "100M"],
  ])("%j is not the same amount as %j", (a, b) => {
    expect(sameQuantity(a, b)).toBe(false);
  });

  it.each(["", "abc", "1.2.3", "1Gb", "ten", "1 Gi", "--1"])("%j is not a quantity, so never equal to one", (text) => {
    expect(parseQuantity(text)).toBeUndefined();
    expect(sameQuantity(text, text)).toBe(false);
  });

  it("a value that is not text or a number is not a quantity", () => {
    expect(parseQuantity({ cpu: "1" })).toBeUndefined();
    expect(parseQuantity(null)).toBeUndefined();
  });
});

describe("where a value is a quantity", () => {
  const container = ["f:spec", "f:template", "f:spec", "f:containers", 'k:{"name":"web"}', "f:resources"];

  it.each([
    [[...container, "f:requests", "f:cpu"], "Deployment"],
    [[...container, "f:limits", "f:memory"], "Deployment"],
    [["f:spec", "f:hard", "f:requests.memory"], "ResourceQuota"],
    [["f:spec", "f:capacity", "f:storage"], "PersistentVolume"],
    [["f:spec", "f:resources", "f:requests", "f:storage"], "PersistentVolumeClaim"],
    [["f:spec", "f:volumes", 'k:{"name":"cache"}', "f:emptyDir", "f:sizeLimit"], "Pod"],
    [["f:spec", "f:limits", "i:0", "f:max", "f:cpu"], "LimitRange"],
  ])("%j of a %s holds a quantity", (path, kind) => {
    expect(isQuantityPath(path, kind)).toBe(true);
  });

  it.each([
    [["f:spec", "f:replicas"], "Deployment"],
    [[...container, "f:image"], "Deployment"],
    [["f:data", "f:cpu"], "ConfigMap"],
    [["f:data", "f:memory"], "ConfigMap"],
    [["f:data", "f:storage"], "ConfigMap"],
    [["f:data", "f:sizeLimit"], "ConfigMap"],
    [["f:metadata", "f:labels", "f:storage"], "Deployment"],
  ])("%j of a %s is not a quantity", (path, kind) => {
    expect(isQuantityPath(path, kind)).toBe(false);
  });
});
