import path from "node:path";
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";

// Loaders and actions return plain objects (or `data()`), typed as single fetch sends them.
declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

// SHOP_BUILD_NAME lets several builds live side by side (e.g. parallel local test runs);
// it defaults to build/ (build/server/index.js for the server, build/client/ for the browser).
const buildDirectory = process.env.SHOP_BUILD_NAME || "build";

export default defineConfig(({ isSsrBuild }) => ({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  // public/ is served as it is by the server (server/app.js), not copied into the build.
  // The server bundle runs on Node 20 (top-level await in entry.server.tsx).
  build: {
    copyPublicDir: false,
    cssMinify: true,
    target: isSsrBuild ? "node20" : "es2022",
    minify: isSsrBuild ? false : "terser",
    terserOptions: { compress: { passes: 2 } },
  },
  // `npm run dev`: the browser's dependencies are bundled once at start. Server-only packages, which
  // Vite's scan finds through the routes' loaders, are left out: finding them later made Vite bundle
  // again and reload the open page, whose old modules then failed to load.
  optimizeDeps: {
    include: ["zod", "@conform-to/react", "@conform-to/zod/v4"],
    exclude: [
      "@remix-run/node",
      "remix-toast",
      "drizzle-orm",
      "better-sqlite3",
      "pg",
      "nodemailer",
      "stripe",
      "@epic-web/totp",
      "qrcode",
    ],
  },
  // `npm run dev`: the shop on http://localhost:3000 (PORT to change it), reloaded as its files change.
  server: { port: Number(process.env.PORT) || 3000 },
  plugins: [
    remix({
      buildDirectory,
      serverModuleFormat: "esm",
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
        v3_routeConfig: true,
      },
    }),
  ],
}));
