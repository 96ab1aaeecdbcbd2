/**
 * A column chart in plain SVG. Polaris Viz (16.16) installs with React 18 but cannot render on the
 * server (it reads `window` while rendering), and this app renders every admin page on the
 * server first; an SVG of a few dozen rects needs no library and renders the same on both sides.
 */
export interface BarDatum {
  label: string;
  value: number;
}

const WIDTH = 720;
const HEIGHT = 200;
const AXIS = 24;

export function BarChart({ data, title }: { data: readonly BarDatum[]; title: string }) {
  const max = Math.max(1, ...data.map((datum) => datum.value));
  const slot = WIDTH / Math.max(1, data.length);
  const plot = HEIGHT - AXIS;
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width="100%"
      role="img"
      aria-label={`${title}: ${data.length} values, highest ${max}`}
      style={{ display: "block" }}
    >
      <line x1={0} x2={WIDTH} y1={plot} y2={plot} stroke="#c9cccf" />
      {data.map((datum, index) => {
        const height = (datum.value / max) * (plot - 16);
        return (
          <rect
            key={datum.label}
            x={index * slot + slot * 0.15}
            y={plot - height}
            width={slot * 0.7}
            height={height}
            rx={2}
            fill="#2c6ecb"
          >
            <title>{`${datum.label}: ${datum.value}`}</title>
          </rect>
        );
      })}
      <text x={0} y={12} fontSize={11} fill="#616a75">
        {max}
      </text>
      {data.length > 0 && (
        <>
          <text x={0} y={HEIGHT - 6} fontSize={11} fill="#616a75">
            {data[0]!.label}
          </text>
          <text x={WIDTH} y={HEIGHT - 6} fontSize={11} fill="#616a75" textAnchor="end">
            {data.at(-1)!.label}
          </text>
        </>
      )}
    </svg>
  );
}
