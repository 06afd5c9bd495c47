/**
 * Who may see the console: the seller, with METRICS_TOKEN as a bearer header (scripts) or a sign-in
 * cookie (browsers). The cookie carries no secret: an expiry and an HMAC of it keyed by a hash of the
 * token, so it is valid on every instance that has the token and dies when the token is changed.
 * Failed sign-ins and wrong bearer tokens (/console, /metrics, /ready) are counted per client address
 * together, and refused for a while past a few. One instance guards all of them (app.ts).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { limitKeyOf } from '../../core'

export const COOKIE = 'cmi_console'
/** A sign-in lasts a working day. */
export const SESSION_SECONDS = 12 * 3600
/** Failed sign-ins allowed per client address within the window, then refused until the oldest ages out. */
export const MAX_FAILURES = 5
export const FAILURE_WINDOW_SECONDS = 15 * 60
const TRACKED_ADDRESSES = 10_000

const digest = (value: string) => createHash('sha256').update(value).digest()

/** Whether a request's `Authorization: Bearer` is `token`, compared in constant time (/metrics, /console). */
export function bearerHolds(request: Request, token: string): boolean {
  const header = request.headers.get('authorization')
  return header?.startsWith('Bearer ') === true && timingSafeEqual(digest(header.slice(7)), digest(token))
}

export class ConsoleAuth {
  private readonly tokenDigest: Buffer
  private readonly cookieKey: Buffer
  private readonly failures = new Map<string, number[]>()

  constructor(
    private readonly token: string,
    private readonly now: () => number = () => Date.now() / 1000,
  ) {
    this.tokenDigest = digest(token)
    this.cookieKey = digest(`console-cookie:${token}`)
  }

  /** Whether `candidate` is the token, in constant time (digests of equal length). */
  isToken(candidate: string): boolean {
    return timingSafeEqual(digest(candidate), this.tokenDigest)
  }

  /**
   * The bearer header or the sign-in cookie of a request holds the credential. A wrong bearer token is a
   * failed sign-in of its address (`address`: the client, keyed as failures are): past MAX_FAILURES even
   * the right one is refused there until the window passes, so guessing costs a guesser, and a scraper at
   * another address is not touched. Another scheme (a proxy's own Basic) is no try.
   */
  allows(request: Request, address: string): boolean {
    const header = request.headers.get('authorization')
    if (header?.startsWith('Bearer ')) {
      if (this.refusedFor(address) > 0) return false
      if (bearerHolds(request, this.token)) return true
      this.failed(address)
      return false
    }
    const cookie = cookieOf(request, COOKIE)
    return cookie !== undefined && this.validSession(cookie)
  }

  /** A session cookie value valid until now + SESSION_SECONDS. */
  session(): string {
    const payload = `v1.${Math.floor(this.now()) + SESSION_SECONDS}`
    return `${payload}.${this.sign(payload)}`
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.cookieKey).update(payload).digest('base64url')
  }

  private validSession(value: string): boolean {
    const match = /^(v1\.(\d{1,12}))\.([A-Za-z0-9_-]{43})$/.exec(value)
    if (!match || Number(match[2]) <= this.now()) return false
    return timingSafeEqual(Buffer.from(match[3]!), Buffer.from(this.sign(match[1]!)))
  }

  /** Seconds until `address` may try again (0: it may now). */
  refusedFor(address: string): number {
    const recent = this.recent(address)
    return recent.length < MAX_FAILURES ? 0 : Math.max(1, Math.ceil(recent[0]! + FAILURE_WINDOW_SECONDS - this.now()))
  }

  failed(address: string): void {
    const recent = this.recent(address)
    recent.push(this.now())
    this.failures.delete(address)
    this.failures.set(address, recent.slice(-MAX_FAILURES))
    if (this.failures.size > TRACKED_ADDRESSES) this.failures.delete(this.failures.keys().next().value as string)
  }

  private recent(address: string): number[] {
    const since = this.now() - FAILURE_WINDOW_SECONDS
    return (this.failures.get(address) ?? []).filter((at) => at > since)
  }
}

/**
 * Who may read what only the seller may (/console, /metrics, /ready's details): everyone in development
 * without METRICS_TOKEN, no one in production without it, the token's holders otherwise.
 */
export type SellerAccess = 'open' | 'off' | ConsoleAuth

/** Whether the request is the seller's (`address`: its failureKey; a wrong bearer token counts there). */
export const isSeller = (access: SellerAccess, request: Request, address: string): boolean =>
  access === 'open' || (access !== 'off' && access.allows(request, address))

/** The key failures are counted under: the client's address, an IPv6 client by its /64 (one subscriber, one budget of tries). */
export const failureKey = (client: string | undefined) => (client === undefined ? 'unknown' : limitKeyOf(client, 64))

/**
 * Whether a browser sent the request from another site: a form on any page the seller visits could
 * otherwise spend the sign-in tries or sign the seller out. `Sec-Fetch-Site` where browsers send it,
 * `Origin` otherwise (browsers send it with every POST); a request with neither is no browser's.
 */
export function crossSite(request: Request, ownOrigins: readonly string[]): boolean {
  const site = request.headers.get('sec-fetch-site')
  if (site) return site !== 'same-origin' && site !== 'none'
  const origin = request.headers.get('origin')
  return origin !== null && !ownOrigins.includes(origin)
}

/** Bits of guessing a token is worth at least, below which the seller is warned (never shown the token). */
export const STRONG_TOKEN_BITS = 100

/**
 * A rough upper bound of a token's strength: its length (a character repeating the one before it not
 * counted) times the bits of the character classes it uses. `openssl rand -hex 32` gives over 300; a
 * 16-character word-and-digits token about 80.
 */
export function tokenBits(token: string): number {
  const pool =
    (/[a-z]/.test(token) ? 26 : 0) + (/[A-Z]/.test(token) ? 26 : 0) + (/\d/.test(token) ? 10 : 0) + (/[^a-zA-Z\d]/.test(token) ? 33 : 0)
  const length = [...token].filter((c, i, all) => i === 0 || c !== all[i - 1]).length
  return Math.floor(length * Math.log2(Math.max(pool, 2)))
}

/** One cookie's value from the Cookie header, if present. */
export function cookieOf(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=')
    if (key === name) return value.join('=')
  }
  return undefined
}

/** The Set-Cookie header of a session (or of its removal with `value` empty). */
export function sessionCookie(value: string, secure: boolean): string {
  const lifetime = value ? SESSION_SECONDS : 0
  return `${COOKIE}=${value}; Path=/console; Max-Age=${lifetime}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`
}
