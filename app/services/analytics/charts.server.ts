import { scaleBand, scaleLinear } from "d3-scale";
import { area, line } from "d3-shape";

/**
 * The charts' geometry, computed on the server (d3-scale for the scales, d3-shape for the
 * paths): the page draws plain SVG from it, so the charts show without JavaScript and add no
 * script to the page.
 */

export type Tick = { at: number; label: string };

export type LineChartGeometry = {
  width: number;
  height: number;
  line: string;
  area: string;
  yTicks: Tick[];
  xTicks: Tick[];
  /** The zero line, when the values go below it. */
  zeroY: number | null;
  points: Array<{ x: number; y: number }>;
};

/** About a phone's width: the text reads at its size on a phone, and a little larger in a desktop's card. */
const WIDTH = 360;
const HEIGHT = 200;
export const MARGIN = { top: 10, right: 20, bottom: 24, left: 58 };

/** Up to `count` evenly spaced labels of the x axis, the first and the last always among them. */
function xTickIndexes(length: number, count: number): number[] {
  if (length <= count) return Array.from({ length }, (_, i) => i);
  const step = (length - 1) / (count - 1);
  return Array.from({ length: count }, (_, i) => Math.round(i * step));
}

export function lineChart(values: number[], labels: string[], formatValue: (value: number) => string): LineChartGeometry {
  const x = scaleLinear()
    .domain([0, Math.max(values.length - 1, 1)])
    .range([MARGIN.left, WIDTH - MARGIN.right]);
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  const y = scaleLinear()
    .domain([low, high === low ? low + 1 : high])
    .nice(4)
    .range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  const [bottom] = y.domain();
  const linePath = line<number>()
    .x((_, i) => x(i))
    .y((v) => y(v));
  const areaPath = area<number>()
    .x((_, i) => x(i))
    .y0(y(Math.max(0, bottom)))
    .y1((v) => y(v));
  return {
    width: WIDTH,
    height: HEIGHT,
    line: linePath(values) ?? "",
    area: areaPath(values) ?? "",
    yTicks: y.ticks(4).map((v) => ({ at: y(v), label: formatValue(v) })),
    xTicks: xTickIndexes(labels.length, 4).map((i) => ({ at: x(i), label: shortDay(labels[i]) })),
    zeroY: low < 0 ? y(0) : null,
    points: values.length <= 31 ? values.map((v, i) => ({ x: x(i), y: y(v) })) : [],
  };
}

/** « 01/12/2025 » or « Semaine du 01/12/2025 » as the axis shows it: « 01/12 ». */
function shortDay(label: string | undefined): string {
  const m = /(\d{2})\/(\d{2})\/\d{4}/.exec(label ?? "");
  return m ? `${m[1]}/${m[2]}` : (label ?? "");
}

export type BarChartGeometry = {
  width: number;
  height: number;
  labelWidth: number;
  bars: Array<{ label: string; value: string; y: number; width: number; height: number }>;
};

/** Horizontal bars, one per row, their labels on the left and values at their end. */
export function barChart(
  rows: Array<{ label: string; value: number }>,
  formatValue: (value: number) => string,
  /** Room for the labels, in the chart's units. */
  labelWidth = 138,
): BarChartGeometry {
  const barHeight = 26;
  const height = Math.max(rows.length, 1) * barHeight;
  const band = scaleBand<number>()
    .domain(rows.map((_, i) => i))
    .range([0, height])
    .padding(0.25);
  const max = Math.max(0, ...rows.map((r) => r.value));
  const x = scaleLinear()
    .domain([0, max === 0 ? 1 : max])
    .range([0, WIDTH - labelWidth - 78]);
  return {
    width: WIDTH,
    height,
    labelWidth,
    bars: rows.map((r, i) => ({
      label: r.label,
      value: formatValue(r.value),
      y: band(i) ?? 0,
      width: Math.max(x(Math.max(r.value, 0)), 0),
      height: band.bandwidth(),
    })),
  };
}

/** A small trend line for the dashboard's cards. */
export function sparkline(values: number[], width = 120, height = 32): string {
  const x = scaleLinear()
    .domain([0, Math.max(values.length - 1, 1)])
    .range([1, width - 1]);
  const low = Math.min(...values, 0);
  const high = Math.max(...values, 0);
  const y = scaleLinear()
    .domain([low, high === low ? low + 1 : high])
    .range([height - 2, 2]);
  return (
    line<number>()
      .x((_, i) => x(i))
      .y((v) => y(v))(values) ?? ""
  );
}
