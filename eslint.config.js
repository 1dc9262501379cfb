// ESLint: the recommended JavaScript and TypeScript rules, React's rules of hooks, and jsx-a11y's
// accessibility rules for every component; Prettier owns formatting (eslint-config-prettier).
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "build/",
      "data/",
      ".cache/",
      "node_modules/",
      "bench/.work/",
      "test-results/",
      "playwright-report/",
      "public/cti/",
      "upstream/fixtures/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports", disallowTypeAnnotations: false }],
      // Kysely's query builders start from an empty selection, written `{}`.
      "@typescript-eslint/no-empty-object-type": ["error", { allowObjectTypes: "always" }],
      // Exports and XML strip control characters on purpose.
      "no-control-regex": "off",
      "@typescript-eslint/no-explicit-any": "error",
      eqeqeq: ["error", "always", { null: "ignore" }],
    },
  },
  {
    files: ["app/**/*.tsx"],
    plugins: { "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    rules: {
      // The rules of hooks; the React Compiler's further rules are not taken up (no compiler here).
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      ...jsxA11y.flatConfigs.recommended.rules,
      // VoiceOver drops the list role of a list styled without bullets, so menus say it again.
      "jsx-a11y/no-redundant-roles": ["error", { ul: ["list"] }],
      // A call recording is shown beside its transcript, which is its text alternative.
      "jsx-a11y/media-has-caption": "off",
      // Only where a screen has one thing to do: the sign-in form, the chat reply box.
      "jsx-a11y/no-autofocus": "off",
    },
  },
  {
    // Migrations describe tables that their own time's types do not know.
    files: ["upstream/db/migrations/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  prettier,
);
