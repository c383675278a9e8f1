// One kind as the API server serves it; discovery.ts finds them, the disk cache keeps them.
export interface ApiResource {
  group: string;
  version: string;
  kind: string;
  resource: string;
  namespaced: boolean;
  verbs: string[];
  /** True for the version the server prefers for this group. */
  preferred: boolean;
}
