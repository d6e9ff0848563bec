// ESLint flat config: recommended rules for JavaScript, TypeScript, React and its hooks,
// an import-cycle check, and the layers of docs/architecture.md as import restrictions, down to
// which services folder may call which.
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** Imports a layer may not make at run time (type-only imports stay allowed). */
function layer(files, forbidden) {
  return {
    files,
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: forbidden.map(({ group, message }) => ({ group, message, allowTypeImports: true })),
        },
      ],
    },
  };
}

const SERVICES = { group: ["~/services/*", "**/services/*"], message: "Services run on the server: call them from a route." };
const ROUTES = { group: ["~/routes/*", "**/routes/*"], message: "Routes are the top layer: nothing imports them." };
const HTTP = { group: ["~/http/*", "**/http/*"], message: "HTTP helpers belong to routes, not to this layer." };
const DB = { group: ["~/db/*", "**/db/*"], message: "Only services talk to the database." };
const COMPONENTS = { group: ["~/components/*", "**/components/*"], message: "Views are above this layer." };
const PAGES = { group: ["~/pages/*", "**/pages/*"], message: "A page's loader or action belongs to its route only." };
const OPENAPI = { group: ["~/openapi/*", "**/openapi/*"], message: "The OpenAPI document belongs to its routes and tests." };

/**
 * The folders of app/services, from the top down: each may call the folders after it, never one
 * before it (docs/architecture.md, « Les dossiers des services »). The loose files of app/services
 * are not ranked.
 */
const SERVICE_FOLDERS = ["payments", "subscriptions", "cart-reminders", "email", "orders", "promotions", "customers"];

const serviceFolder = (name) => ({
  group: [`~/services/${name}/*`, `**/services/${name}/*`, `../${name}/*`],
  message: `services/${name}/ is above this folder: move the shared piece down, or pass it a callback.`,
});

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "public/build/**",
      "build-*/**",
      "public/build-*/**",
      ".cache/**",
      "node_modules/**",
      "tests/.tmp/**",
      "test-results/**",
      "reports/**",
      "drizzle/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    ...react.configs.flat.recommended,
    settings: { react: { version: "18" } },
    rules: {
      ...react.configs.flat.recommended.rules,
      // French copy is full of apostrophes; only the characters that really break JSX are refused.
      "react/no-unescaped-entities": ["error", { forbid: [">", "}"] }],
      // TypeScript checks the props.
      "react/prop-types": "off",
    },
  },
  {
    files: ["**/*.{ts,tsx}"],
    ...react.configs.flat["jsx-runtime"],
  },
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
    },
  },
  {
    files: ["**/*.{js,ts,tsx}"],
    plugins: { "import-x": importX },
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
      parserOptions: { ecmaFeatures: { jsx: true } },
    },
    settings: {
      // The imported files are read with the TypeScript parser: without it, no-cycle never looks
      // inside a .ts or .tsx file and cannot see a cycle.
      "import-x/extensions": [".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/external-module-folders": ["node_modules", "node_modules/@types"],
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    files: ["stripe-emulator/**/*.js", "scripts/**/*.js", "*.config.js", ".ci/**/*.js"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // Playwright fixtures are not React hooks, and take their options as an empty pattern.
    files: ["tests/e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off", "no-empty-pattern": "off" },
  },
  {
    // Every e2e test is a shopper with an address of its own (tests/e2e/shopper.ts).
    files: ["tests/e2e/**"],
    ignores: ["tests/e2e/shopper.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@playwright/test",
              importNames: ["test"],
              message: "Import test from ./shopper (or a fixtures module built on it): each test sends its own address.",
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  // A page's loader or action (app/pages) is a piece of its route: the layer of app/http.
  layer(["app/pages/**"], [ROUTES, OPENAPI, COMPONENTS]),
  layer(["app/http/**"], [ROUTES, PAGES, OPENAPI, COMPONENTS]),
  // The OpenAPI document is built from the schemas alone: it reads no service and no database.
  layer(["app/openapi/**"], [SERVICES, ROUTES, PAGES, DB, COMPONENTS]),
  layer(["app/components/**", "app/lib/**", "app/content/**"], [SERVICES, ROUTES, HTTP, PAGES, DB, OPENAPI]),
  // The shop's texts and brand facts (app/content) sit beside the helpers of app/lib, with their rules.
  layer(["app/lib/**", "app/content/**"], [SERVICES, ROUTES, HTTP, PAGES, DB, OPENAPI, COMPONENTS]),
  layer(["app/services/**"], [ROUTES, HTTP, PAGES, OPENAPI, COMPONENTS]),
  // A services folder keeps the rule of its layer, and may not call the folders above it.
  ...SERVICE_FOLDERS.map((name, rank) =>
    layer(
      [`app/services/${name}/**`],
      [ROUTES, HTTP, PAGES, OPENAPI, COMPONENTS, ...SERVICE_FOLDERS.slice(0, rank).map(serviceFolder)],
    ),
  ),
  // The legal texts and the email templates are data and views: they are given what they show.
  layer(["app/legal/**", "app/emails/**"], [SERVICES, ROUTES, HTTP, PAGES, DB, OPENAPI, COMPONENTS]),
  layer(["app/schemas/**"], [SERVICES, ROUTES, HTTP, PAGES, DB, OPENAPI, COMPONENTS]),
  layer(["app/db/**"], [SERVICES, ROUTES, HTTP, PAGES, OPENAPI, COMPONENTS]),
  // The card field is written once (components/checkout/CardField.tsx): every card form uses it.
  {
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/components/checkout/CardField.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@stripe/react-stripe-js",
              importNames: ["CardElement"],
              message: "Use CardField (components/checkout/CardField.tsx): one card field for every card form.",
            },
          ],
        },
      ],
    },
  },
);
