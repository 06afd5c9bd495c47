/**
 * What must never leave the process. Keys travel in headers, in the paths of RPC endpoints (`…/v3/<key>`)
 * and in the queries of search and model endpoints (`?apikey=`); vendors, facilitators and libraries
 * (viem, @x402/*) put what they were given into their error texts, and a vendor may echo the request back.
 *
 * Every configured secret is remembered (config/secrets.ts, when the configuration is read), and every way
 * out passes its text through here: answers and stored results, error envelopes, /ready, /console,
 * /metrics, the CLI's output and the log. Texts from outside (a vendor's error body, a library's message)
 * are also summarised (`foreignText`): their URLs cut to the origin and credential-shaped parts taken out.
 */

/** Secret values named by the configuration, in each form they may be echoed in, longest first. */
let secrets: string[] = []

/** Values under 8 characters are not secrets worth a scan (and would blank ordinary words). */
const SHORTEST_SECRET = 8

/** A secret as it may come back: as given, URL-encoded (a vendor echoing its query) and JSON-escaped. */
function formsOf(value: string): string[] {
  const forms = [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)]
  try {
    forms.push(decodeURIComponent(value))
  } catch {
    // not URL-encoded text
  }
  return forms
}

/** Remembers values that must never be printed. */
export function keepSecret(...values: readonly (string | undefined)[]): void {
  const fresh = values.filter((v): v is string => typeof v === 'string' && v.length >= SHORTEST_SECRET).flatMap(formsOf)
  secrets = [...new Set([...secrets, ...fresh.filter((f) => f.length >= SHORTEST_SECRET)])].sort((a, b) => b.length - a.length)
}

/**
 * A path segment that may be a key: a word (`facilitator`, `chat-completions`) is not, a token with a
 * digit or of 20 characters and more may be (`/v2/<32 hex>`, `/<uuid>`).
 */
const keyLike = (segment: string) => segment.length >= SHORTEST_SECRET && (/\d/.test(segment) || segment.length >= 20)

/** Remembers what a configured URL may carry a secret in: its password, its query values, a key-like user or path segment. */
export function keepUrlSecrets(...urls: readonly (string | undefined)[]): void {
  for (const url of urls) {
    if (!url) continue
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      keepSecret(url) // not a URL we can take apart: the whole of it
      continue
    }
    keepSecret(
      // A user name is a name (`postgres`), unless it looks like a key (APIs that take the key as the user).
      keyLike(decodeURIComponent(parsed.username)) ? parsed.username : undefined,
      parsed.password,
      ...[...parsed.searchParams.values()],
      ...parsed.pathname.split('/').filter(keyLike),
    )
  }
}

/** Forgets every remembered secret (tests that read several configurations). */
export function forgetSecrets(): void {
  secrets = []
}

/**
 * The text with every remembered secret taken out and nothing else changed: for whole answers, pages and
 * printed output, where a URL or a word must stay as it is.
 */
export function redactSecrets(text: string): string {
  let out = text
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('[redacted]')
  return out
}

/** Every string inside a JSON-like value passed through `redactSecrets` (objects and arrays copied only when changed). */
export function redactDeep<T>(value: T): T {
  if (secrets.length === 0) return value
  if (typeof value === 'string') return redactSecrets(value) as T
  if (Array.isArray(value)) {
    const mapped = value.map(redactDeep)
    return (mapped.some((v, i) => v !== value[i]) ? mapped : value) as T
  }
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    let changed = false
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) {
      out[k] = redactDeep(v)
      if (out[k] !== v) changed = true
    }
    return (changed ? out : value) as T
  }
  return value
}

