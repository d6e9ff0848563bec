/**
 * The brand's look for emails, as inline CSS (email clients ignore the site's stylesheet):
 * the colours and fonts of tailwind.config.ts.
 */
export const COLORS = {
  ivory: "#fbf7f3",
  sand: "#f3e9e1",
  rose50: "#fdf2f4",
  rose200: "#f5c6cf",
  rose700: "#8a3146",
  ink: "#2a1f2d",
  inkSoft: "#5b4d5e",
  white: "#ffffff",
  line: "#e8dfe6",
} as const;

export const FONTS = {
  serif: "Georgia, Cambria, 'Times New Roman', serif",
  sans: "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
} as const;

export const TEXT_STYLE = {
  margin: "0 0 16px",
  fontFamily: FONTS.sans,
  fontSize: "15px",
  lineHeight: "24px",
  color: COLORS.ink,
} as const;
export const SMALL_STYLE = { ...TEXT_STYLE, fontSize: "13px", lineHeight: "20px", color: COLORS.inkSoft } as const;
export const LINK_STYLE = { color: COLORS.rose700, textDecoration: "underline" } as const;
