import { PROVIDER_LIMITS } from '../../catalog'
import { foreignText, JsonShape, msLeft } from '../../core'
import { ProviderError, ProviderNotCalled } from '../evidence'
import { turn } from '../turns'

/**
 * Runs one provider call under its timeout and an optional caller signal. The call gets an AbortSignal
 * that fires on either; whichever fires first decides the typed failure (timeout or cancelled), even if
 * the provider ignores the signal (DuckDB queries cannot be interrupted: the answer is then dropped).
 * Under a paid request the call also ends by the request's work deadline (core/work-deadline.ts): the
 * payment must still be valid when it is settled, however long the providers are allowed.
 */
export async function withDeadline<T>(
  provider: string,
  timeoutMs: number,
  work: (signal: AbortSignal) => Promise<T>,
  parent?: AbortSignal,
): Promise<T> {
  const left = msLeft()
  if (left !== undefined && left <= 0) throw new ProviderNotCalled('timeout', provider, windowSpent)
  const byWindow = left !== undefined && left < timeoutMs
  const ms = byWindow ? left : timeoutMs
  const controller = new AbortController()
  const abort = (reason: ProviderError) => {
    if (!controller.signal.aborted) controller.abort(reason)
  }
  const timer = setTimeout(
    () => abort(new ProviderError('timeout', provider, byWindow ? windowRanOut(ms) : `no answer within ${ms} ms`)),
    ms,
  )
  const onParentAbort = () => abort(new ProviderError('cancelled', provider, 'the request was cancelled'))
  if (parent?.aborted) onParentAbort()
  else parent?.addEventListener('abort', onParentAbort, { once: true })
  const aborted = new Promise<never>((_, reject) => {
    if (controller.signal.aborted) reject(controller.signal.reason)
    else controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true })
  })
  try {
    return await Promise.race([work(controller.signal), aborted])
  } catch (error) {
    if (controller.signal.aborted) throw controller.signal.reason as ProviderError
    if (error instanceof ProviderError) throw error
    throw new ProviderError('unavailable', provider, foreignText(error instanceof Error ? error.message : String(error)))
  } finally {
    clearTimeout(timer)
    parent?.removeEventListener('abort', onParentAbort)
  }
}

/** Why a call under a paid request was not made or not waited for (its authorization must still be valid to settle). */
const windowSpent = "not called: the payment's time for the work is spent"
const windowRanOut = (ms: number) => `no answer within the ${ms} ms left of the payment's time for the work`

/** A provider answered an HTTP error status; `excerpt` is the start of its body (vendors explain there). */
export class ProviderHttpError extends ProviderError {
  constructor(
    provider: string,
    readonly status: number,
    readonly excerpt: string,
    retryAfterSeconds?: number,
  ) {
    const kind = status === 429 ? 'rate_limited' : 'unavailable'
    // The vendor's own explanation, summarised: an error body may echo the request with its key.
    const said = foreignText(excerpt)
    super(
      kind,
      provider,
      `answered HTTP ${status}${status === 401 || status === 403 ? ' (check its key and plan)' : ''}${said ? `: ${said}` : ''}`,
      retryAfterSeconds,
    )
  }
}

/** Bytes of an error answer kept for its message. */
const ERROR_EXCERPT_BYTES = 2048

/** Retry-After in seconds (delta seconds, or an HTTP date), when sane. */
export function retryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined
  const seconds = /^\d+$/.test(value.trim()) ? Number(value.trim()) : (Date.parse(value) - now) / 1000
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(Math.ceil(seconds), 86_400) : undefined
}

/**
 * fetch() for providers: network failures and non-2xx answers become `unavailable` (429: `rate_limited`,
 * with its Retry-After); a body over `maxBytes` (declared or read) or of a shape that would hold the event
 * loop in JSON.parse (nested or keyed past PROVIDER_LIMITS, found while reading), HTML where JSON was
 * expected (a login page, a proxy's error page, a search engine's result page) or anything else that is
 * not JSON, `bad_response`.
 */
