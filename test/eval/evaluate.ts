/**
 * Runs the buyer evaluation set (./questions.ts) against the in-process service on the sample world
 * and measures what a buyer would: answered share of the questions about the sample world, off-topic
 * answers, English/Chinese pairs with identical answers, verdict contradictions, and each question's
 * own expectations. Every check reads the answer as a buyer would; none looks inside the code.
 */
import { MOMENTUM } from '../../src/catalog/evidence-rules'
import { routeById } from '../../src/catalog'
import { usdToAtomic } from '../../src/core/usdc'
import { afterAll, beforeAll } from 'bun:test'
import { type Answer, Client } from '../../support/paying-client'
import { QUESTIONS, type Question } from './questions'

export interface Outcome {
  q: Question
  status: number
  data: any
  /** Why the answer breaks one of the question's expectations. */
  failures: string[]
  /** The answer is about something other than what was asked (or answers what does not exist). */
  offTopic: string | null
  /** The answer contradicts its own evidence. */
  contradictions: string[]
}

export interface Report {
  outcomes: Outcome[]
  inWorld: number
  inWorldAnswered: number
  offTopic: Outcome[]
  pairs: number
  pairsIdentical: number
  pairDifferences: { pair: string; ids: string[]; diff: string }[]
  contradictions: Outcome[]
  failed: Outcome[]
}

const LATIN = /^[\x20-\x7e]+$/
/** A name occurs in a text: Latin names as whole words (a buyer does not count "ski" in "skincare"), Chinese as written. */
export function mentions(text: string, name: string): boolean {
  const t = text.toLowerCase()
  const n = name.toLowerCase()
  if (!LATIN.test(n)) return t.includes(n)
  const esc = n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/[\s-]+/g, '[\\s-]+')
  return new RegExp(`(^|[^a-z0-9_])${esc}(s|es|'s)?($|[^a-z0-9_])`).test(t)
}

/** Excerpts an answer cites as its evidence. */
function citedExcerpts(route: string, d: any): string[] {
  if (route === 'china.trends') return d.top_evidence.map((e: { excerpt: string }) => e.excerpt)
  if (route === 'china.sentiment') return d.frames.flatMap((f: { examples: { excerpt: string }[] }) => f.examples.map((e) => e.excerpt))
  return []
}

function resolvedId(route: string, d: any): string | null {
  if (route === 'capabilities.kol_shortlist') return d.resolved?.category?.id ?? null
  if (route === 'capabilities.destination_demand') return null
  return d.resolved?.id ?? null
}

/** Verdicts that disagree with the evidence in the same answer. */
function contradictionsOf(route: string, d: any): string[] {
  const out: string[] = []
  const headlineStable = (h: string, detail: any) => {
    const pct = detail.volume_change_pct
    if (/ is stable /.test(h) && pct !== null && Math.abs(Math.log1p(pct / 100)) >= MOMENTUM.threshold && !/noise|engagement/.test(h)) {
      out.push(`headline says stable beside ${pct}% volume without saying why`)
    }
  }
  if (route === 'china.trends') headlineStable(d.summary.headline, d.momentum_detail)
  if (route === 'china.sentiment') {
    const { label, net_score: net } = d.summary
    if ((label === 'positive' && net < 0) || (label === 'negative' && net > 0)) out.push(`label ${label} with net ${net}`)
  }
  if (route === 'capabilities.visibility') {
    const sentiment = d.summary.match(/net (-?\d+)/)
    if (d.recommendation.action === 'amplify' && sentiment && Number(sentiment[1]) < 0) out.push(`amplify on net sentiment ${sentiment[1]}`)
  }
  if (route === 'capabilities.kol_shortlist') {
    const brandLeg = d.source_summary.find((l: { name: string }) => l.name === 'brand_sentiment')
    if (d.recommendation.action === 'proceed' && brandLeg && !['ran', 'reused'].includes(brandLeg.status))
      out.push('proceed without a brand sentiment read')
    if (brandLeg && !['ran', 'reused'].includes(brandLeg.status) && d.confidence > 0.6)
      out.push(`confidence ${d.confidence} without the brand leg`)
  }
  if (d.cost) {
    const diff = usdToAtomic(d.cost.price_usd) - usdToAtomic(d.cost.legs_bought_separately_usd)
    const stated = d.cost.difference_usd.startsWith('-') ? -usdToAtomic(d.cost.difference_usd.slice(1)) : usdToAtomic(d.cost.difference_usd)
    if (stated !== diff) out.push(`cost difference ${d.cost.difference_usd} is not price - legs`)
  }
  return out
}

