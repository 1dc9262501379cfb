import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * What the docs say of the code, held true where a machine can tell: the files and folders
 * docs/architecture.md and README.md name exist, the functions and tables the architecture names
 * exist, its layer tables are the dependency-cruiser rules, and no file of the repository refers
 * to an issue by its number (decisions are named instead: an issue's number means nothing to a
 * reader of the code).
 */

const ROOT = join(import.meta.dirname, "../..");
/** What .gitignore leaves out, and git's own folder. */
const IGNORED = new Set(["node_modules", "build", "data", ".cache", "test-results", "playwright-report", ".git", "bench/.work"]);

function repositoryFiles(folder = ROOT): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    const name = relative(ROOT, path);
    if (IGNORED.has(name) || IGNORED.has(entry.name)) return [];
    return entry.isDirectory() ? repositoryFiles(path) : entry.isFile() ? [name] : [];
  });
}

const files = repositoryFiles();
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const architecture = read("docs/architecture.md");
const readme = read("README.md");
const quoted = (text: string) => [...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);

/**
 * A quoted word is a path when it has a folder or a file ending, unless it is an address, an
 * alias, a setting's value (`./data`) or under an environment variable (`DATA_DIR/…`).
 */
function isPath(word: string): boolean {
  if (/\s|:\/\/|[=?…]/.test(word) || /^[/#.]/.test(word) || /^[A-Z_]+\//.test(word)) return false;
  return word.includes("/") || /\.(tsx?|mjs|cjs|js|json|md|css|sh)$/.test(word);
}

/**
 * Whether a named path exists: from the repository's root, or within a side (the layer tables
 * name folders of app/ and upstream/), or — a bare file name — anywhere. `<screen>`, `NNN` and
 * `*` stand for any name.
 */
function exists(word: string): boolean {
  const pattern = word
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/<[^>/]+>/g, "[^/]+")
    .replace(/NNN/g, "\\d+")
    .replace(/\*/g, "[^/]*");
  const within = word.includes("/") ? "(?:app/|upstream/)?" : "(?:.*/)?";
  const matcher = new RegExp(`^${within}${pattern}${word.endsWith("/") ? "" : "(?:/|$)"}`);
  return files.some((file) => matcher.test(file));
}

describe("docs/architecture.md and README.md", () => {
  it("name only files and folders that exist", () => {
    const named = [...quoted(architecture), ...quoted(readme)].filter(isPath);
    expect(named.length).toBeGreaterThan(30);
    expect(named.filter((word) => !exists(word))).toEqual([]);
  });

  it("name only functions and components the code declares or imports", () => {
    const sources = files.filter((file) => /\.(tsx?|mjs)$/.test(file)).map(read);
    const names = [...new Set(quoted(architecture).map((word) => /^<?([A-Za-z]\w*)[(>]/.exec(word)?.[1] ?? word))].filter((word) =>
      /^[a-z]+[A-Z]\w*$|^[A-Z][a-z]+[A-Z]\w*$/.test(word),
    );
    expect(names).toEqual(expect.arrayContaining(["parseInput", "requireRole", "requireAccess", "keysetPage", "ConfirmStep"]));
    const known = (name: string) =>
      sources.some((source) =>
        new RegExp(`(function|const|class|type|interface)\\s+${name}\\b|import\\s*(type\\s*)?\\{[^}]*\\b${name}\\b[^}]*\\}\\s*from`).test(
          source,
        ),
      );
    expect(names.filter((name) => !known(name))).toEqual([]);
  });

  it("name only tables the database has", () => {
    const schema = read("upstream/db/schema.ts");
    const tables = new Set(
      [.../export interface Database \{([^}]*)\}/.exec(schema)![1]!.matchAll(/^\s*(\w+):/gm)].map((match) => match[1]),
    );
    const named = [...architecture.matchAll(/`([a-z_]+)`(?= table)|`([a-z]+_[a-z_]+)`/g)].map((match) => match[1] ?? match[2]);
    expect(named).toEqual(expect.arrayContaining(["notifications", "audit_log"]));
    expect(named.filter((name) => !tables.has(name))).toEqual([]);
  });
});

/** The layer tables of docs/architecture.md: each folder (from the repository's root) and what it may import. */
function documentedLayers(): Map<string, { may: string[]; types: string[] }> {
  const layers = new Map<string, { may: string[]; types: string[] }>();
  const section = architecture.slice(architecture.indexOf("## The layers"), architecture.indexOf("## How a request travels"));
  for (const [, side, table] of section.matchAll(/\*\*\w+ \(`(\w+\/)`\)\*\*\n\n((?:\|.*\n)+)/g)) {
    const within = (name: string) => (/^(contracts|common)\//.test(name) ? name : side + name);
    for (const row of table!.split("\n").slice(2, -1)) {
      const [folders, , allowed] = row.split(" | ").map((cell) => cell.replace(/^\| |\|$/g, "").trim());
      if (allowed === "anything") continue; // seed/ wires everything; it has no rule
      const pieces = allowed === "—" ? [] : allowed!.split(/[,;] /);
      const names = (typesOnly: boolean) =>
        pieces.filter((piece) => piece.includes("(types only)") === typesOnly).flatMap((piece) => quoted(piece).map(within));
      for (const folder of quoted(folders!)) {
        layers.set(within(folder.replace(/<[^>]+>\/$/, "")), { may: names(false).sort(), types: names(true).sort() });
      }
    }
  }
  return layers;
}

/** The layer rules .dependency-cruiser.cjs gives dependency-cruiser, read back from their patterns. */
function enforcedLayers(): Map<string, { may: string[]; types: string[] }> {
  type Rule = { name: string; from: { path: string }; to: { path: string | string[]; pathNot?: string[] } };
  const config = createRequire(import.meta.url)(join(ROOT, ".dependency-cruiser.cjs")) as { forbidden: Rule[] };
  const path = (pattern: string) => pattern.replace(/^\^/, "").replace(/\$$/, "").replace(/\\\./g, ".");
  const layers = new Map<string, { may: string[]; types: string[] }>();
  for (const rule of config.forbidden.filter((rule) => rule.name.startsWith("layer "))) {
    const folder = path(rule.from.path);
    const layer = layers.get(folder) ?? { may: [], types: [] };
    if (rule.name.endsWith("(types)")) layer.types = [rule.to.path].flat().map(path).sort();
    else layer.may = rule.to.pathNot!.map(path).filter((name) => name !== folder);
    layers.set(folder, layer);
  }
  for (const layer of layers.values()) layer.may = layer.may.filter((name) => !layer.types.includes(name)).sort();
  return layers;
}

describe("the layers", () => {
  it("docs/architecture.md states are the dependency-cruiser rules", () => {
    const documented = documentedLayers();
    expect(documented.size).toBeGreaterThan(15);
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(enforcedLayers()));
  });
});

describe("the repository", () => {
  it("refers to no issue by its number", () => {
    const text = files.filter((file) => /\.(tsx?|mjs|cjs|js|css|md|sh|json)$/.test(file) && file !== "package-lock.json");
    const numbered = text.flatMap((file) =>
      read(file)
        .split("\n")
        .flatMap((line, index) =>
          /\bissues?\s+#?\d|\(#\d+\)|\bpull request\s+#?\d/i.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(text.length).toBeGreaterThan(300);
    expect(numbered).toEqual([]);
  });
});
