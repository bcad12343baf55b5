// Reads the small YAML subset compose.yaml is written in (block mappings and lists, quoted or plain scalars, JSON-style
// flow lists, anchors and aliases, full-line comments), and refuses anything else, so a change of style fails loudly.

export type YamlValue = string | YamlValue[] | { [key: string]: YamlValue };

interface Line {
  indent: number;
  text: string;
  number: number;
}

export function parseComposeYaml(source: string): YamlValue {
  const lines: Line[] = source.split("\n").flatMap((raw, i) => {
    const text = raw.trimEnd();
    const trimmed = text.trimStart();
    if (trimmed === "" || trimmed.startsWith("#")) return [];
    if (/\t/.test(text.slice(0, text.length - trimmed.length))) throw new Error(`line ${i + 1}: tab indentation`);
    return [{ indent: text.length - trimmed.length, text: trimmed, number: i + 1 }];
  });
  const anchors = new Map<string, YamlValue>();
  let at = 0;

  const scalar = (raw: string, line: Line): YamlValue => {
    if (raw.startsWith("*")) {
      const value = anchors.get(raw.slice(1));
      if (value === undefined) throw new Error(`line ${line.number}: unknown alias ${raw}`);
      return value;
    }
    if (raw.startsWith('"') || raw.startsWith("[")) return JSON.parse(raw) as YamlValue;
    if (
      raw.startsWith("'") ||
      raw.startsWith("{") ||
      raw.startsWith("&") ||
      raw.startsWith("|") ||
      raw.startsWith(">") ||
      / #/.test(raw)
    ) {
      throw new Error(`line ${line.number}: YAML this reader does not take: ${raw}`);
    }
    return raw;
  };

  const block = (indent: number): YamlValue => {
    const first = lines[at];
    if (!first || first.indent !== indent)
      throw new Error(`line ${first?.number ?? "end"}: expected a block at indent ${indent}`);
    if (first.text.startsWith("- ")) {
      const list: YamlValue[] = [];
      while (lines[at] && (lines[at] as Line).indent === indent && (lines[at] as Line).text.startsWith("- ")) {
        const line = lines[at++] as Line;
        list.push(scalar(line.text.slice(2).trim(), line));
      }
      return list;
    }
    const map: { [key: string]: YamlValue } = {};
    while (lines[at] && (lines[at] as Line).indent === indent) {
      const line = lines[at++] as Line;
      const match = /^([A-Za-z0-9_.-]+):(?: (.*))?$/.exec(line.text);
      if (!match) throw new Error(`line ${line.number}: expected "key: value", got ${line.text}`);
      const [, key = "", rest = ""] = match;
      const anchor = /^&([A-Za-z0-9_-]+)$/.exec(rest.trim());
      if (rest.trim() === "" || anchor) {
        const next = lines[at];
        map[key] = next && next.indent > indent ? block(next.indent) : "";
        if (anchor) anchors.set(anchor[1] as string, map[key]);
      } else {
        map[key] = scalar(rest.trim(), line);
      }
    }
    const stray = lines[at];
    if (stray && stray.indent > indent) throw new Error(`line ${stray.number}: unexpected indentation`);
    return map;
  };

  const document = block(0);
  if (at < lines.length) throw new Error(`line ${lines[at]?.number}: not read`);
  return document;
}
