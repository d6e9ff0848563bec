import { csvCell } from "~/lib/csv-cell";
import type { ChartTable } from "./page.server";

/**
 * A chart's data as a CSV file for a spreadsheet in French: `;` between cells, a decimal comma,
 * a BOM so that accents read right; text cells quoted and never read as a formula.
 */
function frenchCell(value: string | number): string {
  return typeof value === "number" ? String(value).replace(".", ",") : csvCell(value);
}

export function tableCsv(table: ChartTable): string {
  const lines = [table.columns, ...table.rows].map((row) => row.map(frenchCell).join(";"));
  return "\uFEFF" + lines.join("\r\n") + "\r\n";
}
