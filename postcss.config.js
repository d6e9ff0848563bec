// The stylesheet is Tailwind's output (tailwind.config.ts), built by Vite's PostCSS step.
export default { plugins: { tailwindcss: {} } };
