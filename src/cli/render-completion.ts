// Shell completion scripts made from command-specs.ts, the table the parsers
// read: a flag the parser takes is completed, one it refuses never is. Values
// are completed where they are known: the --output, --color and --propagation
// choices, folders for --repo, files for --kubeconfig, the kubeconfig's contexts
// for --context (from kubectl, when it is there).
import type { CommandSpec, Flag } from "./command-specs.ts";

const globals = ["help", "--help", "--version"];

type Specs = Record<string, CommandSpec>;

/** How a flag's value is completed: its choices, folders, files, contexts, or nothing to guess. */
export function valueKind(
  long: string,
  flag: Flag,
): { choices: readonly string[] } | "dir" | "file" | "context" | "none" {
  if (flag.choices) return { choices: flag.choices };
  if (flag.value === "DIR") return "dir";
  if (flag.value === "FILE") return "file";
  if (long === "context") return "context";
  return "none";
}

function flagWords(spec: CommandSpec): string[] {
  return [...Object.entries(spec.flags).map(([long]) => `--${long}`), "--help"];
}

export function renderBashCompletion(specs: Specs): string {
  const names = Object.keys(specs);
  const cases = names.map((name) => {
    const spec = specs[name]!;
    const values: string[] = [];
    for (const [long, flag] of Object.entries(spec.flags)) {
      if (flag.type !== "string") continue;
      const spelled = flag.short ? `--${long}|-${flag.short}` : `--${long}`;
      const kind = valueKind(long, flag);
      const reply =
        kind === "dir"
          ? 'COMPREPLY=($(compgen -d -- "$cur"))'
          : kind === "file"
            ? 'COMPREPLY=($(compgen -f -- "$cur"))'
            : kind === "context"
              ? 'COMPREPLY=($(compgen -W "$(kubectl config get-contexts -o name 2>/dev/null)" -- "$cur"))'
              : kind === "none"
                ? "COMPREPLY=()"
                : `COMPREPLY=($(compgen -W "${kind.choices.join(" ")}" -- "$cur"))`;
      values.push(`        ${spelled}) ${reply}; return ;;`);
    }
    const positional = spec.positional
      ? `      if [[ $cur != -* ]]; then COMPREPLY=($(compgen -W "${spec.positional.split("|").join(" ")}" -- "$cur")); return; fi\n`
      : "";
    const flagCase = values.length > 0 ? `      case "$prev" in\n${values.join("\n")}\n      esac\n` : "";
    return `    ${name})\n${flagCase}${positional}      COMPREPLY=($(compgen -W "${flagWords(spec).join(" ")}" -- "$cur")) ;;`;
  });
  return `# bash completion for undrift, made by \`undrift completion bash\` from its flag tables.
# Install: undrift completion bash > ~/.local/share/bash-completion/completions/undrift
_undrift() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  # bash splits --color=always at "=": complete the value of --flag=value as of --flag value.
  if [[ $cur == "=" ]]; then
    cur=""
  elif [[ $prev == "=" && $COMP_CWORD -ge 2 ]]; then
    prev="\${COMP_WORDS[COMP_CWORD-2]}"
  fi
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "${[...names, ...globals].join(" ")}" -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases.join("\n")}
    help)
      [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -W "${names.join(" ")}" -- "$cur")) ;;
  esac
}
complete -F _undrift undrift
`;
}

/** Text inside a zsh _arguments description: no brackets or colons, which end it, and no single quotes. */
function zshText(text: string): string {
  return text.replace(/[[\]]/g, "").replace(/:/g, " -").replace(/'/g, "");
}

export function renderZshCompletion(specs: Specs): string {
  const names = Object.keys(specs);
  const described = names.map((name) => `    '${name}:${zshText(specs[name]!.summary)}'`);
  const cases = names.map((name) => {
    const spec = specs[name]!;
    const lines = Object.entries(spec.flags).map(([long, flag]) => {
      const description = zshText(flag.description);
      if (flag.type !== "string") return `        '--${long}[${description}]'`;
      const kind = valueKind(long, flag);
      const action =
        kind === "dir"
          ? "_files -/"
          : kind === "file"
            ? "_files"
            : kind === "context"
              ? // biome-ignore lint/suspicious/noTemplateCurlyInString: a zsh expansion, printed as it is.
                '{local -a c; c=(${(f)"$(kubectl config get-contexts -o name 2>/dev/null)"}); _describe context c}'
              : kind === "none"
                ? " "
                : `(${kind.choices.join(" ")})`;
      const value = `:${(flag.value ?? "value").toLowerCase().replace(/[|:]/g, " ")}:${action}`;
      return flag.short
        ? `        '(-${flag.short} --${long})'{-${flag.short}+,--${long}=}'[${description}]${value}'`
        : `        '--${long}=[${description}]${value}'`;
    });
    // zsh shows the label while completing: completion takes a shell, attribution an action.
    const label = name === "completion" ? "shell" : "action";
    if (spec.positional) lines.push(`        '1:${label}:(${spec.positional.split("|").join(" ")})'`);
    lines.push("        '(-h --help)'{-h,--help}'[this command'\\''s help]'");
    return `    ${name})\n      _arguments -s \\\n${lines.join(" \\\n")} ;;`;
  });
  return `#compdef undrift
# zsh completion for undrift, made by \`undrift completion zsh\` from its flag tables.
# Install: undrift completion zsh > "\${fpath[1]}/_undrift", then: autoload -U compinit && compinit
_undrift() {
  local -a commands
  commands=(
${described.join("\n")}
  )
  if (( CURRENT == 2 )); then
    _describe command commands
    _arguments '(-h --help)'{-h,--help}'[the overview]' '(-v --version)'{-v,--version}'[the version]'
    return
  fi
  local command=\${words[2]}
  shift words
  (( CURRENT-- ))
  case $command in
${cases.join("\n")}
    help)
      _describe command commands ;;
  esac
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _undrift "$@"
else
  compdef _undrift undrift
fi
`;
}
