// The grammar of Flux's post-build substitution (fluxcd/pkg/envsubst, a fork of
// drone/envsubst; parse/parse.go and parse/scan.go), reimplemented: text with
// `${...}` expressions. Outside an expression `$$` is one `$` (so `$${var}` is
// the text `${var}`), and `$var` or a lone `$` is text. Inside, a name of
// letters, digits and `_`, then at most one operator: `:=` `:-` `:?` `:+` `=`
// (defaults), `:offset[:length]`, `#`/`##`/`%`/`%%` (trim a glob), `/` `//` `/#`
// `/%` (replace; `\/`, `\\` and `$$` escape there), `,` `,,` `^` `^^` (case);
// `${#var}` is the length. An argument may hold another `${...}`. Anything else
// (`${}`, `${a.b}`, `${a-b}`, an unclosed `${`) fails the whole parse, as Flux's
// does, with its words.

/** A piece of the template: text as it reads, or an expression of a variable. */
export type TemplateNode =
  | { text: string }
  | {
      /** The variable's name. */
      param: string;
      /** The operator as written (`""` for plain `${var}`, `":="`, `"//"`, `"#"` for the length, ...). */
      op: string;
      /** Each argument, itself a template. */
      args: TemplateNode[][];
    };

/** The template does not parse: Flux fails the Kustomization's build with the same words. */
export class TemplateSyntaxError extends Error {
  override name = "TemplateSyntaxError";
}

const BAD_SUBSTITUTION = "bad substitution";
const MISSING_BRACE = "missing closing brace";
const BAD_NAME = "unable to parse variable name";
const BAD_ARGUMENT = "unable to parse substitution within function";
const BAD_DEFAULT = "unable to parse default function";

const isIdent = (c: string | undefined) => c !== undefined && /^[\p{L}\p{Nd}_]$/u.test(c);

/** Parses `source`; throws TemplateSyntaxError. */
export function parseTemplate(source: string): TemplateNode[] {
  return new Parser(source).top();
}

class Parser {
  private readonly chars: string[];
  private at = 0;

  constructor(source: string) {
    this.chars = [...source];
  }

  private peek(offset = 0): string | undefined {
    return this.chars[this.at + offset];
  }

  private opensExpression(): boolean {
    return this.peek() === "$" && this.peek(1) === "{";
  }

  private fail(why: string): never {
    throw new TemplateSyntaxError(why);
  }

  top(): TemplateNode[] {
    const nodes: TemplateNode[] = [];
    let text = "";
    while (this.at < this.chars.length) {
      if (this.opensExpression()) {
        if (text) nodes.push({ text });
        text = "";
        this.at += 2;
        nodes.push(this.expression());
      } else if (this.peek() === "$" && this.peek(1) === "$") {
        text += "$";
        this.at += 2;
      } else {
        text += this.peek();
        this.at++;
      }
    }
    if (text) nodes.push({ text });
    return nodes;
  }

  /** Characters `accept` takes, stopping before `${` (an argument's nested expression); escapes per `escapes`. */
  private run(accept: (c: string) => boolean, escapes = false): string {
    let out = "";
    while (this.at < this.chars.length && !this.opensExpression()) {
      const c = this.peek()!;
      const next = this.peek(1);
      if (escapes && ((c === "$" && next === "$") || (c === "\\" && (next === "/" || next === "\\")))) {
        out += next;
        this.at += 2;
        continue;
      }
      if (!accept(c)) break;
      out += c;
      this.at++;
    }
    return out;
  }

  /** An operator: up to `max` characters each of which `accept` takes at its position (1-based). */
  private operator(accept: (c: string, i: number) => boolean, max: number, why: string): string {
    let op = "";
    while (op.length < max && this.peek() !== undefined && accept(this.peek()!, op.length + 1))
      op += this.chars[this.at++];
    if (!op) this.fail(why);
    return op;
  }

  /** One argument: a nested expression, or text `accept` takes (at least one character). */
  private argument(accept: (c: string) => boolean, escapes = false): TemplateNode {
    if (this.opensExpression()) {
      this.at += 2;
      return this.expression();
    }
    const start = this.at;
    const text = this.run(accept, escapes);
    if (this.at === start) this.fail(BAD_ARGUMENT);
    return { text };
  }

  private closing(why = BAD_SUBSTITUTION): void {
    if (this.peek() !== "}") this.fail(why);
    this.at++;
  }

  /** After `${`. */
  private expression(): TemplateNode {
    if (this.peek() === "#") {
      this.at++;
      const param = this.run(isIdent);
      if (!param) this.fail(BAD_SUBSTITUTION);
      this.closing();
      return { param, op: "#", args: [] };
    }
    const param = this.run(isIdent);
    if (!param) this.fail(BAD_NAME);
    switch (this.peek()) {
      case ":":
        return "=-?+".includes(this.peek(1) ?? "x") ? this.defaults(param) : this.substring(param);
      case "=":
        return this.defaults(param);
      case ",":
      case "^": {
        const op = this.operator((c) => c === "," || c === "^", 2, BAD_SUBSTITUTION);
        this.closing();
        return { param, op, args: [] };
      }
      case "/":
        return this.replace(param);
      case "#":
      case "%": {
        const sign = this.peek()!;
        const op = this.operator((c) => c === sign, 2, BAD_SUBSTITUTION);
        const args = [[this.argument((c) => c !== "}")]];
        this.closing();
        return { param, op, args };
      }
      default:
        this.closing(MISSING_BRACE);
        return { param, op: "", args: [] };
    }
  }

  /** `${var=d}`, `${var:=d}`, `${var:-d}`, `${var:?d}`, `${var:+d}`: the default is any run of text and expressions. */
  private defaults(param: string): TemplateNode {
    const op =
      this.peek() === "="
        ? this.operator((c, i) => i === 1 && c === "=", 1, BAD_DEFAULT)
        : this.operator((c, i) => (i === 1 ? c === ":" : "=-?+".includes(c)), 2, BAD_DEFAULT);
    const parts: TemplateNode[] = [];
    while (this.peek() !== "}") parts.push(this.argument((c) => c !== "}"));
    this.at++;
    // Flux evaluates each part as an argument and joins them: one argument of all the parts is the same.
    return { param, op, args: parts.length > 0 ? [parts] : [] };
  }

  /** `${var:offset}` and `${var:offset:length}`. */
  private substring(param: string): TemplateNode {
    this.at++; // the ':'
    const args = [[this.argument((c) => c !== ":" && c !== "}")]];
    if (this.peek() === "}") {
      this.at++;
      return { param, op: ":", args };
    }
    if (this.peek() !== ":") this.fail(BAD_SUBSTITUTION);
    while (this.peek() === ":") this.at++;
    args.push([this.argument((c) => c !== "}")]);
    this.closing();
    return { param, op: ":", args };
  }

  /** `${var/pattern/replacement}`, with `//`, `/#`, `/%`; the replacement may be left out. */
  private replace(param: string): TemplateNode {
    const op = this.operator((c, i) => (i === 1 ? c === "/" : "/#%".includes(c)), 2, BAD_SUBSTITUTION);
    const args = [[this.argument((c) => c !== "/", true)]];
    if (this.peek() !== "/") this.fail(BAD_SUBSTITUTION);
    while (this.peek() === "/") this.at++;
    if (this.peek() === "}") {
      this.at++;
      return { param, op, args };
    }
    args.push([this.argument((c) => c !== "}", true)]);
    this.closing();
    return { param, op, args };
  }
}
