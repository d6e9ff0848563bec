import type { ChartTable } from "./page.server";

/**
 * A chart's data as a CSV file for a spreadsheet in French: `;` between cells, a decimal comma,
 * a BOM so that accents read right; text cells quoted and never read as a formula.
 */
function cell(value: string | number): string {
  if (typeof value === "number") return String(value).replace(".", ",");
  let text = value;
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function tableCsv(table: ChartTable): string {
  const lines = [table.columns, ...table.rows].map((row) => row.map(cell).join(";"));
  return "\uFEFF" + lines.join("\r\n") + "\r\n";
}
