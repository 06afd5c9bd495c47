/**
 * Inline SVG charts of the console: bars with the values in a table beside them (a screen reader, a
 * phone too narrow for the bars, and a copy-paste all get the numbers). No script, no library.
 */
import { escapeHtml } from '../page'

export interface Bar {
  label: string
  value: number
  /** The value as the table shows it (USD, a count). */
  text: string
}

const WIDTH = 720
const HEIGHT = 180
const PAD = { top: 12, right: 8, bottom: 22, left: 8 }

/** A bar chart with its numbers in a table (`columns`: the label's and the value's headings). */
export function barChart(
  id: string,
  title: string,
  bars: readonly Bar[],
  columns: [string, string],
  options: { extra?: { heading: string; cells: string[] }; open?: boolean } = {},
): string {
  const { extra } = options
  const max = Math.max(0, ...bars.map((b) => b.value))
  const inner = { w: WIDTH - PAD.left - PAD.right, h: HEIGHT - PAD.top - PAD.bottom }
  const step = bars.length ? inner.w / bars.length : inner.w
  const rects = bars
    .map((b, i) => {
      const h = max > 0 ? Math.max(b.value > 0 ? 1 : 0, (b.value / max) * inner.h) : 0
      const x = PAD.left + i * step + step * 0.1
      return `<rect class="bar" x="${x.toFixed(1)}" y="${(PAD.top + inner.h - h).toFixed(1)}" width="${(step * 0.8).toFixed(1)}" height="${h.toFixed(1)}"><title>${escapeHtml(`${b.label}: ${b.text}`)}</title></rect>`
    })
    .join('')
  const first = bars[0]?.label ?? ''
  const last = bars[bars.length - 1]?.label ?? ''
  const axis = `<line class="axis" x1="${PAD.left}" y1="${PAD.top + inner.h}" x2="${WIDTH - PAD.right}" y2="${PAD.top + inner.h}"/>
<text class="tick" x="${PAD.left}" y="${HEIGHT - 6}">${escapeHtml(first)}</text><text class="tick" x="${WIDTH - PAD.right}" y="${HEIGHT - 6}" text-anchor="end">${escapeHtml(last)}</text>`
  const peak = bars.find((b) => b.value === max && max > 0)
  const summary = peak ? `highest ${peak.text} (${peak.label})` : 'all zero'
  const rows = bars
    .map(
      (b, i) =>
        `<tr><td>${escapeHtml(b.label)}</td><td class="num">${escapeHtml(b.text)}</td>${extra ? `<td class="num">${escapeHtml(extra.cells[i] ?? '')}</td>` : ''}</tr>`,
    )
    .join('')
  return `<figure class="chart">
<figcaption id="${id}-title">${escapeHtml(title)} <span class="muted">— ${escapeHtml(summary)}</span></figcaption>
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${id}-title" preserveAspectRatio="none">${axis}${rects}</svg>
<details${options.open ? ' open' : ''}><summary>The numbers</summary><div class="fit"><table><thead><tr><th>${escapeHtml(columns[0])}</th><th class="num">${escapeHtml(columns[1])}</th>${extra ? `<th class="num">${escapeHtml(extra.heading)}</th>` : ''}</tr></thead><tbody>${rows}</tbody></table></div></details>
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
const stacked = (t: string) => `
${t},${t} tbody{display:block}
${t} thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
${t} tr{display:grid;grid-template-columns:repeat(auto-fill,minmax(9.5rem,1fr));column-gap:1.25rem;padding:.45rem 0;border-bottom:1px solid var(--line)}
${t} td{display:flex;justify-content:space-between;align-items:baseline;gap:.5rem;border:0;padding:.05rem 0;white-space:normal;text-align:right;overflow-wrap:anywhere}
${t} td::before{content:attr(data-label);color:var(--muted);font-size:.85rem;text-align:left;overflow-wrap:normal}
${t} td:not(.num){grid-column:1/-1;text-align:left}
${t} td:first-child{grid-column:1/-1;font-weight:600;text-align:left}
${t} td:first-child::before{content:none}`

export const CHART_CSS = `
.kpis{display:grid;grid-template-columns:repeat(auto-fit,minmax(10rem,1fr));gap:.75rem;margin:1rem 0}
.kpi{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:.6rem .8rem}
.kpi b{display:block;font-size:1.35rem;font-variant-numeric:tabular-nums}
.kpi span{color:var(--muted);font-size:.85rem}
.chart{margin:1rem 0}
.chart svg{width:100%;height:11rem;display:block}
.chart figcaption{font-weight:600;margin-bottom:.25rem}
.bar{fill:var(--link)}
.axis{stroke:var(--line)}
.tick{fill:var(--muted);font-size:12px}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
td.num{white-space:nowrap}
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