const URL_IN_TEXT = /\b(?:https?|wss?|postgres(?:ql)?):\/\/[^\s"'<>`\\)\]]+/gi

/** A URL as it may be shown: its origin alone (no user, password, path or query, where keys travel). */
export function urlOrigin(url: string): string {
  try {
    const parsed = new URL(url)
    const bare = parsed.pathname === '/' && !parsed.search && !parsed.username && !parsed.password
    // A postgres: URL has no origin in WHATWG terms ("null"): its host stands for it.
    const origin = parsed.origin === 'null' ? `${parsed.protocol}//${parsed.host}` : parsed.origin
    return bare ? origin : `${origin}/…`
  } catch {
    return '[url]'
  }
}

/** The text with every remembered secret and every URL's path, query and credentials taken out. */
export function redact(text: string): string {
  const out = redactSecrets(text)
  return out.includes('://') ? out.replace(URL_IN_TEXT, urlOrigin) : out
}

/** An error's message, redacted: for texts built from what a library threw. */
export function redactedMessage(error: unknown): string {
  return redact(error instanceof Error ? error.message : String(error))
}

/** `Authorization`-style credentials: a scheme and its token (the schemes as headers write them, so prose such as "token expired" stays). */
const SCHEME_CREDENTIAL = /\b(Bearer|bearer|BEARER|Basic|Digest)\s+[A-Za-z0-9._~+/=-]{6,}/g
/** `name=value` or `"name": "value"` where the name says credential (a query, a header dump, a JSON body). */
const NAMED_CREDENTIAL =
  /\b((?:x-)?api[_-]?key|apikey|access[_-]?token|auth[_-]?token|refresh[_-]?token|token|secret|client[_-]?secret|password|passwd|pwd|key|sig|signature|authorization|x-goog-api-key|subscription-key)(["']?\s*[:=]\s*["']?)(?!\[redacted\]|(?:Bearer|bearer|BEARER|Basic|Digest)\s)[^\s"'&,;}<]{4,}/gi
/** Vendor key prefixes that are keys wherever they stand (OpenAI-style `sk-`, Stripe-style `sk_live_`). */
const PREFIXED_KEY = /\b(?:sk|rk|pk)[-_](?:live_|test_|proj-)?[A-Za-z0-9_-]{16,}/g

/** Bytes of a foreign text read for its summary, and characters kept of it. */
const FOREIGN_READ = 4096
export const FOREIGN_KEPT = 160

/** What a vendor's own error format names its explanation (OpenAI, Bocha, TikHub, FastAPI, OAuth, x402). */
const MESSAGE_FIELDS = [
  'message',
  'msg',
  'error_description',
  'detail',
  'invalidMessage',
  'errorMessage',
  'error',
  'errors',
  'reason',
] as const

/** The explanation inside a JSON error body, or undefined when it names none. */
function messageIn(body: unknown, depth = 0): string | undefined {
  if (depth > 3 || body === null || typeof body !== 'object') return typeof body === 'string' ? body : undefined
  if (Array.isArray(body)) return messageIn(body[0], depth + 1)
  for (const field of MESSAGE_FIELDS) {
    const found = messageIn((body as Record<string, unknown>)[field], depth + 1)
    if (found) return found
  }
  return undefined
}

/**
 * A text from outside the process (a vendor's or a facilitator's error body, a library's message) as it
 * may be shown: a JSON body's own message field rather than the whole body, a page's text without its
 * markup, whitespace folded, at most FOREIGN_KEPT characters; secrets, URLs past their origin and
 * credential-shaped parts taken out. It is never echoed whole.
 */
export function foreignText(text: string, max = FOREIGN_KEPT): string {
  // A cut through a word may halve a key, which no scan then finds: the cut word goes.
  let said = text.length > FOREIGN_READ ? text.slice(0, FOREIGN_READ).replace(/\S*$/, '') : text
  if (/^\s*[[{]/.test(said)) {
    try {
      said = messageIn(JSON.parse(text.slice(0, 65_536))) ?? said
    } catch {
      // cut off or not JSON: read as text
    }
  }
  if (/<[a-z!/]/i.test(said))
    said = said
      .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<[^>]*>/g, ' ')
      .replace(/&[a-z]+;|&#\d+;/gi, ' ')
  // Credentials are taken out before the text is cut, so no cut leaves a key's first half.
  const clean = withoutCredentials(said).replace(/\s+/g, ' ').trim()
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean
}

/**
 * `redact`, and credential-shaped parts taken out too (a scheme and its token, `apikey=…`, `"password": "…"`,
 * `sk-…`): for a text made from what came from outside, which may hold a key that is not ours to know.
 */
export function withoutCredentials(text: string): string {
  return redact(text)
    .replace(SCHEME_CREDENTIAL, '$1 [redacted]')
    .replace(NAMED_CREDENTIAL, '$1$2[redacted]')
    .replace(PREFIXED_KEY, '[redacted]')
}