function check(q: Question, a: Answer): Outcome {
  const d = a.body?.data
  const failures: string[] = []
  let offTopic: string | null = null
  const e = q.expect
  const answered = a.status === 200
  if (e.outcome === 'answered' && !answered) failures.push(`expected an answer, got ${a.status} ${a.body?.error?.code}`)
  if (e.outcome === 'not_found') {
    if (answered) offTopic = 'answered something that is not in the world'
    else if (a.status !== 404 || a.body.error.code !== 'not_found')
      failures.push(`expected a free 404, got ${a.status} ${a.body?.error?.code}`)
  }
  const contradictions = answered ? contradictionsOf(q.route, d) : []
  if (answered && e.outcome === 'answered') {
    const id = resolvedId(q.route, d)
    if (e.about && id !== null && id !== e.about) offTopic = `resolved to ${id}, not ${e.about}`
    if (e.about?.startsWith('destination:') || e.about?.startsWith('country:')) {
      if (q.route === 'capabilities.destination_demand' && d.scope !== (e.about.startsWith('country:') ? 'country' : 'city'))
        failures.push(`scope ${d.scope} for ${e.about}`)
    }
    if (e.names && !offTopic) {
      const stray = citedExcerpts(q.route, d).find((x) => !e.names!.some((n) => mentions(x, n)))
      if (stray) offTopic = `cites "${stray.slice(0, 80)}", which names none of ${e.names.join(', ')}`
    }
    if (e.momentum && d.summary?.momentum !== e.momentum) failures.push(`momentum ${d.summary?.momentum}, expected ${e.momentum}`)
    if (e.label && d.summary?.label !== e.label) failures.push(`sentiment ${d.summary?.label}, expected ${e.label}`)
    if (e.notAction && d.recommendation?.action === e.notAction) failures.push(`action ${e.notAction}`)
    if (e.anyCreatorOf) {
      const handles = (d.shortlist ?? d.creators ?? []).map((c: { handle: string }) => c.handle)
      if (!e.anyCreatorOf.some((h) => handles.includes(h)))
        failures.push(`none of the weekly top creators in the shortlist (${handles.join(', ')})`)
    }
  }
  return { q, status: a.status, data: d, failures, offTopic, contradictions }
}

/** The answer without what legitimately differs between two languages of one question: the echoed input and per-call bookkeeping. */
const ECHO: Readonly<Record<string, readonly string[]>> = {
  'china.trends': ['keyword'],
  'china.sentiment': ['entity'],
  'china.kols': ['category'],
  'capabilities.visibility': ['brand_name'],
  'capabilities.kol_shortlist': ['brand_name', 'category'],
  'capabilities.destination_demand': [],
}
function comparable(route: string, d: any): string {
  return JSON.stringify(d, (k, v) => (ECHO[route]!.includes(k) || ['matched', 'session', 'cache_status'].includes(k) ? undefined : v))
}

/** Where two serialised answers first differ, with some context on each side. */
export function firstDifference(a: string, b: string): string {
  let i = 0
  while (i < a.length && a[i] === b[i]) i++
  return `…${a.slice(Math.max(0, i - 60), i + 60)}… vs …${b.slice(Math.max(0, i - 60), i + 60)}…`
}

export async function evaluate(api: Client): Promise<Report> {
  const outcomes: Outcome[] = []
  for (const q of QUESTIONS) {
    if (!routeById.has(q.route)) throw new Error(`${q.id}: no route ${q.route}`)
    outcomes.push(check(q, await api.paid(q.route, q.query)))
  }
  const inWorld = outcomes.filter((o) => o.q.inWorld)
  const groups = new Map<string, Outcome[]>()
  for (const o of outcomes) if (o.q.pair) groups.set(o.q.pair, [...(groups.get(o.q.pair) ?? []), o])
  const pairDifferences: Report['pairDifferences'] = []
  for (const [pair, members] of groups) {
    const forms = members.map((m) => (m.status === 200 ? comparable(m.q.route, m.data) : `status ${m.status}`))
    const i = forms.findIndex((f) => f !== forms[0])
    if (i > 0) pairDifferences.push({ pair, ids: members.map((m) => m.q.id), diff: firstDifference(forms[0]!, forms[i]!) })
  }
  return {
    outcomes,
    inWorld: inWorld.length,
    inWorldAnswered: inWorld.filter((o) => o.status === 200).length,
    offTopic: outcomes.filter((o) => o.offTopic),
    pairs: groups.size,
    pairsIdentical: groups.size - pairDifferences.length,
    pairDifferences,
    contradictions: outcomes.filter((o) => o.contradictions.length),
    failed: outcomes.filter((o) => o.failures.length),
  }
}

/** The figures as BENCHMARKS.md records them. */
export function summary(r: Report): string {
  const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)}%`
  const byRoute = new Map<string, number>()
  for (const o of r.outcomes) byRoute.set(o.q.route, (byRoute.get(o.q.route) ?? 0) + 1)
  return [
    `questions: ${r.outcomes.length} (${[...byRoute].map(([k, v]) => `${k} ${v}`).join(', ')})`,
    `answered, of the ${r.inWorld} about the sample world: ${r.inWorldAnswered} (${pct(r.inWorldAnswered, r.inWorld)}; target >= 95%)`,
    `off-topic answers: ${r.offTopic.length} (target 0)`,
    `language pairs with identical answers: ${r.pairsIdentical} of ${r.pairs} (${pct(r.pairsIdentical, r.pairs)}; target 100%)`,
    `verdict contradictions: ${r.contradictions.length} (target 0)`,
    `questions whose own expectation failed: ${r.failed.length} of ${r.outcomes.length}`,
  ].join('\n')
}

/**
 * Runs an evaluation set once, before the file's tests, against the service on the sample world through a
 * paying client, and prints its figures under `title` for BENCHMARKS.md; call the returned function inside a
 * test for the report.
 */
export function evaluatedBeforeAll<R>(title: string, run: (api: Client) => Promise<R>, figures: (report: R) => string): () => R {
  let api: Client | undefined
  let report: R | undefined
  beforeAll(async () => {
    api = await Client.start()
    report = await run(api)
    console.log(`\n${title}\n${figures(report)}\n`)
  }, 300_000)
  afterAll(() => api?.close())
  return () => {
    if (report === undefined) throw new Error(`${title}: not run`)
    return report
  }
}
