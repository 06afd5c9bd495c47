/**
 * Request bodies read within limits checked before any parsing work: the declared size, then the bytes
 * actually read (the stream is cancelled past the limit, nothing more is buffered), then the JSON's
 * nesting depth and key count by one linear scan, and only then JSON.parse. A hostile body therefore
 * costs at most one pass over REQUEST_LIMITS.bodyBytes, and what a validation error later prints of it
 * is small. (A 117 KB body nested 20,000 levels used to stall the process for seconds in the
 * framework's validation error, which stringifies the rejected value; 50,000 levels was a 500.)
 */
import { ApiError, invalidParameter, JsonShape } from '../../core'

export const REQUEST_LIMITS = {
  /** Body of a paid route's POST (the wrappers' few fields). */
  bodyBytes: 16 * 1024,
  /** The console's sign-in form (one token). */
  formBytes: 4 * 1024,
  /** Body of an MCP JSON-RPC message (a tool call with its arguments and payment). */
  mcpBodyBytes: 64 * 1024,
  /** Nesting of objects and arrays in a JSON body. */
  jsonDepth: 16,
  /** Object keys in a JSON body, all levels together. */
  jsonKeys: 256,
  /** Query string of a request, in bytes as sent (percent-encoded). */
  queryBytes: 4 * 1024,
  /**
   * The largest body the server reads at all (Bun's maxRequestBodySize): a refused body up to this size
   * is read and dropped before its 413 leaves (upload-rest.ts) so the client reads the answer; a larger
   * one is cut off by Bun.
   */
  drainBytes: 32 * 1024 * 1024,
} as const

/** The rest of the upload is read and dropped before the answer (upload-rest.ts), so the client reads it. */
const tooLarge = (limit: number, what = 'body') =>
  new ApiError('payload_too_large', `The request ${what} is larger than ${limit} bytes; nothing was charged.`, {
    parameter: what,
    limit_bytes: limit,
  })

/**
 * The body's bytes, at most `limit`: a larger declared or actual body is a 413 without buffering more; the
 * stream is left unlocked so that readingWholeUpload reads and drops the rest.
 */
async function readBytes(request: Request, limit: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array()
  const declared = Number(request.headers.get('content-length') ?? NaN)
  if (declared > limit) throw tooLarge(limit)
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      reader.releaseLock()
      throw tooLarge(limit)
    }
    chunks.push(value)
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)
}

/** The JSON body of a request, within REQUEST_LIMITS (or `maxBytes`); every refusal is a free 400 or 413. */
export async function readJsonBody(request: Request, maxBytes: number = REQUEST_LIMITS.bodyBytes): Promise<unknown> {
  if (!request.body) return undefined
  const type = request.headers.get('content-type') ?? ''
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    throw invalidParameter(
      'body',
      `must be JSON (Content-Type: application/json), got ${type ? JSON.stringify(type.slice(0, 60)) : 'none'}`,
    )
  }
  const text = new TextDecoder().decode(await readBytes(request, maxBytes))
  const over = new JsonShape().scan(text).over({ depth: REQUEST_LIMITS.jsonDepth, keys: REQUEST_LIMITS.jsonKeys })
  if (over) throw invalidParameter('body', over)
  try {
    return text.trim() ? JSON.parse(text) : {}
  } catch {
    throw invalidParameter('body', 'malformed JSON')
  }
}

/** A form's fields (application/x-www-form-urlencoded, the console's sign-in), within `maxBytes`. */
export async function readFormBody(request: Request, maxBytes: number): Promise<Record<string, string>> {
  if (!request.body) return {}
  const type = request.headers.get('content-type') ?? ''
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) {
    throw invalidParameter(
      'body',
      `must be a form (Content-Type: application/x-www-form-urlencoded), got ${type ? JSON.stringify(type.slice(0, 60)) : 'none'}`,
    )
  }
  return Object.fromEntries(new URLSearchParams(new TextDecoder().decode(await readBytes(request, maxBytes))))
}

/**
 * A query string over REQUEST_LIMITS.queryBytes is refused, and so is a parameter given twice (which
 * value was meant is ambiguous: the framework would silently keep the last). Raw keys are compared, and
 * decoded only when percent-encoded: this runs on the 402 path.
 */
export function checkQuery(url: string): void {
  const queryAt = url.indexOf('?')
  if (queryAt < 0 || queryAt === url.length - 1) return
  if (url.length - queryAt - 1 > REQUEST_LIMITS.queryBytes) throw tooLarge(REQUEST_LIMITS.queryBytes, 'query')
  const keys: string[] = []
  for (const pair of url.slice(queryAt + 1).split('&')) {
    const eq = pair.indexOf('=')
    let key = eq < 0 ? pair : pair.slice(0, eq)
    if (key.includes('%') || key.includes('+')) key = decodeKey(key)
    if (keys.includes(key)) throw invalidParameter(key, 'is given more than once; send each parameter once')
    keys.push(key)
  }
}

const decodeKey = (key: string) => {
  try {
    return decodeURIComponent(key.replaceAll('+', ' '))
  } catch {
    return key
  }
}
