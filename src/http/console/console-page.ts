/** The console as a page: rendered on the server from the figures the JSON answer holds (figures.ts). */
import { escapeHtml, htmlPage } from '../pages/page'
import { barChart, CHART_CSS, partsChart, table, type TimeBar } from './charts'
import type { ConsoleFigures } from './figures'

const usd = (value: string) => `$${Number(value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 })}`
const count = (n: number) => n.toLocaleString('en-US')
const pct = (share: number | null) => (share === null ? '—' : `${Math.round(share * 1000) / 10}%`)
const when = (iso: string | null) => (iso ? iso.replace('T', ' ').replace('Z', ' UTC') : '—')
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
/** "2026-11-13" -> "Nov" (the month) or "Nov 13". */
const month = (key: string) => MONTHS[Number(key.slice(5, 7)) - 1] ?? key.slice(5, 7)
const date = (key: string) => `${month(key)} ${Number(key.slice(8, 10))}`

/** Days ("2026-11-13"): the day of the month under each bar (on a phone every fifth back from today, and the 1st), the month where it starts. */
function dayBars(rows: readonly { key: string; served_usd: string }[]): TimeBar[] {
  return rows.map((day, index) => ({
    label: day.key,
    value: Number(day.served_usd),
    text: usd(day.served_usd),
    tick: String(Number(day.key.slice(8, 10))),
    major: (rows.length - 1 - index) % 5 === 0 || day.key.endsWith('-01'),
    ...(index === 0 || day.key.endsWith('-01') ? { period: month(day.key) } : {}),
  }))
}

/** Hours ("2026-11-26 09:00"): the hour under each bar, every sixth on a phone, the date where a day starts. */
function hourBars(rows: readonly { key: string; served_usd: string }[]): TimeBar[] {
  return rows.map((row, index) => {
    const hour = Number(row.key.slice(11, 13))
    return {
      label: row.key,
      value: Number(row.served_usd),
      text: usd(row.served_usd),
      tick: row.key.slice(11, 13),
      major: hour % 6 === 0,
      ...(index === 0 || hour === 0 ? { period: date(row.key) } : {}),
    }
  })
}

function kpis(figures: ConsoleFigures): string {
  const totals = figures.report.totals
  const tiles: [string, string][] = [
    [usd(totals.served_usd), 'revenue, 30 days'],
    [usd(totals.settled_usd), 'settled on chain'],
    [count(totals.served_count), 'paid answers'],
    [count(figures.buyers.payers), 'paying wallets'],
    [`${count(figures.buyers.repeat_payers)} (${pct(figures.buyers.repeat_revenue_share)} of revenue)`, 'repeat buyers'],
    [`${usd(figures.exposure.unsettled_usd)} (${count(figures.exposure.unsettled_count)})`, 'unsettled now'],
  ]
  return `<div class="kpis">${tiles.map(([value, label]) => `<div class="kpi"><b>${escapeHtml(value)}</b><span>${escapeHtml(label)}</span></div>`).join('')}</div>`
}

function revenue(figures: ConsoleFigures): string {
  const money = (
    first: string,
    rows: typeof figures.by_route,
    name: (row: (typeof figures.by_network)[number] | (typeof figures.by_route)[number]) => string,
  ) =>
    table(
      [first, 'answers', 'revenue', 'settled', 'local', 'pending', 'failed'],
      rows.map((row) => [
        name(row),
        count(row.served_count),
        usd(row.served_usd),
        usd(row.settled_usd),
        usd(row.local_usd),
        usd(row.pending_usd),
        count(row.failed_count),
      ]),
      new Set([1, 2, 3, 4, 5, 6]),
    )
  return `<h2>Revenue</h2>
${barChart('per-day', 'Revenue per day (UTC), last 30 days', dayBars(figures.by_day), ['day', 'revenue'], { extra: { heading: 'answers / payers', cells: figures.by_day.map((d) => `${count(d.served_count)} / ${count(d.payers)}`) } })}
${barChart('per-hour', 'Revenue per hour (UTC), last 48 hours', hourBars(figures.by_hour), ['hour', 'revenue'], { extra: { heading: 'answers', cells: figures.by_hour.map((h) => count(h.served_count)) } })}
<h3>By route, 30 days</h3>${money('route', figures.by_route, (r) => r.key)}
<h3>By network, 30 days</h3>${money('network', figures.by_network, (r) => ('name' in r ? `${r.name} (${r.key})` : r.key))}`
}

