// HTML built by a tagged template that escapes every value it is given, so a
// name from a repository or a cluster (`<script>` as a label value) is text on
// the status page, never markup. Only what `html` itself built goes in raw.
//
//   html`<td>${target.name}</td>`            // escaped
//   html`<ul>${items.map((i) => html`<li>${i}</li>`)}</ul>`

/** Markup made by `html`: the one thing interpolated without escaping. */
export class Html {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text made safe inside an element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** Values: Html as is; arrays item by item; null, undefined and false as nothing; anything else escaped. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    out += piece(value) + (strings[i + 1] ?? "");
  });
  return new Html(out);
}

function piece(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(piece).join("");
  if (value === undefined || value === null || value === false) return "";
  return escapeHtml(String(value));
}

/** A link target from outside (a stored issue URL): http(s) only, so no `javascript:` can ride in. */
export function safeHref(url: string | undefined): string | undefined {
  if (!url || !URL.canParse(url)) return undefined;
  return /^https?:$/.test(new URL(url).protocol) ? url : undefined;
}

/** JSON for a `<script type="application/json">` element: no `</script>` can close it early. */
export function scriptJson(value: unknown): Html {
  return new Html(
    JSON.stringify(value)
      .replace(/</g, "\\u003c")
      .replace(/\u2028|\u2029/g, ""),
  );
}
