// SHOP_BUILD_NAME lets several builds live side by side (e.g. parallel local test runs);
// it defaults to the standard build/ and public/build/ folders.
const name = process.env.SHOP_BUILD_NAME || "build";

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  tailwind: true,
  serverBuildPath: `${name}/index.js`,
  assetsBuildDirectory: `public/${name}`,
  publicPath: `/${name}/`,
  cacheDirectory: `.cache/${name}`,
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: false,
  },
};
