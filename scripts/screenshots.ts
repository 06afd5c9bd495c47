// Writes the screenshots of the pages people open into docs/screenshots/: the front door, the 402 page
// a browser gets on a paid route, and the API reference. Starts the service from source on a free port
// and drives Debian's chromium (apt-get install -y chromium) with playwright-core, like test/docs/pages.test.ts.
// Run: bun scripts/screenshots.ts. Chinese text needs a CJK font on this machine (e.g. fonts-wqy-microhei).
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { exampleCall } from '../src/catalog/examples'
import { routeById } from '../src/catalog'
import { chromiumMissing, launchChromium } from '../support/chromium'
import { startServer } from '../support/server'

const OUT = resolve(import.meta.dir, '../docs/screenshots')

const missing = chromiumMissing()
if (missing) {
  console.error(`screenshots: ${missing}`)
  process.exit(1)
}
if (Bun.spawnSync(['fc-list', ':lang=zh', 'family']).stdout.toString().trim() === '') {
  console.warn('screenshots: no CJK font installed, Chinese text will show as boxes (apt-get install -y fonts-wqy-microhei)')
}

mkdirSync(OUT, { recursive: true })
// The pages show the public URL of a default local start (npm start); the browser opens the free port.
const server = await startServer({ PUBLIC_BASE_URL: 'http://localhost:3000' })
const origin = server.url
const browser = await launchChromium()
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' })
  const page = await context.newPage()
  const shot = async (name: string, fullPage: boolean) => {
    await page.evaluate(() => document.fonts.ready)
    await page.screenshot({ path: resolve(OUT, name), fullPage })
    console.log(`wrote docs/screenshots/${name}`)
  }

  await page.goto(`${origin}/`, { waitUntil: 'load' })
  await shot('front-door.png', true)

  const route = routeById.get('china.trends')!
  const example = exampleCall(route)
  const query = new URLSearchParams(Object.entries(example.input).map(([k, v]) => [k, String(v)])).toString()
  const response = await page.goto(`${origin}${example.path}?${query}`, { waitUntil: 'load' })
  if (response?.status() !== 402) throw new Error(`expected the 402 page, got ${response?.status()}`)
  await shot('payment-required.png', true)

  // The reference opened at the route; wait until Scalar has rendered and scrolled to its heading.
  await page.goto(`${origin}/openapi#tag/china/GET/v1/china/trends`, { waitUntil: 'load' })
  const heading = `USD ${route.priceUsd} · ${route.summary}`
  await page.waitForFunction((text) => {
    const el = Array.from(document.querySelectorAll('h1, h2, h3')).find((h) => h.textContent?.trim() === text)
    const top = el?.getBoundingClientRect().top
    return top !== undefined && top >= 0 && top < 200
  }, heading)
  await shot('api-reference.png', false)
} finally {
  await browser.close()
  await server.stop()
}
