/**
 * The name evaluation set, run against the service on the sample world: names as buyers type them. The
 * figures are printed for BENCHMARKS.md; the targets are asserted, and so is every question's own
 * expectation (a failure names the question and what the answer did).
 */
import { describe, expect, test } from 'bun:test'
import { evaluatedBeforeAll } from './evaluate'
import { NAME_QUESTIONS } from './name-questions'
import { evaluateNames, nameSummary, type NameOutcome, type NameReport } from './names'

const report = evaluatedBeforeAll('name evaluation set', evaluateNames, nameSummary)

const lines = (os: NameOutcome[], why: (o: NameOutcome) => string) =>
  os.map((o) => `${o.q.id} ${o.q.route} ${JSON.stringify(o.q.query)}: ${why(o)}`)

describe('the name evaluation set itself', () => {
  test('has at least 120 questions of every kind the issue names, in English and Chinese, each with a reason', () => {
    expect(NAME_QUESTIONS.length).toBeGreaterThanOrEqual(120)
    expect(new Set(NAME_QUESTIONS.map((q) => q.id)).size).toBe(NAME_QUESTIONS.length)
    for (const kind of ['variant', 'joined', 'intent', 'category_word', 'code', 'near_miss', 'weekly', 'label'] as const) {
      expect(NAME_QUESTIONS.filter((q) => q.kind === kind).length, kind).toBeGreaterThanOrEqual(10)
    }
    expect(NAME_QUESTIONS.filter((q) => q.lang === 'zh').length).toBeGreaterThanOrEqual(40)
    for (const q of NAME_QUESTIONS) {
      expect(q.expect.why.length, q.id).toBeGreaterThan(10)
      if (q.expect.sameAs) expect(NAME_QUESTIONS.find((c) => c.id === q.expect.sameAs)?.route, q.id).toBe(q.route)
    }
  })
})

describe('a buyer typing names as people do', () => {
  test('gets the canonical answer for every spelling of a name (variant parity 100%)', () => {
    expect(report().parity.differences).toEqual([])
  })

  test('is never charged for a near miss or anything else with no answer', () => {
    expect(lines(report().nearMissesCharged, (o) => `charged, ${o.status}`)).toEqual([])
    expect(lines(report().notFoundCharged, (o) => `charged, ${o.status}`)).toEqual([])
  })

  test('never gets a trend that contradicts the weekly data without saying why', () => {
    expect(report().weekly.asked).toBeGreaterThanOrEqual(10)
    expect(lines(report().weekly.unexplained, (o) => o.unexplained!)).toEqual([])
  })

  test('reads in every answer that it is sample data: the flag first in data, the summary, confidence under 1', () => {
    expect(report().answered).toBeGreaterThan(100)
    expect(
      lines(
        report().outcomes.filter((o) => o.data && !o.labelled),
        () => 'not labelled',
      ),
    ).toEqual([])
  })

  test("gets every question's own expectation", () => {
    expect(lines(report().failed, (o) => o.failures.join('; '))).toEqual([])
  })
})
