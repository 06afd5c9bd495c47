import { expect, test } from 'bun:test'
import { ConsoleAuth, crossSite, FAILURE_WINDOW_SECONDS, MAX_FAILURES, SESSION_SECONDS, sessionCookie } from '../../src/http/console/auth'

const TOKEN = 'a-token-of-the-seller-0123'
const HOME = '192.0.2.1'
const withCookie = (value: string) => new Request('http://x/console', { headers: { cookie: `other=1; cmi_console=${value}` } })

test('a session cookie opens the console until it expires, and only under the token that made it', () => {
  let now = 1_800_000_000
  const auth = new ConsoleAuth(TOKEN, () => now)
  const session = auth.session()
  expect(auth.allows(withCookie(session), HOME)).toBe(true)
  expect(new ConsoleAuth(`${TOKEN}-rotated`, () => now).allows(withCookie(session), HOME)).toBe(false)
  // Another expiry with the old signature, or a flipped signature character: refused.
  const [version, expiry, signature] = session.split('.')
  expect(auth.allows(withCookie(`${version}.${Number(expiry) + 3600}.${signature}`), HOME)).toBe(false)
  expect(auth.allows(withCookie(`${version}.${expiry}.${signature!.slice(0, -1)}${signature!.endsWith('A') ? 'B' : 'A'}`), HOME)).toBe(
    false,
  )
  now += SESSION_SECONDS
  expect(auth.allows(withCookie(session), HOME)).toBe(false)
})

test('the bearer header: the token exactly', () => {
  const auth = new ConsoleAuth(TOKEN)
  const bearer = (value: string) => new Request('http://x/console', { headers: { authorization: value } })
  expect(auth.allows(bearer(`Bearer ${TOKEN}`), HOME)).toBe(true)
  for (const wrong of [`Bearer ${TOKEN}x`, `bearer ${TOKEN}`, `Bearer ${TOKEN.slice(1)}`, TOKEN, 'Bearer '])
    expect(auth.allows(bearer(wrong), 'another address')).toBe(false)
})

test('the cookie is Secure only when asked (https), and its removal expires it', () => {
  expect(sessionCookie('v', true)).toBe(`cmi_console=v; Path=/console; Max-Age=${SESSION_SECONDS}; HttpOnly; SameSite=Strict; Secure`)
  expect(sessionCookie('', false)).toBe('cmi_console=; Path=/console; Max-Age=0; HttpOnly; SameSite=Strict')
})

test('failed sign-ins: refused past the limit per address until the oldest failure leaves the window', () => {
  let now = 1_800_000_000
  const auth = new ConsoleAuth(TOKEN, () => now)
  for (let i = 0; i < MAX_FAILURES; i++) {
    expect(auth.refusedFor('10.0.0.1')).toBe(0)
    auth.failed('10.0.0.1')
    now += 10
  }
  expect(auth.refusedFor('10.0.0.1')).toBe(FAILURE_WINDOW_SECONDS - MAX_FAILURES * 10)
  expect(auth.refusedFor('10.0.0.2')).toBe(0) // another address is not held back
  now += FAILURE_WINDOW_SECONDS - MAX_FAILURES * 10 + 1
  expect(auth.refusedFor('10.0.0.1')).toBe(0)
})

test('wrong bearer tokens count as failed sign-ins of their address: past the limit even the token is refused there, not elsewhere', () => {
  let now = 1_800_000_000
  const auth = new ConsoleAuth(TOKEN, () => now)
  const bearer = (value: string) => new Request('http://x/metrics', { headers: { authorization: `Bearer ${value}` } })
  for (let i = 0; i < MAX_FAILURES; i++) expect(auth.allows(bearer(`guess-${i}`), '198.51.100.7')).toBe(false)
  expect(auth.allows(bearer(TOKEN), '198.51.100.7')).toBe(false)
  expect(auth.refusedFor('198.51.100.7')).toBeGreaterThan(0)
  expect(auth.allows(bearer(TOKEN), HOME)).toBe(true) // the scraper at its own address
  // Another scheme (a proxy's Basic) is no try.
  const basic = new Request('http://x/metrics', { headers: { authorization: 'Basic dXNlcjpwdw==' } })
  for (let i = 0; i < 2 * MAX_FAILURES; i++) expect(auth.allows(basic, HOME)).toBe(false)
  expect(auth.refusedFor(HOME)).toBe(0)
  now += FAILURE_WINDOW_SECONDS + 1
  expect(auth.allows(bearer(TOKEN), '198.51.100.7')).toBe(true)
})

test('cross-site: Sec-Fetch-Site where sent, else Origin against our own origins; no browser header is no browser', () => {
  const own = ['http://127.0.0.1:3000', 'https://api.example.com']
  const post = (headers: Record<string, string>) => new Request('http://127.0.0.1:3000/console/sign-in', { method: 'POST', headers })
  expect(crossSite(post({ 'sec-fetch-site': 'cross-site', origin: 'https://api.example.com' }), own)).toBe(true)
  expect(crossSite(post({ 'sec-fetch-site': 'same-site' }), own)).toBe(true)
  expect(crossSite(post({ 'sec-fetch-site': 'same-origin' }), own)).toBe(false)
  expect(crossSite(post({ origin: 'https://evil.example' }), own)).toBe(true)
  expect(crossSite(post({ origin: 'null' }), own)).toBe(true)
  expect(crossSite(post({ origin: 'https://api.example.com' }), own)).toBe(false)
  expect(crossSite(post({}), own)).toBe(false)
})
