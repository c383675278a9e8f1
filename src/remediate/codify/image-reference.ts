// Container image references split the way kustomize's `images:` transformer
// reads them: name (with registry and port), tag, digest.

export interface ImageReference {
  name: string;
  tag?: string;
  digest?: string;
}

export function parseImage(image: string): ImageReference {
  const [rest = "", digest] = image.split("@", 2);
  const slash = rest.lastIndexOf("/");
  const colon = rest.lastIndexOf(":");
  const hasTag = colon > slash;
  return {
    name: hasTag ? rest.slice(0, colon) : rest,
    ...(hasTag ? { tag: rest.slice(colon + 1) } : {}),
    ...(digest ? { digest } : {}),
  };
}