function margin(figures: ConsoleFigures): string {
  const losing = figures.margin.filter((m) => m.margin_usd.startsWith('-'))
  return `<h2>Provider spend and margin, 30 days</h2>
<p class="muted">Revenue minus what the answers cost at live providers (priced requests: PROVIDER_PRICES). Routes that lose money come first${losing.length ? `: ${losing.length} do now` : ''}. The cache share counts this instance's paid answers since it started.</p>
${table(
  ['route', 'revenue', 'provider cost', 'margin', 'unpriced requests', 'served from cache'],
  figures.margin.map((line) => [
    line.route,
    usd(line.revenue_usd),
    usd(line.provider_cost_usd),
    usd(line.margin_usd),
    count(line.unpriced_requests),
    line.answers_since_start ? `${pct(line.cache_served_share)} of ${count(line.answers_since_start)}` : '—',
  ]),
  new Set([1, 2, 3, 4, 5]),
)}`
}

function payments(figures: ConsoleFigures): string {
  const counts = figures.payments
  const figure = (label: string, value: number) => ({ label, value, text: count(value) })
  // A whole's parts, and what they leave of it unnamed (none, as the ledger writes its states).
  const of = (whole: number, parts: ReturnType<typeof figure>[]) => {
    const rest = whole - parts.reduce((t, p) => t + p.value, 0)
    return rest > 0 ? [...parts, figure('other', rest)] : parts
  }
  // Served is settled on chain plus verified offline; failed is released plus refused by the settlement.
  const states = [
    {
      ...figure('served', counts.served_count),
      tone: 'money' as const,
      parts: of(counts.served_count, [
        figure('settled on chain', counts.settled_count),
        figure('verified offline (local)', counts.local_count),
      ]),
    },
    { ...figure('pending settlement', counts.pending_count), tone: 'wait' as const },
    {
      ...figure('failed, nothing charged', counts.failed_count),
      tone: 'loss' as const,
      parts: of(counts.failed_count, [
        figure('released: the work failed', counts.released_count),
        figure('the settlement failed', counts.settlement_failed_count),
      ]),
    },
  ]
  const exposure = figures.exposure
  const queue = exposure.deferred
  return `<h2>Payments, 30 days</h2>
${partsChart('states', 'Payments by state', states, ['state', 'payments'])}
<div class="grid2"><div><h3>Exposure</h3><dl class="terms">
<dt>unsettled</dt><dd>${escapeHtml(usd(exposure.unsettled_usd))} in ${count(exposure.unsettled_count)} payment${exposure.unsettled_count === 1 ? '' : 's'}</dd>
<dt>oldest pending</dt><dd>${escapeHtml(when(exposure.oldest_pending_at))}${exposure.oldest_pending_age_seconds === null ? '' : ` (${count(Math.round(exposure.oldest_pending_age_seconds / 60))} min)`}</dd>
${(exposure.batch ?? [])
  .map(
    (batch) =>
      `<dt>batch channels, ${escapeHtml(batch.network)}</dt><dd>${count(batch.channels)} open, ${escapeHtml(usd(batch.deposited_usd))} of the buyers' still in them; ${escapeHtml(usd(batch.unclaimed_usd))} charged and not yet claimed in ${count(batch.unclaimed_channels)}; 30 days: ${count(batch.claims_30d)} claims, ${escapeHtml(usd(batch.settled_30d_usd))} settled, ${count(batch.refunds_30d)} refunds</dd>`,
  )
  .join('')}
${queue ? `<dt>deferred queue</dt><dd>${count(queue.queued)} queued, ${count(queue.in_flight)} in flight, ${escapeHtml(usd(queue.unsettled_usd))} answered and unsettled, oldest ${count(queue.oldest_age_seconds)} s; the most exposed payer ${escapeHtml(usd(queue.largest_payer_unsettled_usd))} of the ${escapeHtml(usd(queue.payer_cap_usd))} cap</dd>` : ''}
</dl></div><div><h3>Reconciliation</h3><dl class="terms">
<dt>reconciled</dt><dd>${count(figures.reconciliation.reconciled_events)} payment${figures.reconciliation.reconciled_events === 1 ? '' : 's'}</dd>
<dt>last</dt><dd>${escapeHtml(when(figures.reconciliation.last_reconciled_at))}</dd>
${Object.entries(figures.report.event_counts)
  .map(([event, n]) => `<dt>${escapeHtml(event)} events</dt><dd>${count(n)}</dd>`)
  .join('')}
