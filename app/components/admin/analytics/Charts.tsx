import type { BarChartGeometry, LineChartGeometry } from "~/services/analytics/charts.server";

/** The plot's left and right edges (charts.server.ts's margins). */
const LEFT = 58;
const RIGHT = 20;
import type { ChartTable } from "~/services/analytics/page.server";

/**
 * The analytics' charts, as plain SVG from the geometry the server computed: they show without
 * JavaScript. The SVG is one image with its title; its data is the table that follows, which
 * screen readers read and the CSV link downloads.
 */

export function LineChartSvg({ chart, title }: { chart: LineChartGeometry; title: string }) {
  return (
    <svg
      viewBox={`0 0 ${chart.width} ${chart.height}`}
      role="img"
      aria-label={title}
      className="h-auto w-full max-w-xl text-rose-600"
    >
      {chart.yTicks.map((tick) => (
        <g key={`y${tick.at}`}>
          <line x1={LEFT} x2={chart.width - RIGHT} y1={tick.at} y2={tick.at} className="stroke-slate-200" />
          <text x={LEFT - 6} y={tick.at} dy="0.32em" textAnchor="end" className="fill-slate-500 text-[10px]">
            {tick.label}
          </text>
        </g>
      ))}
      {chart.zeroY !== null ? (
        <line x1={LEFT} x2={chart.width - RIGHT} y1={chart.zeroY} y2={chart.zeroY} className="stroke-slate-400" />
      ) : null}
      {chart.xTicks.map((tick) => (
        <text key={`x${tick.at}`} x={tick.at} y={chart.height - 8} textAnchor="middle" className="fill-slate-500 text-[10px]">
          {tick.label}
        </text>
      ))}
      <path d={chart.area} className="fill-current opacity-10" />
      <path d={chart.line} fill="none" stroke="currentColor" strokeWidth={2} strokeLinejoin="round" />
      {chart.points.map((p, i) => (
        <circle key={i} cx={p.x} cy={p.y} r={2.5} className="fill-current" />
      ))}
    </svg>
  );
}

export function BarChartSvg({ chart, title }: { chart: BarChartGeometry; title: string }) {
  return (
    <svg
      viewBox={`0 0 ${chart.width} ${chart.height}`}
      role="img"
      aria-label={title}
      className="h-auto w-full max-w-xl text-rose-600"
    >
      {chart.bars.map((bar) => (
        <g key={bar.label}>
          <text
            x={chart.labelWidth - 8}
            y={bar.y + bar.height / 2}
            dy="0.32em"
            textAnchor="end"
            className="fill-slate-700 text-[11px]"
          >
            {bar.label}
          </text>
          <rect x={chart.labelWidth} y={bar.y} width={bar.width} height={bar.height} rx={3} className="fill-current" />
          <text
            x={chart.labelWidth + bar.width + 6}
            y={bar.y + bar.height / 2}
            dy="0.32em"
            className="fill-slate-700 text-[11px]"
          >
            {bar.value}
          </text>
        </g>
      ))}
    </svg>
  );
}

/** The chart's data, as a table under a disclosure (open to read it). */
export function ChartData({ table, caption }: { table: ChartTable; caption: string }) {
  return (
    <details className="mt-3 text-sm">
      <summary className="cursor-pointer font-medium text-slate-700">Voir les données</summary>
      <div className="mt-2 max-h-80 overflow-auto">
        <table className="w-full text-left tabular-nums">
          <caption className="sr-only">{caption}</caption>
          <thead>
            <tr>
              {table.columns.map((c) => (
                <th
                  key={c}
                  scope="col"
                  className="whitespace-nowrap border-b border-slate-200 px-2 py-1 font-medium text-slate-600"
                >
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row, i) => (
              <tr key={i} className="border-b border-slate-100">
                {row.map((value, j) =>
                  j === 0 ? (
                    <th key={j} scope="row" className="whitespace-nowrap px-2 py-1 font-normal">
                      {value}
                    </th>
                  ) : (
                    <td key={j} className="whitespace-nowrap px-2 py-1">
                      {value}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
