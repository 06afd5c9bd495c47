import { ProviderError } from '../evidence'
import { turn } from '../turns'

/**
 * Runs one provider call under its timeout and an optional caller signal. The call gets an AbortSignal
 * that fires on either; whichever fires first decides the typed failure (timeout or cancelled), even if
 * the provider ignores the signal (DuckDB queries cannot be interrupted: the answer is then dropped).
 */
export async function withDeadline<T>(provider: string, timeoutMs: number, work: (signal: AbortSignal) => Promise<T>, parent?: AbortSignal): Promise<T> {
  const controller = new AbortController()
  const abort = (reason: ProviderError) => {
    if (!controller.signal.aborted) controller.abort(reason)
  }
  const timer = setTimeout(() => abort(new ProviderError('timeout', provider, `no answer within ${timeoutMs} ms`)), timeoutMs)
  const onParentAbort = () => abort(new ProviderError('cancelled', provider, 'the request was cancelled'))
  if (parent?.aborted) onParentAbort()
  else parent?.addEventListener('abort', onParentAbort, { once: true })
  const aborted = new Promise<never>((_, reject) => {
    if (controller.signal.aborted) reject(controller.signal.reason)
    else controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true })
  })
  try {
    return await Promise.race([work(controller.signal), aborted])
  } catch (e) {
    if (controller.signal.aborted) throw controller.signal.reason as ProviderError
    if (e instanceof ProviderError) throw e
    throw new ProviderError('unavailable', provider, e instanceof Error ? e.message : String(e))
  } finally {
    clearTimeout(timer)
    parent?.removeEventListener('abort', onParentAbort)
  }
}

/**
 * fetch() for providers: network failures and non-2xx answers become `unavailable`; a body over
 * `maxBytes` (declared or read) or that is not JSON, `bad_response`.
 */
export async function fetchJson(provider: string, url: string, init: RequestInit, maxBytes: number): Promise<unknown> {
  let res: Response
  try {
    res = await fetch(url, init)
  } catch (e) {
    if (init.signal?.aborted) throw init.signal.reason
    throw new ProviderError('unavailable', provider, `request failed: ${e instanceof Error ? e.message : String(e)}`)
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => {})
    throw new ProviderError('unavailable', provider, `answered HTTP ${res.status}`)
  }
  const text = await readText(provider, res, maxBytes, init.signal ?? undefined)
  // Answers that arrive together are parsed in separate turns (up to a few ms each at the byte limit).
  await turn()
  try {
    return JSON.parse(text)
  } catch {
    throw new ProviderError('bad_response', provider, 'answered with a body that is not JSON')
  }
}

const tooLarge = (provider: string, maxBytes: number, declared?: number) =>
  new ProviderError('bad_response', provider, `${declared ? `declared ${declared.toLocaleString('en')} bytes, ` : 'answered '}more than the ${maxBytes.toLocaleString('en')} bytes allowed`)

/**
 * The body as text, read chunk by chunk and cancelled as soon as it passes `maxBytes`: a provider that
 * streams without end (or declares a huge Content-Length) costs at most that much memory and time.
 * Chunks are decoded as they arrive, not megabytes in one piece at the end.
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
  let size = 0
  try {
    for (;;) {
      // Chunks already buffered arrive without a pause: decoding megabytes of them would hold the event loop.
      await turn()
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > maxBytes) throw tooLarge(provider, maxBytes)
      parts.push(decoder.decode(value, { stream: true }))
    }
  } catch (e) {
    await reader.cancel().catch(() => {})
    if (signal?.aborted) throw signal.reason
    if (e instanceof ProviderError) throw e
    throw new ProviderError('unavailable', provider, `the answer broke off: ${e instanceof Error ? e.message : String(e)}`)
  }
  parts.push(decoder.decode())
  return parts.join('')
}

/** Host (and port) of a URL: how providers are named in answers, never with their keys or paths. */
export const hostOf = (url: string) => new URL(url).host
