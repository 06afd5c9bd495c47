/**
 * Runs the name evaluation set (./name-questions.ts) against the in-process service on the sample world
 * and measures what its issue asks for: variant parity (a spelling gets its canonical question's answer),
 * near misses and other free 404s charged (the ledger is read for every proof), weekly directions
 * contradicted without a word on why, and answers carrying the sample label. Every check reads the answer
 * (and the ledger) as a buyer or an operator would; none looks inside the code.
 */
import { routeById } from '../../src/catalog'
import { COUNTRIES, DESTINATIONS } from '../../src/data/sample-geography'
import type { Answer, Client } from '../../support/paying-client'
import { firstDifference } from './evaluate'
import { NAME_QUESTIONS, type NameQuestion } from './name-questions'

export interface NameOutcome {
  q: NameQuestion
  status: number
  data: any
  error: any
  /** The proof was charged: the ledger holds it as served. */
  charged: boolean
  failures: string[]
  /** Weekly trend questions: the answer's direction differs from the weekly data and says nothing of why. */
  unexplained: string | null
  /** Answered: the sample label is complete (flag first in data, summary sentence, confidence < 1). */
  labelled: boolean
}

export interface NameReport {
  outcomes: NameOutcome[]
  parity: { pairs: number; identical: number; differences: string[] }
  /** Questions a buyer expects a free 404 for (near misses first among them) that were charged. */
  notFoundCharged: NameOutcome[]
  nearMisses: number
  nearMissesCharged: NameOutcome[]
  weekly: { asked: number; agree: number; explained: number; unexplained: NameOutcome[] }
  answered: number
  sampleFlagged: number
  fullyLabelled: number
  failed: NameOutcome[]
}

/** What the answer says it is about, by the route's own `resolved` (destination demand names the place). */
function about(q: NameQuestion, d: any): string | null {
  if (q.route === 'capabilities.kol_shortlist') return d.resolved?.category?.id ?? null
  if (q.route === 'capabilities.destination_demand') {
    if (d.scope === 'country') return `country:${COUNTRIES.find((c) => c.name === d.country)?.code ?? d.country}`
    return `destination:${DESTINATIONS.find((p) => p.name === d.destination)?.code ?? d.destination}`
  }
  return d.resolved?.id ?? null
}

/** The sentence a buyer reads first: the summary string, the trend headline or the sentiment narrative. */
function summarySentence(d: any): string {
  if (typeof d.summary === 'string') return d.summary
  return d.summary?.headline ?? d.summary?.narrative ?? ''
}

const confidenceOf = (d: any): number | null => d.confidence ?? d.summary?.confidence ?? null

/** What legitimately differs between two spellings of one question: the echoed input, how it resolved, per-call bookkeeping. */
const ECHO = new Set(['keyword', 'entity', 'category', 'brand_name', 'matched', 'stripped', 'corrected_from', 'session', 'cache_status'])
const comparable = (d: any) => JSON.stringify(d, (k, v) => (ECHO.has(k) ? undefined : v))

const WEEKLY_MOMENTUM = { rising: 'rising', falling: 'falling', flat: 'stable' } as const

function check(q: NameQuestion, a: Answer, charged: boolean): NameOutcome {
  const e = q.expect
  const d = a.status === 200 ? a.body.data : null
  const err = a.status === 200 ? null : a.body.error
  const failures: string[] = []
  let unexplained: string | null = null
  if (e.outcome === 'answered' && !d) failures.push(`expected an answer, got ${a.status} ${err?.code}: ${err?.message}`)
  if (e.outcome === 'not_found') {
    if (d) failures.push(`expected a free 404, answered about ${about(q, d)}`)
    else if (a.status !== 404 || err.code !== 'not_found') failures.push(`expected a free 404, got ${a.status} ${err?.code}`)
    else if (e.didYouMean) {
      const offered = ((err.details?.did_you_mean ?? []) as { id: string }[]).map((c) => c.id)
      if (!e.didYouMean.some((id) => offered.includes(id)))
        failures.push(`did you mean offers [${offered.join(', ')}], none of ${e.didYouMean.join(', ')}`)
    }
    if (charged) failures.push('charged for a question with no answer')
  }
  let labelled = false
  if (d) {
    const id = about(q, d)
    if (e.about && id !== e.about) failures.push(`about ${id}, not ${e.about}`)
    const c = confidenceOf(d)
    labelled =
      Object.keys(d)[0] === 'sample' && d.sample === true && /Sample data|样本数据/.test(summarySentence(d)) && (c === null || c < 1)
    if (e.label && !labelled)
      failures.push(`label incomplete: sample ${d.sample}, summary "${summarySentence(d).slice(-80)}", confidence ${c}`)
    const action = d.recommendation?.action
    if ((action === 'proceed' || action === 'amplify') && c !== null && c >= 0.95)
      failures.push(`${action} at confidence ${c} on sample data`)
    if (e.weekly && q.route === 'china.trends') {
      const momentum = d.summary.momentum
      if (momentum !== WEEKLY_MOMENTUM[e.weekly]) {
        const h: string = d.summary.headline
        // A buyer accepts a different reading when the answer puts the weekly figure beside it and says why.
        if (!/Weekly:/.test(h) || !/because|noise|differ/.test(h.slice(h.indexOf('Weekly:'))))
          unexplained = `${momentum} against weekly ${e.weekly}: "${h}"`
      }
    }
    if (e.topCreators) {
      const weekly = (d.weekly_top_creators ?? []) as { handle: string; standing: string }[]
      for (const h of e.topCreators) {
        const w = weekly.find((c) => c.handle === h)
        if (!w) failures.push(`${h} is not among the weekly top creators the answer lists (${weekly.map((c) => c.handle).join(', ')})`)
        else if (w.standing === 'not_a_candidate') failures.push(`${h}, a weekly top creator of the category, is not a candidate`)
      }
    }
  }
  if (unexplained) failures.push(`weekly direction contradicted without a reason: ${unexplained}`)
  return { q, status: a.status, data: d, error: err, charged, failures, unexplained, labelled }
}

