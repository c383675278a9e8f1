import { describe, expect, it } from "vitest";
import { KubeApiError } from "../../../src/live/errors.ts";

const refused = (status: number, reason: string, message: string) =>
  new KubeApiError({ status, reason, message, verb: "PATCH", path: "/api/v1/namespaces/shop/configmaps/web" });

describe("an API server's refusal, for a message that names its object already", () => {
  it("leaves out the request line and the server's own naming of the object", () => {
    const error = refused(
      403,
      "Forbidden",
      'configmaps "web" is forbidden: User "ci" cannot patch resource "configmaps"',
    );
    expect(error.message).toBe(
      'PATCH /api/v1/namespaces/shop/configmaps/web: 403 Forbidden: configmaps "web" is forbidden: User "ci" cannot patch resource "configmaps"',
    );
    expect(error.refusal).toBe('403 Forbidden: User "ci" cannot patch resource "configmaps"');
    expect(refused(422, "Invalid", 'ConfigMap "web" is invalid: data: Too long').refusal).toBe(
      "422 Invalid: data: Too long",
    );
    expect(refused(409, "Conflict", "the object has been modified").refusal).toBe(
      "409 Conflict: the object has been modified",
    );
  });
});