</dl></div></div>`
}

const state = (ok: boolean | undefined, yes: string, no: string) =>
  ok === undefined ? '<span class="muted">—</span>' : ok ? `<span class="ok">${yes}</span>` : `<span class="bad">${no}</span>`

/** Self mode: each network's RPC as asked just now; else the RPCs are the facilitator's business. */
function rpcs(now: ConsoleFigures['health']): string {
  if (!now.networks) return '<span class="muted">not used (the facilitator settles)</span>'
  return now.networks
    .map(
      (rpc) =>
        `${escapeHtml(rpc.network)}: ${state(rpc.reachable, `answers (${count(rpc.ms)} ms)`, 'does not answer')}${rpc.error ? ` — ${escapeHtml(rpc.error)}` : ''}`,
    )
    .join('<br>')
}

function health(figures: ConsoleFigures): string {
  const now = figures.health
  const part = (value: Record<string, unknown> | null, key: string) => (value ? (value[key] as boolean | undefined) : undefined)
  const err = (value: Record<string, unknown> | null) => (value?.error ? ` — ${escapeHtml(String(value.error))}` : '')
  return `<h2>Health</h2>
<dl class="terms">
<dt>service</dt><dd>${state(now.ready, 'ready', 'not ready')}, figures since ${escapeHtml(when(now.since))}</dd>
<dt>ledger</dt><dd>${escapeHtml(String(now.ledger?.backend ?? ''))} ${now.ledger?.status !== undefined ? escapeHtml(String(now.ledger.status)) : state(part(now.ledger, 'writable'), 'writable', 'not writable')}${err(now.ledger)}</dd>
<dt>facilitator</dt><dd>${now.facilitator ? state(part(now.facilitator, 'reachable'), 'reachable', 'unreachable') + err(now.facilitator) : '<span class="muted">not used (local or self mode)</span>'}</dd>
<dt>networks' RPC</dt><dd>${rpcs(now)}</dd>
<dt>datasets</dt><dd>loaded ${escapeHtml(when(now.datasets.loaded_at))}:<br>${Object.entries(now.datasets.versions)
    .map(([name, version]) => {
      const period = now.datasets.periods[name]
      return `${escapeHtml(name)} <code>${escapeHtml(version)}</code>${period ? ` (${escapeHtml(period.from)} to ${escapeHtml(period.to)})` : ''}`
    })
    .join(
      '<br>',
    )}${now.datasets.last_reload_error ? ` <span class="bad">last reload failed: ${escapeHtml(now.datasets.last_reload_error)}</span>` : ''}</dd>
<dt>paid answers from cache</dt><dd>${pct(now.paid_answer_cache.hit_ratio)} of ${count(now.paid_answer_cache.answers)}</dd>
</dl>
<h3>Live providers</h3>
${table(
  ['provider', 'last call', 'status', 'calls', 'errors', 'last', 'mean'],
  now.providers.map((provider) => [
    provider.name,
    when(provider.last_at),
    provider.last_error ? `${provider.last_status}: ${provider.last_error}` : provider.last_status,
    count(provider.calls),
    count(provider.errors),
    `${count(provider.last_ms)} ms`,
    provider.mean_ms === null ? '—' : `${count(provider.mean_ms)} ms`,
  ]),
  new Set([3, 4, 5, 6]),
)}
<h3>Answer times since start</h3>
<p class="muted">Every request on these routes, the unpaid 402s and the errors included (/metrics has them by route).</p>
${table(
  ['routes', 'requests', 'p50', 'p95'],
  now.answer_times.map((times) => [
    times.family,
    count(times.requests),
    times.p50_ms === null ? '—' : `${times.p50_ms} ms`,
    times.p95_ms === null ? '—' : `${times.p95_ms} ms`,
  ]),
  new Set([1, 2, 3]),
)}`
}

/** The whole console page. */
export function consolePage(figures: ConsoleFigures): string {
  const body = `<header><h1>Seller console</h1></header>
<p class="lead">${escapeHtml(when(figures.window.days_from))} to ${escapeHtml(when(figures.generated_at))}. The same figures as JSON: <code>Accept: application/json</code>; the revenue is <code>payments report --by day --since ${escapeHtml(figures.window.days_from.slice(0, 10))}</code>.</p>
<form class="inline" method="post" action="/console/sign-out"><button type="submit">Sign out</button></form>
${kpis(figures)}${revenue(figures)}${margin(figures)}${payments(figures)}${health(figures)}`
  return htmlPage('Seller console', body, CHART_CSS)
}

/** The sign-in form (`problem`: why the last try was refused). */
export function signInPage(problem?: string): string {
  const body = `<header><h1>Seller console</h1></header>
<p class="lead">Sign in with the service's METRICS_TOKEN.</p>
${problem ? `<p class="note" role="alert">${escapeHtml(problem)}</p>` : ''}
<form method="post" action="/console/sign-in">
<p><label for="token">Token</label><br><input id="token" name="token" type="password" autocomplete="current-password" required></p>
<p><button type="submit">Sign in</button></p>
</form>`
  return htmlPage('Seller console: sign in', body, CHART_CSS)
}
