import { expect, test } from 'bun:test'
import { keepSecret, redact, urlOrigin } from '../../src/core/redact'

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