export async function fetchJson(provider: string, url: string, init: RequestInit, maxBytes: number): Promise<unknown> {
  let res: Response
  try {
    res = await fetch(url, init)
  } catch (error) {
    if (init.signal?.aborted) throw init.signal.reason
    throw new ProviderError(
      'unavailable',
      provider,
      `request failed: ${foreignText(error instanceof Error ? error.message : String(error))}`,
    )
  }
  if (!res.ok) {
    const excerpt = await readExcerpt(res, ERROR_EXCERPT_BYTES)
    throw new ProviderHttpError(provider, res.status, excerpt, retryAfter(res.headers.get('retry-after')))
  }
  const text = await readText(provider, res, maxBytes, init.signal ?? undefined)
  // Answers that arrive together are parsed in separate turns (tens of ms at most each, their shape checked).
  await turn()
  try {
    return JSON.parse(text)
  } catch {
    const html = /^\s*</.test(text) || (res.headers.get('content-type') ?? '').includes('html')
    throw new ProviderError(
      'bad_response',
      provider,
      html ? "answered HTML, not JSON (is this the API's address, and is JSON output enabled?)" : 'answered with a body that is not JSON',
    )
  }
}

/** The first `maxBytes` of a body (an error answer's explanation); the rest is not read. */
async function readExcerpt(res: Response, maxBytes: number): Promise<string> {
  if (!res.body) return ''
  const reader = res.body.getReader()
  const parts: Uint8Array[] = []
  let size = 0
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read()
      if (done) break
      parts.push(value)
      size += value.byteLength
    }
  } catch {
    // A broken-off error answer still is an error answer: what arrived is enough.
  } finally {
    await reader.cancel().catch(() => {})
  }
  return new TextDecoder().decode(Buffer.concat(parts).subarray(0, maxBytes))
}

const tooLarge = (provider: string, maxBytes: number, declared?: number) =>
  new ProviderError(
    'bad_response',
    provider,
    `${declared ? `declared ${declared.toLocaleString('en')} bytes, ` : 'answered '}more than the ${maxBytes.toLocaleString('en')} bytes allowed`,
  )

/** The shape JSON.parse is given at most (see JsonShape), as a `bad_response` otherwise. */
export function checkShape(provider: string, shape: JsonShape): void {
  const over = shape.over({ depth: PROVIDER_LIMITS.jsonDepth, keys: PROVIDER_LIMITS.jsonKeys })
  if (over) throw new ProviderError('bad_response', provider, `answered ${over}`)
}

/**
 * The body as text, read chunk by chunk and cancelled as soon as it passes `maxBytes` or the JSON shape
 * limits: a provider that streams without end (or declares a huge Content-Length) costs at most that much
 * memory and time. Chunks are decoded and scanned as they arrive, not megabytes in one piece at the end.
 */
async function readText(provider: string, res: Response, maxBytes: number, signal?: AbortSignal): Promise<string> {
  const declared = Number(res.headers.get('content-length'))
  if (declared > maxBytes) {
    await res.body?.cancel().catch(() => {})
    throw tooLarge(provider, maxBytes, declared)
  }
  if (!res.body) return ''
  const reader = res.body.getReader()
  const decoder = new TextDecoder()
  const parts: string[] = []
  const shape = new JsonShape()
  let size = 0
  try {
    for (;;) {
      // Chunks already buffered arrive without a pause: decoding megabytes of them would hold the event loop.
      await turn()
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > maxBytes) throw tooLarge(provider, maxBytes)
      const part = decoder.decode(value, { stream: true })
      checkShape(provider, shape.scan(part))
      parts.push(part)
    }
  } catch (error) {
    await reader.cancel().catch(() => {})
    if (signal?.aborted) throw signal.reason
    if (error instanceof ProviderError) throw error
    throw new ProviderError(
      'unavailable',
      provider,
      `the answer broke off: ${foreignText(error instanceof Error ? error.message : String(error))}`,
    )
  }
  parts.push(decoder.decode())
  return parts.join('')
}

/** Host (and port) of a URL: how providers are named in answers, never with their keys or paths. */
export const hostOf = (url: string) => new URL(url).host
