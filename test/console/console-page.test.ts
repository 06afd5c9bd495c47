/**
 * The console as a seller sees it (issue 37): a real chromium signs in through the form after paid
 * traffic (several routes, two networks, answers and a refund by release, on top of a made-up history
 * with settled, pending and failed payments), and reads the page at desktop and phone width. The
 * screenshots are kept in test-artifacts/console/. With CI=true a missing chromium fails; locally it skips.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { chromiumMissing, launchChromium, otherHosts, recordRequests } from '../../support/chromium'
import { requireTool } from '../../support/required-tool'
import type { StartedServer } from '../../support/server'
import { payTraffic, startSeller, TOKEN } from './support'

const missing = chromiumMissing()
requireTool('test/console/console-page.test.ts', missing, ".ci/run installs Debian's chromium package")

const ARTIFACTS = resolve(import.meta.dir, '../../test-artifacts/console')
const PAGE_TIMEOUT = 60_000

describe.skipIf(missing !== null)('the console in chromium', () => {
  let dir: string
  let server: StartedServer
  let origin: string
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let requests: ReturnType<typeof recordRequests>
  const problems: string[] = []

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'console-page-'))
    server = await startSeller(dir, 40, 60)
    origin = server.url.replace('127.0.0.1', 'localhost')
    await payTraffic(server.url)
    browser = await launchChromium()
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    requests = recordRequests(context)
    page = await context.newPage()
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`)
    })
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    mkdirSync(ARTIFACTS, { recursive: true })
  }, PAGE_TIMEOUT)

  afterAll(async () => {
    await context?.close()
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
      for (const chart of charts) expect(chart).toEqual({ named: true, bars: chart.rows, rows: chart.rows })
      expect(charts.map((c) => c.rows)).toEqual([30, 48, 6])
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
      await page.screenshot({ path: join(ARTIFACTS, 'desktop.png'), fullPage: true })
    },
    PAGE_TIMEOUT,
  )

  test(
    'at phone width the page fits the screen (tables scroll inside their box), and nothing was asked of another host',
    async () => {
      await page.setViewportSize({ width: 390, height: 844 })
      await page.reload({ waitUntil: 'load' })
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
      await page.screenshot({ path: join(ARTIFACTS, 'phone.png'), fullPage: true })
      expect(otherHosts(requests.urls, origin)).toEqual([])
      expect(requests.failed).toEqual([])
      expect(problems).toEqual([])
    },
    PAGE_TIMEOUT,
  )
})
