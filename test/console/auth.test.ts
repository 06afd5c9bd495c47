import { expect, test } from 'bun:test'
import { ConsoleAuth, FAILURE_WINDOW_SECONDS, MAX_FAILURES, SESSION_SECONDS, sessionCookie } from '../../src/http/console/auth'

const TOKEN = 'a-token-of-the-seller-0123'
const withCookie = (value: string) => new Request('http://x/console', { headers: { cookie: `other=1; cmi_console=${value}` } })

test('a session cookie opens the console until it expires, and only under the token that made it', () => {
  let now = 1_800_000_000
  const auth = new ConsoleAuth(TOKEN, () => now)
  const session = auth.session()
  expect(auth.allows(withCookie(session))).toBe(true)
  expect(new ConsoleAuth(`${TOKEN}-rotated`, () => now).allows(withCookie(session))).toBe(false)
  // Another expiry with the old signature, or a flipped signature character: refused.
  const [version, expiry, signature] = session.split('.')
  expect(auth.allows(withCookie(`${version}.${Number(expiry) + 3600}.${signature}`))).toBe(false)
  expect(auth.allows(withCookie(`${version}.${expiry}.${signature!.slice(0, -1)}${signature!.endsWith('A') ? 'B' : 'A'}`))).toBe(false)
  now += SESSION_SECONDS
  expect(auth.allows(withCookie(session))).toBe(false)
})

test('the bearer header: the token exactly', () => {
  const auth = new ConsoleAuth(TOKEN)
  const bearer = (value: string) => new Request('http://x/console', { headers: { authorization: value } })
  expect(auth.allows(bearer(`Bearer ${TOKEN}`))).toBe(true)
  for (const wrong of [`Bearer ${TOKEN}x`, `bearer ${TOKEN}`, `Bearer ${TOKEN.slice(1)}`, TOKEN, 'Bearer '])
    expect(auth.allows(bearer(wrong))).toBe(false)
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
