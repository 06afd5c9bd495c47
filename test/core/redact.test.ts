import { describe, expect, test } from 'bun:test'
import { foreignText, keepSecret, keepUrlSecrets, redact, redactDeep, redactSecrets, urlOrigin } from '../../src/core/redact'

test("a URL in a library's message keeps its origin only: the key in the path or query, and any credentials, are gone", () => {
  const viem = 'HTTP request failed.\n\nURL: https://base-mainnet.g.alchemy.com/v2/abcDEF123456\nRequest body: {"method":"eth_getCode"}'
  expect(redact(viem)).toBe('HTTP request failed.\n\nURL: https://base-mainnet.g.alchemy.com/…\nRequest body: {"method":"eth_getCode"}')
  expect(redact('see "https://rpc.example/?apikey=zz9"')).toBe('see "https://rpc.example/…"')
  expect(redact('wss://user:pw@node.example:8546/ws')).toBe('wss://node.example:8546/…')
  expect(urlOrigin('https://mainnet.base.org')).toBe('https://mainnet.base.org')
})

test('a remembered secret is taken out wherever it appears, URL or not', () => {
  keepSecret('tok_0123456789abcdef', 'short')
  expect(redact('Authorization: Bearer tok_0123456789abcdef failed')).toBe('Authorization: Bearer [redacted] failed')
  expect(redact('short stays')).toBe('short stays')
})

test('a secret is also found URL-encoded and JSON-escaped, the forms an echo brings it back in', () => {
  keepSecret('k3y+with/slash="q"')
  expect(redactSecrets('?apikey=k3y%2Bwith%2Fslash%3D%22q%22&x=1')).toBe('?apikey=[redacted]&x=1')
  expect(redactSecrets('{"echo":"k3y+with/slash=\\"q\\""}')).toBe('{"echo":"[redacted]"}')
})

test("a configured URL's user, password, query values and key-like path segments are remembered; plain words are not", () => {
  keepUrlSecrets('https://bob:pw0rd-123456@gw.example/v1/proj/9f8e7d6c5b4a39281706/search?apikey=qk-55554444&engines=all')
  const said = redactSecrets('bob:pw0rd-123456 /v1/proj/9f8e7d6c5b4a39281706/search?apikey=qk-55554444 search proj')
  expect(said).toBe('bob:[redacted] /v1/proj/[redacted]/search?apikey=[redacted] search proj')
})

test('redactDeep takes secrets out of every string of an answer and returns what holds none unchanged', () => {
  keepSecret('deep-secret-0042')
  const clean = { a: 1, b: ['x', { c: 'y' }], at: new Date(0) }
  expect(redactDeep(clean)).toBe(clean)
  const dirty = { list: [{ text: 'see deep-secret-0042 here' }], n: 2, at: clean.at }
  expect(redactDeep(dirty)).toEqual({ list: [{ text: 'see [redacted] here' }], n: 2, at: clean.at })
  expect(dirty.list[0]!.text).toContain('deep-secret-0042') // the original is not changed
})

describe('foreignText: what a vendor or a facilitator said, summarised', () => {
  test('a JSON error body is read for its own message, with a key it quotes taken out', () => {
    const body = JSON.stringify({
      error: { message: 'Incorrect API key provided: sk-abcdefghijklmnopqrstuv', type: 'auth' },
      echo: 'GET /x',
    })
    expect(foreignText(body)).toBe('Incorrect API key provided: [redacted]')
  })

  test('an HTML page is read for its text; credential-shaped parts go, whoever they belong to', () => {
    const page =
      '<html><head><style>p{}</style><title>403</title></head><body><h1>Forbidden</h1><pre>authorization: Bearer abc.def.ghi123\nGET https://api.example/s?apikey=zz99yy88</pre></body></html>'
    expect(foreignText(page)).toBe('403 Forbidden authorization: Bearer [redacted] GET https://api.example/…')
    expect(foreignText('token=abcd1234&user=x; "password": "hunter22"')).toBe('token=[redacted]&user=x; "password": "[redacted]"')
  })

  test('a long body is cut to 160 characters, never through a key left whole', () => {
    const said = foreignText(`${'word '.repeat(100)}Bearer 0123456789abcdef0123456789`)
    expect(said.length).toBeLessThanOrEqual(160)
    expect(said).not.toContain('0123456789')
    keepSecret('tail-secret-987654321')
    const cut = foreignText(`${' '.repeat(4090)}tail-secret-987654321 more`)
    expect(cut).not.toContain('tail-sec')
  })
})
