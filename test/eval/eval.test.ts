/**
 * The buyer evaluation set, run against the service on the sample world. The figures are printed for
 * BENCHMARKS.md; the targets of the intelligence quality issue are asserted, and so is every question's
 * own expectation (a failure names the question and what the answer did).
 */
import { describe, expect, test } from 'bun:test'
import { evaluate, evaluatedBeforeAll, mentions, summary, type Report } from './evaluate'
import { QUESTIONS } from './questions'

const report = evaluatedBeforeAll('buyer evaluation set', evaluate, summary)

const describeOutcomes = (os: Report['outcomes'], why: (o: Report['outcomes'][number]) => string) =>
  os.map((o) => `${o.q.id} ${JSON.stringify(o.q.query)}: ${why(o)}`)

describe('the evaluation set itself', () => {
  test('has at least 150 questions in English and Chinese, in and out of the sample world, with language pairs', () => {
    expect(QUESTIONS.length).toBeGreaterThanOrEqual(150)
    expect(new Set(QUESTIONS.map((q) => q.id)).size).toBe(QUESTIONS.length)
    expect(QUESTIONS.filter((q) => q.lang === 'zh').length).toBeGreaterThanOrEqual(40)
    expect(QUESTIONS.filter((q) => !q.inWorld).length).toBeGreaterThanOrEqual(30)
    expect(new Set(QUESTIONS.filter((q) => q.pair).map((q) => q.pair)).size).toBeGreaterThanOrEqual(35)
  })

  test('the whole-word check a buyer applies does not count letters inside other words', () => {
    expect(mentions('Skincare routine', 'ski')).toBe(false)
    expect(mentions('Ski trips: the itinerary', 'ski')).toBe(true)
    expect(mentions('worth every penny', 'EV')).toBe(false)
    expect(mentions('今天聊聊东京旅行', '东京')).toBe(true)
  })
})

describe('a buyer asking about the sample world', () => {
  test('gets an answer to at least 95% of the questions about things in it', () => {
    const missed = report().outcomes.filter((o) => o.q.inWorld && o.status !== 200)
    expect(
      report().inWorldAnswered / report().inWorld,
      describeOutcomes(missed, (o) => `status ${o.status}`).join('\n'),
    ).toBeGreaterThanOrEqual(0.95)
  })

  test('never gets an answer about something else, nor a confident answer about something that does not exist', () => {
    expect(describeOutcomes(report().offTopic, (o) => o.offTopic!)).toEqual([])
  })

  test('gets the same answer in English and Chinese (and by code), apart from the echoed input', () => {
    expect(report().pairDifferences.map((p) => `${p.pair} (${p.ids.join(', ')}): ${p.diff}`)).toEqual([])
  })

  test('never gets a verdict that contradicts its own evidence', () => {
    expect(describeOutcomes(report().contradictions, (o) => o.contradictions.join('; '))).toEqual([])
  })

  test("gets every question's expected direction, label, action and creators", () => {
    expect(describeOutcomes(report().failed, (o) => o.failures.join('; '))).toEqual([])
  })
})
