/**
 * The console as a seller sees it (issue 37): a real chromium signs in through the form after paid
 * traffic (several routes, two networks, answers and a refund by release, on top of a made-up history
 * with settled, pending and failed payments), and reads the page at desktop and phone width: at a
 * glance (issue 50), every table within its box, no sideways scroll, every heading named, every bar
 * labelled, no label stretched. The screenshots are kept in test-artifacts/console/. With CI=true a
 * missing chromium fails; locally it skips.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { chromiumMissing, openDesktopSession, otherHosts, type DesktopSession } from '../../support/chromium'
import { requireTool } from '../../support/required-tool'
import type { StartedServer } from '../../support/server'
import type { ConsoleFigures } from '../../src/http/console/figures'
import { consolePage } from '../../src/http/console/console-page'
import { payTraffic, startSeller, TOKEN } from './support'

const missing = chromiumMissing()
requireTool('test/console/console-page.test.ts', missing, ".ci/run installs Debian's chromium package")

const ARTIFACTS = resolve(import.meta.dir, '../../test-artifacts/console')
const PAGE_TIMEOUT = 60_000

/**
 * What the page looks like, read in the browser (this function runs there): the table boxes' widths, the
 * page's sideways overflow, unnamed headings, the health terms' width, SVG text drawn other than at its
 * size and shape, the bars without a title, overlapping ticks, where the time series' ticks sit, and the
 * payments chart's labels and segments.
 */
function readLayout() {
  const visible = (e: Element) => {
    const r = e.getBoundingClientRect()
    return r.width > 0 && r.height > 0
  }
  const boxes = Array.from(document.querySelectorAll('main .fit')).map((b) => ({
    table: b.closest('figure')?.querySelector('figcaption')?.textContent ?? b.previousElementSibling?.textContent ?? '',
    scrollWidth: b.scrollWidth,
    clientWidth: b.clientWidth,
  }))
  const unnamedHeadings = Array.from(document.querySelectorAll('th'))
    .filter((th) => !th.textContent?.trim())
    .map((th) => th.outerHTML)
  // The health terms (the dl after the Health heading): each value at least half the page's width.
  const main = document.querySelector('main')!.getBoundingClientRect().width
  const healthTerms = Array.from(document.querySelectorAll('h2')).find((h) => h.textContent === 'Health')?.nextElementSibling
  const narrowHealth = Array.from(healthTerms?.querySelectorAll('dd') ?? [])
    .filter((dd) => dd.getBoundingClientRect().width < main / 2)
    .map((dd) => dd.previousElementSibling?.textContent)
  // Text keeps its shape: drawn at 1:1, never inside a stretched (preserveAspectRatio="none") SVG.
  const stretchedText = Array.from(document.querySelectorAll('svg text'))
    .filter((t) => {
      const m = (t as SVGTextElement).getScreenCTM()!
      return m.a !== 1 || m.d !== 1 || m.b !== 0 || m.c !== 0 || t.closest('svg[preserveAspectRatio="none"]') !== null
    })
    .map((t) => t.textContent)
  const untitledBars = Array.from(document.querySelectorAll('rect.bar')).filter(
    (r) => !r.querySelector('title')?.textContent?.trim(),
  ).length
  const figures = Array.from(document.querySelectorAll('figure.chart'))
  const overlappingTicks: string[] = []
  const series = figures.slice(0, 2).map((f) => {
    const bars = Array.from(f.querySelectorAll('rect.bar')).map((r) => r.getBoundingClientRect())
    const ticks = Array.from(f.querySelectorAll('text.tick')).filter((t) => visible(t) && t.getAttribute('text-anchor') === 'middle')
    const boxes = ticks.map((t) => t.getBoundingClientRect())
    for (let i = 1; i < boxes.length; i++)
      if (boxes[i]!.left < boxes[i - 1]!.right) overlappingTicks.push(`${ticks[i - 1]!.textContent} / ${ticks[i]!.textContent}`)
    const periods = Array.from(f.querySelectorAll('text.period'))
      .filter(visible)
      .map((t) => t.getBoundingClientRect())
    for (let i = 1; i < periods.length; i++) if (periods[i]!.left < periods[i - 1]!.right) overlappingTicks.push(`period ${i - 1} / ${i}`)
    const misplaced = boxes
      .map((b, i) => ({ center: (b.left + b.right) / 2, text: ticks[i]!.textContent }))
      .filter(({ center }) => !bars.some((bar) => bar.left <= center && center <= bar.right))
    return { bars: bars.length, ticks: ticks.length, misplaced }
  })
  const states = figures[2]!
  const texts = Array.from(states.querySelectorAll('text'))
    .filter(visible)
    .map((t) => t.textContent)
  const unlabelled = Array.from(states.querySelectorAll('rect.bar'))
    .map((r) => r.querySelector('title')!.textContent!)
    .filter((title) => {
      const at = title.lastIndexOf(': ')
      return !texts.includes(title.slice(0, at)) || !texts.includes(title.slice(at + 2))
    })
  // Each whole's bar: its segments side by side on one line, as long (of the chart's width) as its count is of the largest.
  const wholes = Array.from(states.querySelectorAll('g.whole'))
  const plot = states.querySelector('svg.plot')!.getBoundingClientRect()
  const countOf = (g: Element) => Number(g.querySelector('text.label.count')!.textContent!.replaceAll(',', ''))
  const largest = Math.max(...wholes.map(countOf))
  const stateBars = wholes.map((g) => {
    const segments = Array.from(g.querySelectorAll('rect.bar')).map((r) => r.getBoundingClientRect())
    const gaps = segments
      .slice(1)
      .filter((s, i) => Math.abs(s.left - segments[i]!.right) > 0.5 || s.top !== segments[i]!.top)
      .map((s) => s.left)
    const length = (segments.at(-1)!.right - segments[0]!.left) / plot.width
    return { whole: g.querySelector('text.label')!.textContent, segments: segments.length, gaps, length, share: countOf(g) / largest }
  })
  return {
    pageOverflow: Math.max(0, document.documentElement.scrollWidth - window.innerWidth),
    boxes,
    unnamedHeadings,
    narrowHealth,
    stretchedText,
    untitledBars,
    overlappingTicks,
    series,
    states: { unlabelled, rows: stateBars.map(({ whole, segments }) => ({ whole, segments })), bars: stateBars },
  }
}

