// Whether an object is a core Secret, whose values no output, log, queue or
// store may hold: every layer asks, from the engine to the cluster client.
export function isSecret(object: { apiVersion: string; kind: string }): boolean {
  return object.kind === "Secret" && object.apiVersion === "v1";
}
