import { describe, expect, it } from "vitest";
import {
  declaredKeyString,
  groupKindKey,
  groupOf,
  keyString,
  kindKeyOf,
  nameKeyOf,
  objectKey,
  versionKindKey,
} from "../../../src/model/object-key.ts";
import { objectLabel } from "../../../src/model/object-label.ts";

describe("object keys", () => {
  it("keys an object by group, kind, namespace and name, without the version", () => {
    const key = objectKey({ apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web", namespace: "shop" } });
    expect(key).toEqual({ group: "apps", kind: "Deployment", namespace: "shop", name: "web" });
    expect(keyString(key)).toBe("apps/Deployment/shop/web");
    expect(objectLabel(key, { spelling: "group" })).toBe("apps/Deployment shop/web");
  });

  it("leaves the core group and a cluster scope as empty parts, so every key string has four", () => {
    const configMap = objectKey({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "app", namespace: "shop" } });
    const role = objectKey({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRole",
      metadata: { name: "admin" },
    });
    expect(keyString(configMap)).toBe("/ConfigMap/shop/app");
    expect(keyString(role)).toBe("rbac.authorization.k8s.io/ClusterRole//admin");
    expect(objectLabel(configMap, { spelling: "group" })).toBe("ConfigMap shop/app");
    expect(objectLabel(role, { spelling: "group" })).toBe("rbac.authorization.k8s.io/ClusterRole admin");
  });

  it("reads the group of an apiVersion", () => {
    expect([groupOf("v1"), groupOf("apps/v1"), groupOf("example.com/v1alpha1")]).toEqual(["", "apps", "example.com"]);
  });

  it("keys a kind by group and kind, one key for every version of it, the core group empty", () => {
    expect(kindKeyOf({ apiVersion: "apps/v1", kind: "Deployment" })).toBe("apps/Deployment");
    expect(kindKeyOf({ apiVersion: "apps/v1beta2", kind: "Deployment" })).toBe("apps/Deployment");
    expect(kindKeyOf({ apiVersion: "v1", kind: "ConfigMap" })).toBe(groupKindKey("", "ConfigMap"));
    expect(groupKindKey("example.com", "Widget")).toBe("example.com/Widget");
    expect(versionKindKey("apps", "v1", "Deployment")).not.toBe(versionKindKey("apps", "v1beta2", "Deployment"));
  });

  it("keeps a desired object's declared version in its key, and keys by namespace and name within a kind", () => {
    const v1 = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web", namespace: "shop" } };
    const beta = { ...v1, apiVersion: "apps/v1beta2" };
    expect(declaredKeyString(v1)).toBe("apps/v1|apps/Deployment/shop/web");
    expect(declaredKeyString(beta)).not.toBe(declaredKeyString(v1));
    expect(nameKeyOf(v1)).toBe("shop/web");
    expect(nameKeyOf({ metadata: { name: "admin" } })).toBe("/admin");
  });
});
