import type { Config } from "tailwindcss";

export default {
  content: ["./app/**/*.{ts,tsx}"],
  theme: {
    extend: {
      colors: {
        // Calm, premium skin-care palette: warm ivory, rosé and deep plum ink.
        ivory: "#fbf7f3",
        sand: "#f3e9e1",
        rose: { 50: "#fdf2f4", 100: "#fbe4e8", 200: "#f5c6cf", 500: "#c9566e", 600: "#a93f57", 700: "#8a3146" },
        ink: { DEFAULT: "#2a1f2d", soft: "#5b4d5e" },
        sage: { 100: "#e6efe7", 600: "#3f6b4a", 700: "#2f5438" },
      },
      fontFamily: {
        serif: ["Georgia", "Cambria", "'Times New Roman'", "serif"],
        sans: ["system-ui", "-apple-system", "'Segoe UI'", "Roboto", "Helvetica", "Arial", "sans-serif"],
      },
    },
  },
  plugins: [],
} satisfies Config;
