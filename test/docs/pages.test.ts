/**
 * The pages people open, checked in a real headless chromium against the started service: the front
 * door, a paid route's 402 page and the API reference. Every request the pages make is recorded: none
 * may go to a host other than the service. With CI=true a missing chromium fails; locally it skips.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { CATALOG } from '../../src/catalog'
import { exampleCall } from '../../src/catalog/examples'
import { chromiumMissing, openDesktopSession, otherHosts, type DesktopSession } from '../../support/chromium'
import { requireTool } from '../../support/required-tool'
import { startServer, type StartedServer } from '../../support/server'

const missing = chromiumMissing()
requireTool('test/docs/pages.test.ts', missing, ".ci/run installs Debian's chromium package")

const PAGE_TIMEOUT = 60_000

describe.skipIf(missing !== null)('pages in chromium', () => {
  let server: StartedServer
  let origin: string
  let browser: DesktopSession

  beforeAll(async () => {
    server = await startServer()
    // The service's public URL is http://localhost:<port> (PUBLIC_BASE_URL's default): open it there,
    // so its absolute links and the page are one origin.
    origin = server.url.replace('127.0.0.1', 'localhost')
    browser = await openDesktopSession()
  }, PAGE_TIMEOUT)

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  const open = async (path: string): Promise<[Page, number]> => {
    const page = await browser.context.newPage()
    const response = await page.goto(origin + path, { waitUntil: 'load' })
    return [page, response!.status()]
  }

  test(
    'the front door: title, one row per catalog route with its price, the links, no sideways scrolling on a phone',
    async () => {
      const [page, status] = await open('/')
      expect(status).toBe(200)
      expect(await page.title()).toBe('China market-intelligence API')
      const rows = await page.locator('tr[data-route]').evaluateAll((trs) =>
        trs.map((tr) => ({
          id: tr.getAttribute('data-route'),
          path: tr.querySelector('td.path')!.textContent,
          price: tr.querySelector('td.price')!.textContent,
        })),
      )
      expect(rows).toEqual(CATALOG.map((r) => ({ id: r.id, path: r.path, price: `USD ${r.priceUsd}` })))
      const links = await page.locator('a[href]').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href))
      for (const path of ['/openapi', '/openapi/json', '/llms.txt', '/.well-known/x402', '/mcp', '/health'])
        expect(links).toContain(origin + path)
      expect(await page.locator('.note').innerText()).toContain('generated')
      // The icon the page links is served and is an image.
      expect(await page.locator('header img').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0)
      await page.setViewportSize({ width: 390, height: 844 })
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
      await page.close()
    },
    PAGE_TIMEOUT,
  )

  test(
    'a paid route in a browser: the 402 page with the price, still status 402 with the requirements header',
    async () => {
      const route = CATALOG.find((r) => r.id === 'china.trends')!
      const example = exampleCall(route)
      const query = new URLSearchParams(Object.entries(example.input).map(([k, v]) => [k, String(v)])).toString()
      const page = await browser.context.newPage()
      const response = (await page.goto(`${origin}${example.path}?${query}`, { waitUntil: 'load' }))!
      expect(response.status()).toBe(402)
      expect(response.headers()['payment-required']).toBeTruthy()
      expect(await page.title()).toBe(`402 Payment required: ${route.path}`)
      expect(await page.locator('h1').innerText()).toBe(route.summary)
      expect(await page.locator('[data-price]').innerText()).toBe(`USD ${route.priceUsd}`)
      expect(await page.locator('pre').innerText()).toContain(`curl -i '${origin}${example.path}?${query}'`)
      await page.close()
    },
    PAGE_TIMEOUT,
  )

  test(
    'the API reference renders, every operation in the sidebar starts with its whole price, and Test Request stays on this server',
    async () => {
      const [page, status] = await open('/openapi')
      expect(status).toBe(200)
      const sidebarItem = (route: (typeof CATALOG)[number], method: string) =>
        `li[data-sidebar-id="api-1/tag/${route.family}/${method}${route.path.replace(/:(\w+)/g, '{$1}')}"]`
      await page.locator(sidebarItem(CATALOG[0]!, 'GET')).first().waitFor({ timeout: PAGE_TIMEOUT })
      // Open every group of the sidebar (the first is open already).
      for (const family of [...new Set(CATALOG.map((r) => r.family))]) {
        const closed = page.locator(`li[data-sidebar-id="api-1/tag/${family}"] button[aria-expanded="false"]`).first()
        if (await closed.isVisible()) await closed.click()
        await page
          .locator(sidebarItem(CATALOG.find((r) => r.family === family)!, 'GET'))
          .first()
          .waitFor()
      }
      // Each label's price as the reader sees it: its text, and on how many lines the "USD x.xx" is drawn.
      const labels = await page.evaluate(() => {
        const out: Record<string, { text: string; lines: number }> = {}
        for (const li of Array.from(document.querySelectorAll('li[data-sidebar-id]'))) {
          const label = li.querySelector(':scope > button [class~="group/button-label"]')
          const text = label?.textContent ?? ''
          const price = /USD \d+\.\d+/.exec(text)
          if (!label || !price || label.getClientRects().length === 0) continue
          // The price may span several text nodes (Scalar puts a <wbr> before each "."): map offsets to nodes.
          const range = document.createRange()
          const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT)
          let offset = 0
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const length = node.textContent!.length
            if (price.index >= offset && price.index < offset + length) range.setStart(node, price.index - offset)
            if (price.index + price[0].length <= offset + length) {
              range.setEnd(node, price.index + price[0].length - offset)
              break
            }
            offset += length
          }
          const tops = new Set(
            Array.from(range.getClientRects())
              .filter((r) => r.width > 0)
              .map((r) => Math.round(r.top)),
          )
          out[li.getAttribute('data-sidebar-id')!] = { text, lines: tops.size }
        }
        return out
      })
      for (const route of CATALOG) {
        for (const method of route.methods) {
          const id = sidebarItem(route, method).slice('li[data-sidebar-id="'.length, -2)
          expect({ id, ...labels[id] }).toEqual({ id, text: `USD ${route.priceUsd} · ${route.summary}`, lines: 1 })
        }
      }
      // The built-in client sends its request straight to the service (no request proxy).
      await page.getByRole('button', { name: 'Test Request' }).first().click()
      const sent = page.waitForResponse((r) => r.url().startsWith(`${origin}/v1/`))
      await page.getByRole('button', { name: /^Send/ }).first().click()
      expect((await sent).status()).toBe(402)
      await page.close()
    },
    PAGE_TIMEOUT * 2,
  )

  test('no page made a request to another host, and none failed', () => {
    // Runs after the page tests (bun runs a file's tests in order).
    expect(browser.requests.urls.length).toBeGreaterThan(5)
    expect(browser.requests.urls).toContain(`${origin}/openapi/assets/scalar.js`)
    expect(otherHosts(browser.requests.urls, origin)).toEqual([])
    expect(browser.requests.failed).toEqual([])
  })
})
