// node scripts/social-images.js: draws the shop's images for link previews and search engines
// with Debian's Chromium (CHROMIUM_PATH to choose another one), from the shop's own drawings:
// - public/images/og-image.png (1200×630): the preview of a shared link (og:image, twitter:image);
// - public/images/logo.png (512×512): the logo of the Organization data on the landing page.
// Run it again after changing the drawings or the brand name, and commit the PNG files.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { chromium } from "playwright";

const root = path.resolve(import.meta.dirname, "..");
const images = path.join(root, "public/images");
const BRAND = "Maison Éclat";

const executablePath =
  process.env.CHROMIUM_PATH ??
  (existsSync("/usr/bin/chromium-headless-shell") ? "/usr/bin/chromium-headless-shell" : "/usr/bin/chromium");

const svg = (name) => `data:image/svg+xml;base64,${readFileSync(path.join(images, name)).toString("base64")}`;

const FONTS = `
  .serif { font-family: Georgia, "DejaVu Serif", "Liberation Serif", serif; }
  .sans { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; }
`;

const socialCard = `<!doctype html><html lang="fr"><head><meta charset="utf-8"><style>
  ${FONTS}
  * { margin: 0; box-sizing: border-box; }
  body { width: 1200px; height: 630px; background: #fbf7f3; color: #2a1f2d; display: flex; overflow: hidden; }
  .text { width: 640px; padding: 72px 56px 64px 80px; display: flex; flex-direction: column; justify-content: center; }
  .kicker { font-size: 22px; letter-spacing: 0.2em; text-transform: uppercase; color: #8a3146; font-weight: 700; }
  h1 { margin-top: 22px; font-size: 84px; line-height: 1.02; font-weight: 400; }
  p { margin-top: 28px; font-size: 32px; line-height: 1.35; color: #5b4d5e; }
  .rule { margin-top: 36px; width: 96px; height: 4px; background: #c9566e; border-radius: 2px; }
  .picture { width: 560px; height: 630px; background: #fbe4e8; display: flex; align-items: center; justify-content: center; }
  .picture img { width: 560px; height: 560px; }
</style></head><body>
  <div class="text">
    <div class="kicker sans">Masques au collagène</div>
    <h1 class="serif">${BRAND}</h1>
    <div class="rule"></div>
    <p class="sans">Hydratation, éclat et fermeté en 20 minutes.</p>
  </div>
  <div class="picture"><img src="${svg("product-box.svg")}" alt=""></div>
</body></html>`;

const logo = `<!doctype html><html lang="fr"><head><meta charset="utf-8"><style>
  ${FONTS}
  * { margin: 0; box-sizing: border-box; }
  body { width: 512px; height: 512px; background: #fbe4e8; color: #8a3146; display: flex; flex-direction: column; align-items: center; justify-content: center; }
  img { width: 200px; height: 200px; }
  div { margin-top: 28px; font-size: 64px; line-height: 1; color: #2a1f2d; }
</style></head><body>
  <img src="/favicon.svg" alt="">
  <div class="serif">${BRAND}</div>
</body></html>`.replace(
  "/favicon.svg",
  `data:image/svg+xml;base64,${readFileSync(path.join(root, "public/favicon.svg")).toString("base64")}`,
);

const browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-gpu"] });
try {
  for (const [file, html, width, height] of [
    ["og-image.png", socialCard, 1200, 630],
    ["logo.png", logo, 512, 512],
  ]) {
    const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
    await page.setContent(html, { waitUntil: "load" });
    const out = path.join(images, file);
    await page.screenshot({ path: out, type: "png" });
    await page.close();
    console.log(`${path.relative(root, out)} : ${width}×${height}, ${Math.round(statSync(out).size / 1024)} ko`);
  }
} finally {
  await browser.close();
}
