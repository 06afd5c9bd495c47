/**
 * Inline SVG charts and tables of the console, drawn to be read at a glance at desktop and phone width
 * with no script and no library. Text is never stretched: the SVGs draw in CSS pixels (no viewBox), and
 * only the bars sit in a stretched inner SVG; positions along the width are percentages. Every bar has a
 * label, every chart its numbers in a table too (a screen reader and a copy-paste get them), and a
 * table too wide for its box becomes labelled rows (a CSS container query).
 */
import { escapeHtml } from '../pages/page'

export interface Bar {
  label: string
  value: number
  /** The value as the table shows it (USD, a count). */
  text: string
}

/** A bar of a time series, with what its axis shows under it. */
export interface TimeBar extends Bar {
  /** Under the bar: the day of the month, the hour. */
  tick: string
  /** Kept on a narrow screen, where the other ticks would overlap (every few days, every 6 hours). */
  major: boolean
  /** On a second line where a new period starts: the month, the date. */
  period?: string
}

/** A whole and the parts it is made of (served: settled on chain, verified offline). */
export interface Whole extends Bar {
  tone: 'money' | 'wait' | 'loss'
  parts?: Bar[]
}

const pct = (share: number) => `${(Math.round(share * 100_000) / 1000).toString()}%`

/** Time series: the plot's rows in CSS pixels. */
const TS = { top: 18, plot: 132, tick: 166, period: 182, height: 188 }
/** Bars' height in the stretched inner SVG (its own units, 0 to 1000). */
const UNITS = 1000

/** The numbers under a chart, folded away (`sub`: a part, indented under its whole). */
function numbers(columns: readonly string[], rows: readonly { cells: readonly string[]; sub?: boolean }[]): string {
  const body = rows
    .map(
      (row) =>
        `<tr${row.sub ? ' class="sub"' : ''}>${row.cells.map((c, i) => `<td class="${i ? 'num' : 'key'}">${escapeHtml(c)}</td>`).join('')}</tr>`,
    )
    .join('')
  return `<details><summary>The numbers</summary><div class="fit"><table><thead><tr>${columns
    .map((c, i) => `<th${i ? ' class="num"' : ''}>${escapeHtml(c)}</th>`)
    .join('')}</tr></thead><tbody>${body}</tbody></table></div></details>`
}

/**
 * A time series as bars (one a day, one an hour), each with its title and its tick under it; on a
 * narrow chart only the major ticks show. `columns`: the label's and the value's headings.
 */
export function barChart(
  id: string,
  title: string,
  bars: readonly TimeBar[],
  columns: [string, string],
  options: { extra?: { heading: string; cells: string[] } } = {},
): string {
  const { extra } = options
  const slots = bars.length
  const max = Math.max(0, ...bars.map((b) => b.value))
  const peak = bars.find((b) => b.value === max && max > 0)
  const rects = bars
    .map((b, i) => {
      const h = max > 0 && b.value > 0 ? Math.max(8, Math.round((b.value / max) * UNITS)) : 0
      return `<rect class="bar" x="${i + 0.12}" y="${UNITS - h}" width="0.76" height="${h}"><title>${escapeHtml(`${b.label}: ${b.text}`)}</title></rect>`
    })
    .join('')
  const ticks = bars
    .map(
      (b, i) =>
        `<text class="tick${b.major ? '' : ' minor'}" x="${pct((i + 0.5) / slots)}" y="${TS.tick}" text-anchor="middle">${escapeHtml(b.tick)}</text>`,
    )
    .join('')
  // A period's name starts at its first bar; near the right end it ends at the edge instead. The first
  // bar's is left out when the next period starts within the first sixth: at any width the two would
  // overlap once the next one starts a bar or two later (the 48 hours seen late in the evening).
  const starts = bars.flatMap((b, i) => (b.period ? [i] : []))
  const periods = starts
    .filter((i, k) => !(i === 0 && starts[k + 1] !== undefined && starts[k + 1]! / slots < 1 / 6))
    .map((i) => {
      const atEnd = i / slots > 5 / 6
      return `<text class="period" x="${atEnd ? '100%' : pct(i / slots)}" y="${TS.period}"${atEnd ? ' text-anchor="end"' : ''}>${escapeHtml(bars[i]!.period!)}</text>`
    })
    .join('')
  const scale = peak
    ? `<line class="grid" x1="0" x2="100%" y1="${TS.top}" y2="${TS.top}"/><text class="tick" x="0" y="${TS.top - 5}">${escapeHtml(peak.text)}</text>`
    : ''
  const axis = `<line class="axis" x1="0" x2="100%" y1="${TS.top + TS.plot}" y2="${TS.top + TS.plot}"/>`
  const summary = peak ? `highest ${peak.text} (${peak.label})` : 'all zero'
  const svg = `<svg class="plot" width="100%" height="${TS.height}" role="img" aria-labelledby="${id}-title">${scale}<svg x="0" y="${TS.top}" width="100%" height="${TS.plot}" viewBox="0 0 ${slots || 1} ${UNITS}" preserveAspectRatio="none">${rects}</svg>${axis}${ticks}${periods}</svg>`
  return `<figure class="chart${slots > 30 ? ' dense' : ''}">
<figcaption id="${id}-title">${escapeHtml(title)} <span class="muted">— ${escapeHtml(summary)}</span></figcaption>
${svg}
${numbers(
  extra ? [...columns, extra.heading] : columns,
  bars.map((b, i) => ({ cells: extra ? [b.label, b.text, extra.cells[i] ?? ''] : [b.label, b.text] })),
)}
</figure>`
}

