import { existsSync } from 'node:fs'
import { chromium, type Browser, type BrowserContext } from 'playwright-core'

/** Debian's chromium (`apt-get install -y chromium`), driven by playwright-core: no browser download. */
export const CHROMIUM_PATH = '/usr/bin/chromium'

/** Headless, and quiet: without the background-networking flags chromium calls Google services on start. */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Why chromium cannot run here, or null when it can. */
export const chromiumMissing = (): string | null =>
  existsSync(CHROMIUM_PATH) ? null : `${CHROMIUM_PATH} is missing (install it with: apt-get install -y chromium)`

/** A browser with a fresh temporary profile (playwright's launch creates and deletes it). */
export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS })

/** A browser with one context at desktop size (1280 × 900), its requests recorded from the start; `close` ends both. */
export interface DesktopSession {
  context: BrowserContext
  requests: RecordedRequests
  close(): Promise<void>
}

export async function openDesktopSession(): Promise<DesktopSession> {
  const browser = await launchChromium()
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const close = async () => {
      await context.close()
      await browser.close()
    }
    return { context, requests: recordRequests(context), close }
  } catch (error) {
    await browser.close()
    throw error
  }
}

export interface RecordedRequests {
  urls: string[]
  failed: string[]
}

/**
 * Every request the pages of a context make (documents, scripts, styles, images, fetches, workers'),
 * as absolute URLs, and the ones that failed; attach before the first navigation.
 */
function recordRequests(context: BrowserContext): RecordedRequests {
  const record: RecordedRequests = { urls: [], failed: [] }
  context.on('request', (r) => record.urls.push(r.url()))
  context.on('requestfailed', (r) => record.failed.push(`${r.url()}: ${r.failure()?.errorText}`))
  return record
}

/** The recorded URLs that are not on `origin` (data: and blob: URLs never leave the page). */
export const otherHosts = (urls: string[], origin: string) =>
  urls.filter((u) => !u.startsWith('data:') && !u.startsWith('blob:') && new URL(u).origin !== origin)
