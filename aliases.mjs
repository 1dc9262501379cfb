// The import aliases of tsconfig.json's `paths`, for the tools that do not read it (Vite, Vitest).
// The console's build gets only its own three: it never imports the platform, tests or bench.
import { fileURLToPath } from "node:url";

const aliasesOf = (dirs) => Object.fromEntries(dirs.map((dir) => [`#${dir}`, fileURLToPath(new URL(`./${dir}`, import.meta.url))]));

export const consoleAliases = aliasesOf(["app", "contracts", "common"]);
export const allAliases = aliasesOf(["app", "contracts", "common", "upstream", "tests", "bench"]);