/** Parts chart: its rows in CSS pixels. */
const PC = { line: 20, bar: 16, gap: 12 }

/**
 * Wholes as horizontal bars on one scale, each labelled with its name and count; a whole's parts are
 * the segments of its bar, named in indented rows under it with their colour.
 */
export function partsChart(id: string, title: string, wholes: readonly Whole[], columns: [string, string]): string {
  const max = Math.max(0, ...wholes.map((w) => w.value))
  const width = (value: number) => (max > 0 && value > 0 ? Math.max(0.5, (value / max) * 100) : 0)
  let offset = 0
  const rows = wholes.map((whole) => {
    const top = offset
    const label = `<text class="label" x="0" y="${top + 14}">${escapeHtml(whole.label)}</text><text class="label count" x="100%" y="${top + 14}" text-anchor="end">${escapeHtml(whole.text)}</text>`
    const barY = top + PC.line + 2
    const segments: string[] = []
    const legend: string[] = []
    if (whole.parts?.length) {
      // The segments fill the whole's bar exactly: a small part drawn wider to be seen is taken off the largest.
      const widths = whole.parts.map((p) => width(p.value))
      const over = widths.reduce((t, w) => t + w, 0) - width(whole.value)
      if (over > 0) widths[widths.indexOf(Math.max(...widths))]! -= over
      let from = 0
      whole.parts.forEach((part, index) => {
        const span = widths[index]!
        const shade = `tone-${whole.tone} shade-${index}`
        segments.push(
          `<rect class="bar ${shade}" x="${pct(from / 100)}" y="${barY}" width="${pct(span / 100)}" height="${PC.bar}"><title>${escapeHtml(`${part.label}: ${part.text}`)}</title></rect>`,
        )
        from += span
        const ly = barY + PC.bar + 6 + index * PC.line
        legend.push(
          `<rect class="swatch ${shade}" x="14" y="${ly + 4}" width="10" height="10"/><text class="part" x="30" y="${ly + 13}">${escapeHtml(part.label)}</text><text class="part count" x="100%" y="${ly + 13}" text-anchor="end">${escapeHtml(part.text)}</text>`,
        )
      })
    } else
      segments.push(
        `<rect class="bar tone-${whole.tone} shade-0" x="0" y="${barY}" width="${pct(width(whole.value) / 100)}" height="${PC.bar}"><title>${escapeHtml(`${whole.label}: ${whole.text}`)}</title></rect>`,
      )
    offset = barY + PC.bar + (whole.parts?.length ? 6 + whole.parts.length * PC.line : 0) + PC.gap
    return `<g class="whole">${label}${segments.join('')}${legend.join('')}</g>`
  })
  const largest = wholes.find((w) => w.value === max && max > 0)
  const summary = largest ? `${largest.text} ${largest.label}` : 'none yet'
  const svg = `<svg class="plot" width="100%" height="${offset - PC.gap + 2}" role="img" aria-labelledby="${id}-title">${rows.join('')}</svg>`
  return `<figure class="chart">
<figcaption id="${id}-title">${escapeHtml(title)} <span class="muted">— ${escapeHtml(summary)}</span></figcaption>
${svg}
${numbers(
  columns,
  wholes.flatMap((w) => [{ cells: [w.label, w.text] }, ...(w.parts ?? []).map((p) => ({ cells: [p.label, p.text], sub: true }))]),
)}
</figure>`
}