export async function evaluateNames(api: Client): Promise<NameReport> {
  const outcomes: NameOutcome[] = []
  for (const q of NAME_QUESTIONS) {
    if (!routeById.has(q.route)) throw new Error(`${q.id}: no route ${q.route}`)
    const proof = await api.proof(q.route)
    const a = await api.paid(q.route, q.query, proof)
    outcomes.push(check(q, a, (await api.ledgerState(proof)) === 'served'))
  }
  const byId = new Map(outcomes.map((o) => [o.q.id, o]))
  const differences: string[] = []
  let pairs = 0
  for (const o of outcomes) {
    const canon = o.q.expect.sameAs ? byId.get(o.q.expect.sameAs) : undefined
    if (!canon) continue
    pairs++
    const [x, y] = [canon.data ? comparable(canon.data) : `status ${canon.status}`, o.data ? comparable(o.data) : `status ${o.status}`]
    if (x !== y) {
      differences.push(`${o.q.id} vs ${canon.q.id}: ${firstDifference(x, y)}`)
      o.failures.push(`differs from ${canon.q.id}`)
    }
  }
  const weekly = outcomes.filter((o) => o.q.expect.weekly && o.q.route === 'china.trends' && o.data)
  const agree = weekly.filter((o) => o.data.summary.momentum === WEEKLY_MOMENTUM[o.q.expect.weekly!])
  const answered = outcomes.filter((o) => o.data)
  const nearMisses = outcomes.filter((o) => o.q.kind === 'near_miss')
  return {
    outcomes,
    parity: { pairs, identical: pairs - differences.length, differences },
    notFoundCharged: outcomes.filter((o) => o.q.expect.outcome === 'not_found' && o.charged),
    nearMisses: nearMisses.length,
    nearMissesCharged: nearMisses.filter((o) => o.charged && (o.q.expect.outcome === 'not_found' || o.failures.length > 0)),
    weekly: {
      asked: weekly.length,
      agree: agree.length,
      explained: weekly.length - agree.length - weekly.filter((o) => o.unexplained).length,
      unexplained: weekly.filter((o) => o.unexplained),
    },
    answered: answered.length,
    sampleFlagged: answered.filter((o) => o.data.sample === true && Object.keys(o.data)[0] === 'sample').length,
    fullyLabelled: answered.filter((o) => o.labelled).length,
    failed: outcomes.filter((o) => o.failures.length),
  }
}

/** The figures as BENCHMARKS.md records them. */
export function nameSummary(r: NameReport): string {
  const pct = (a: number, b: number) => `${b ? ((100 * a) / b).toFixed(1) : '0.0'}%`
  const kinds = new Map<string, number>()
  for (const o of r.outcomes) kinds.set(o.q.kind, (kinds.get(o.q.kind) ?? 0) + 1)
  return [
    `questions: ${r.outcomes.length} (${[...kinds].map(([k, v]) => `${k} ${v}`).join(', ')})`,
    `variant parity (a spelling answers as its canonical question): ${r.parity.identical} of ${r.parity.pairs} (${pct(r.parity.identical, r.parity.pairs)}; target 100%)`,
    `near misses charged for an answer they did not ask for: ${r.nearMissesCharged.length} of ${r.nearMisses} (target 0); any expected free 404 charged: ${r.notFoundCharged.length}`,
    `weekly trend questions: ${r.weekly.asked}; agreeing with the weekly data ${r.weekly.agree}, differing and saying why ${r.weekly.explained}, contradicting it without a reason ${r.weekly.unexplained.length} (target 0)`,
    `answers carrying the top-level sample flag: ${r.sampleFlagged} of ${r.answered} (${pct(r.sampleFlagged, r.answered)}; target 100%); with the summary sentence and confidence < 1 as well: ${r.fullyLabelled}`,
    `questions whose own expectation failed: ${r.failed.length} of ${r.outcomes.length}`,
  ].join('\n')
}