describe.skipIf(missing !== null)('the console in chromium', () => {
  let dir: string
  let server: StartedServer
  let origin: string
  let browser: DesktopSession
  let page: Page
  const problems: string[] = []

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'console-page-'))
    server = await startSeller(dir, 40, 60)
    origin = server.url.replace('127.0.0.1', 'localhost')
    await payTraffic(server.url)
    browser = await openDesktopSession()
    page = await browser.context.newPage()
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`)
    })
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    mkdirSync(ARTIFACTS, { recursive: true })
  }, PAGE_TIMEOUT)

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  test(
    'signed in through the form, the page shows revenue, margin, payments and health, with every chart in numbers too',
    async () => {
      await page.goto(`${origin}/console/sign-in`, { waitUntil: 'load' })
      await page.fill('input[name="token"]', TOKEN)
      await Promise.all([page.waitForURL(`${origin}/console`), page.click('button[type="submit"]')])
      expect(await page.title()).toBe('Seller console')
      const headings = await page.locator('h2').allInnerTexts()
      expect(headings).toEqual(['Revenue', 'Provider spend and margin, 30 days', 'Payments, 30 days', 'Health'])
      // Every chart: an image with a name, and its bars' numbers in a table (one row a bar).
      const charts = await page.locator('figure.chart').evaluateAll((figures) =>
        figures.map((f) => ({
          named: Boolean(document.getElementById(f.querySelector('svg')!.getAttribute('aria-labelledby')!)?.textContent),
          bars: f.querySelectorAll('rect.bar').length,
          rows: f.querySelectorAll('tbody tr').length,
        })),
      )
      expect(charts.length).toBe(3)
      // A bar a day, a bar an hour; the payments' three states in seven rows (served and failed with their
      // two parts each), drawn as five bars: served and failed as their parts, pending alone.
      expect(charts).toEqual([
        { named: true, bars: 30, rows: 30 },
        { named: true, bars: 48, rows: 48 },
        { named: true, bars: 5, rows: 7 },
      ])
      const text = await page.locator('main').innerText()
      for (const words of [
        'paid answers',
        'repeat buyers',
        'flights.summary',
        'polygon-amoy',
        'pending settlement',
        'released',
        'Reconciliation',
        'ledger',
      ])
        expect(text).toContain(words)
      expect(text).not.toContain(TOKEN)
    },
    PAGE_TIMEOUT,
  )

  for (const [width, name] of [
    [1280, 'desktop'],
    [390, 'phone'],
  ] as const)
    test(
      `at ${width} px (${name}): every table fits its box, nothing scrolls sideways, every heading is named, every bar labelled, no label stretched`,
      async () => {
        await page.setViewportSize({ width, height: 900 })
        await page.reload({ waitUntil: 'load' })
        await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true })
        // The numbers under the charts too: unfolded, as a seller who opens them sees them.
        await page.evaluate(() => {
          for (const d of Array.from(document.querySelectorAll('details'))) d.open = true
        })
        const layout = await page.evaluate(readLayout)
        expect(layout.pageOverflow).toBe(0)
        // By route, by network, margin, answer times (no live provider here), and the three charts' numbers.
        expect(layout.boxes.length).toBe(7)
        expect(layout.boxes.filter((b) => b.scrollWidth > b.clientWidth)).toEqual([])
        expect(layout.unnamedHeadings).toEqual([])
        expect(layout.narrowHealth).toEqual([])
        expect(layout.stretchedText).toEqual([])
        expect(layout.untitledBars).toBe(0)
        expect(layout.overlappingTicks).toEqual([])
        // A day or hour chart: each visible tick sits under a bar; at desktop width, every bar has one.
        for (const chart of layout.series) {
          expect(chart.misplaced).toEqual([])
          if (width === 1280) expect(chart.ticks).toBe(chart.bars)
          else expect(chart.ticks).toBeGreaterThanOrEqual(4)
        }
        // Payments by state: each bar's name and count are written out, and a whole's parts are the segments of one bar.
        expect(layout.states.unlabelled).toEqual([])
        expect(layout.states.rows).toEqual([
          { whole: 'served', segments: 2 },
          { whole: 'pending settlement', segments: 1 },
          { whole: 'failed, nothing charged', segments: 2 },
        ])
        for (const row of layout.states.bars) {
          expect(row.gaps).toEqual([])
          expect(Math.abs(row.length - row.share)).toBeLessThan(0.01)
        }
        await page.screenshot({ path: join(ARTIFACTS, `${name}-numbers.png`), fullPage: true })
        await page
          .locator('figure.chart')
          .nth(2)
          .screenshot({ path: join(ARTIFACTS, `${name}-payments.png`) })
      },
      PAGE_TIMEOUT,
    )

  test(
    'with live providers, a deferred queue and RPCs and a facilitator that fail (long errors), the page still fits at 1280 and 390 px',
    async () => {
      const res = await fetch(`${server.url}/console`, { headers: { authorization: `Bearer ${TOKEN}`, accept: 'application/json' } })
      const figures: ConsoleFigures = (await res.json()).data
      const error = 'fetch failed: connect ECONNREFUSED 203.0.113.9:8545 (https://rpc.example.invalid/v1/0123456789abcdef0123456789abcdef)'
      const busy: ConsoleFigures = {
        ...figures,
        exposure: {
          ...figures.exposure,
          deferred: {
            queued: 1234,
            in_flight: 56,
            oldest_age_seconds: 7200,
            soonest_expiry_seconds: 60,
            unsettled_usd: '1234.5678',
            largest_payer_unsettled_usd: '99.5',
            payer_cap_usd: '100',
            payers_refused: 3,
          },
        },
        health: {
          ...figures.health,
          facilitator: { reachable: false, error },
          networks: [
            { network: 'base', reachable: false, ms: 5000, error },
            { network: 'polygon', reachable: true, ms: 85 },
          ],
          providers: [
            {
              name: 'tikhub',
              last_status: 'error',
              last_at: figures.generated_at,
              last_error: `upstream answered 503: ${'{"detail":"rate limited, try again in 60 s"}'.repeat(3)}`,
              calls: 123_456,
              errors: 6_789,
              last_ms: 12_034,
              mean_ms: 845,
            },
            {
              name: 'openrouter',
              last_status: 'ok',
              last_at: figures.generated_at,
              last_error: null,
              calls: 42,
              errors: 0,
              last_ms: 900,
              mean_ms: null,
            },
          ],
        },
      }
      for (const [width, name] of [
        [1280, 'desktop'],
        [390, 'phone'],
      ] as const) {
        await page.setViewportSize({ width, height: 900 })
        await page.setContent(consolePage(busy), { waitUntil: 'load' })
        await page.evaluate(() => {
          for (const d of Array.from(document.querySelectorAll('details'))) d.open = true
        })
        const layout = await page.evaluate(readLayout)
        expect(layout.pageOverflow).toBe(0)
        expect(layout.boxes.length).toBe(8) // the live providers' table too
        expect(layout.boxes.filter((b) => b.scrollWidth > b.clientWidth)).toEqual([])
        expect(layout.unnamedHeadings).toEqual([])
        expect(layout.narrowHealth).toEqual([])
        await page.screenshot({ path: join(ARTIFACTS, `${name}-busy.png`), fullPage: true })
      }
    },
    PAGE_TIMEOUT,
  )

  test(
    'nothing was asked of another host, and the browser reported no problem',
    async () => {
      expect(otherHosts(browser.requests.urls, origin)).toEqual([])
      expect(browser.requests.failed).toEqual([])
      expect(problems).toEqual([])
    },
    PAGE_TIMEOUT,
  )
})