/**
 * A plain table: headings and rows of already formatted cells (escaped here); `num` columns align
 * right. In a box narrower than the table needs, each row becomes a block: the first cell as its
 * heading, the others as labelled values (`data-label`), so no column is cut off and nothing scrolls.
 */
export function table(headings: readonly string[], rows: readonly (readonly string[])[], num: ReadonlySet<number> = new Set()): string {
  if (!rows.length) return '<p class="muted">Nothing yet.</p>'
  const stack = headings.length >= 5 ? 'stack-wide' : 'stack'
  const head = headings.map((h, i) => `<th${num.has(i) ? ' class="num"' : ''}>${escapeHtml(h)}</th>`).join('')
  const cell = (value: string, i: number) =>
    `<td${num.has(i) ? ' class="num"' : ''}${i ? ` data-label="${escapeHtml(headings[i] ?? '')}"` : ''}>${escapeHtml(value)}</td>`
  return `<div class="fit"><table class="${stack}"><thead><tr>${head}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map(cell).join('')}</tr>`)
    .join('')}</tbody></table></div>`
}

/** A table as labelled rows (inside the container query that finds it too narrow): the first cell heads its row, numbers go two or more to a line, text a line each. */
const stacked = (table: string) => `
${table},${table} tbody{display:block}
${table} thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
${table} tr{display:grid;grid-template-columns:repeat(auto-fill,minmax(9.5rem,1fr));column-gap:1.25rem;padding:.45rem 0;border-bottom:1px solid var(--line)}
${table} td{display:flex;justify-content:space-between;align-items:baseline;gap:.5rem;border:0;padding:.05rem 0;white-space:normal;text-align:right;overflow-wrap:anywhere}
${table} td::before{content:attr(data-label);color:var(--muted);font-size:.85rem;text-align:left;overflow-wrap:normal}
${table} td:not(.num){grid-column:1/-1;text-align:left}
${table} td:first-child{grid-column:1/-1;font-weight:600;text-align:left}
${table} td:first-child::before{content:none}`

export const CHART_CSS = `
:root{--wait:#b45309}
@media (prefers-color-scheme:dark){:root{--wait:#fbbf24}}
.kpis{display:grid;grid-template-columns:repeat(auto-fit,minmax(10rem,1fr));gap:.75rem;margin:1rem 0}
.kpi{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:.6rem .8rem}
.kpi b{display:block;font-size:1.35rem;font-variant-numeric:tabular-nums}
.kpi span{color:var(--muted);font-size:.85rem}
.chart{margin:1rem 0;container-type:inline-size}
.chart svg.plot{display:block;overflow:visible;margin:.25rem 0}
.chart figcaption{font-weight:600;margin-bottom:.25rem}
.bar,.swatch{fill:var(--link)}
.tone-wait{fill:var(--wait)}.tone-loss{fill:var(--accent)}
.shade-1{fill-opacity:.45}.shade-2{fill-opacity:.2}
.axis,.grid{stroke:var(--line)}
.grid{stroke-dasharray:3 3}
.tick,.period{fill:var(--muted);font-size:11px;font-variant-numeric:tabular-nums}
.period{font-weight:600}
.label{fill:var(--fg);font-size:14px;font-weight:600}
.part{fill:var(--fg);font-size:13px}
.count{font-variant-numeric:tabular-nums}
@container (max-width:36rem){.tick.minor{display:none}}
@container (max-width:58rem){.dense .tick.minor{display:none}}
tr.sub td:first-child{padding-left:1.75rem;color:var(--muted)}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
td.num,td.key{white-space:nowrap}
td{overflow-wrap:break-word}
.fit{container-type:inline-size;overflow-x:auto}
@container (max-width:46rem){${stacked('table.stack-wide')}}
@container (max-width:28rem){${stacked('table.stack')}}
.ok{color:#15803d}.bad{color:var(--accent)}
.grid2{display:grid;grid-template-columns:repeat(auto-fit,minmax(18rem,1fr));gap:0 1.5rem}
@media (max-width:40rem){.terms{grid-template-columns:1fr;gap:0}.terms dd{margin-bottom:.5rem}}
form.inline{display:inline}
button{font:inherit;padding:.35rem .9rem;border-radius:6px;border:1px solid var(--line);background:var(--panel);color:var(--fg);cursor:pointer}
input[type=password]{font:inherit;padding:.4rem .6rem;border-radius:6px;border:1px solid var(--line);width:100%;max-width:28rem;background:var(--bg);color:var(--fg)}
`
