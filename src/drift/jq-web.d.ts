// jq-web ships no types: its default export is a promise of { json, raw }.
declare module "jq-web" {
  const jq: PromiseLike<{ json(value: unknown, filter: string): unknown; raw(json: string, filter: string): string }>;
  export default jq;
}
