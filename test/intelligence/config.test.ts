/** Provider configuration: read from the environment, validated at start, live only when a search provider is set. */
import { describe, expect, test } from 'bun:test'
import { ConfigError } from '../../src/core/config-error'
import { loadConfig } from '../../src/config/config'
import { isLive } from '../../src/intelligence/sources'
import { configHints } from '../../src/intelligence/providers/live-setup'

describe('provider configuration', () => {
  test('nothing configured: no providers, the China routes use the sample corpus', () => {
    const c = loadConfig({})
    expect(c.providers).toEqual({ webSearch: null, nativeSearch: null, llm: null })
    expect(isLive(c.providers)).toBe(false)
  })

  test('URLs, keys, timeouts and native platforms are read, with documented defaults', () => {
    const c = loadConfig({
      WEB_SEARCH_URL: 'https://search.example.com/api',
      WEB_SEARCH_KEY: 'k1',
      NATIVE_SEARCH_URL: 'http://discovery.internal/{platform}/search',
      NATIVE_SEARCH_PLATFORMS: 'douyin,xiaohongshu',
      NATIVE_SEARCH_TIMEOUT_MS: '8000',
      LLM_BASE_URL: 'http://localhost:11434/v1',
      LLM_MODEL: 'qwen2.5',
    })
    expect(c.providers).toEqual({
      webSearch: { vendor: 'generic', url: 'https://search.example.com/api', key: 'k1', timeoutMs: 12_000, maxPages: 1 },
      nativeSearch: {
        vendor: 'generic',
        url: 'http://discovery.internal/{platform}/search',
        timeoutMs: 8000,
        maxPages: 1,
        platforms: ['douyin', 'xiaohongshu'],
      },
      llm: { baseUrl: 'http://localhost:11434/v1', key: undefined, model: 'qwen2.5', timeoutMs: 20_000, responseFormat: 'auto' },
    })
    expect(isLive(c.providers)).toBe(true)
  })

  test('a vendor adapter: its documented address by default, its key required, three pages, every lane native for tikhub', () => {
    const c = loadConfig({
      WEB_SEARCH_PROVIDER: 'bocha',
      WEB_SEARCH_KEY: 'sk-b',
      NATIVE_SEARCH_PROVIDER: 'tikhub',
      NATIVE_SEARCH_KEY: 'tk',
      NATIVE_SEARCH_PRICE_USD: '0.001',
    })
    expect(c.providers.webSearch).toEqual({ vendor: 'bocha', url: 'https://api.bochaai.com', key: 'sk-b', timeoutMs: 12_000, maxPages: 3 })
    expect(c.providers.nativeSearch).toEqual({
      vendor: 'tikhub',
      url: 'https://api.tikhub.io',
      key: 'tk',
      // TikHub documents client timeouts of at least 30 s (spec V5.3.2).
      timeoutMs: 30_000,
      maxPages: 3,
      priceNanoUsd: 1_000_000n,
      platforms: ['xiaohongshu', 'douyin', 'wechat'],
    })
    expect(isLive(c.providers)).toBe(true)
    expect(() => loadConfig({ WEB_SEARCH_PROVIDER: 'bocha' })).toThrow('WEB_SEARCH_KEY: is required with WEB_SEARCH_PROVIDER=bocha')
    expect(() => loadConfig({ WEB_SEARCH_PROVIDER: 'searxng' })).toThrow('WEB_SEARCH_URL: is required with WEB_SEARCH_PROVIDER=searxng')
    expect(loadConfig({ WEB_SEARCH_PROVIDER: 'searxng', WEB_SEARCH_URL: 'http://searx.internal:8080/' }).providers.webSearch).toEqual({
      vendor: 'searxng',
      url: 'http://searx.internal:8080',
      timeoutMs: 12_000,
      maxPages: 3,
    })
  })

  test('model output mode and token prices; one token price without the other stops start-up', () => {
    const llm = loadConfig({
      LLM_BASE_URL: 'https://api.deepseek.com',
      LLM_MODEL: 'deepseek-chat',
      LLM_RESPONSE_FORMAT: 'json_object',
      LLM_PRICE_INPUT_USD_PER_MTOK: '0.28',
      LLM_PRICE_OUTPUT_USD_PER_MTOK: '0.42',
    }).providers.llm
    expect(llm).toMatchObject({
      responseFormat: 'json_object',
      prices: { inputPerMillionNanoUsd: 280_000_000n, outputPerMillionNanoUsd: 420_000_000n },
    })
    expect(() => loadConfig({ LLM_BASE_URL: 'https://api.deepseek.com', LLM_MODEL: 'm', LLM_PRICE_INPUT_USD_PER_MTOK: '0.28' })).toThrow(
      'LLM_PRICE_OUTPUT_USD_PER_MTOK: is required',
    )
  })

  test("DeepSeek's cache-hit price is its own setting, and needs the token prices", () => {
    const llm = loadConfig({
      LLM_BASE_URL: 'https://api.deepseek.com',
      LLM_MODEL: 'deepseek-chat',
      LLM_PRICE_INPUT_USD_PER_MTOK: '0.28',
      LLM_PRICE_OUTPUT_USD_PER_MTOK: '0.42',
      LLM_PRICE_CACHED_INPUT_USD_PER_MTOK: '0.028',
    }).providers.llm
    expect(llm?.prices).toEqual({
      inputPerMillionNanoUsd: 280_000_000n,
      outputPerMillionNanoUsd: 420_000_000n,
      cachedInputPerMillionNanoUsd: 28_000_000n,
    })
    expect(() =>
      loadConfig({ LLM_BASE_URL: 'https://api.deepseek.com', LLM_MODEL: 'm', LLM_PRICE_CACHED_INPUT_USD_PER_MTOK: '0.028' }),
    ).toThrow('LLM_PRICE_CACHED_INPUT_USD_PER_MTOK')
  })

  test('TikHub: a timeout under its documented 30 s and the host mainland China cannot reach are named with the fix', () => {
    const hints = (env: Record<string, string>) =>
      configHints(loadConfig({ NATIVE_SEARCH_PROVIDER: 'tikhub', NATIVE_SEARCH_KEY: 'tk', ...env }).providers)
    expect(hints({ NATIVE_SEARCH_TIMEOUT_MS: '12000' })).toEqual([
      expect.stringContaining('NATIVE_SEARCH_TIMEOUT_MS=12000 is under'),
      expect.stringContaining('https://api.tikhub.dev'),
    ])
    expect(hints({ NATIVE_SEARCH_URL: 'https://api.tikhub.dev' })).toEqual([])
  })

  test('a model alone does not switch off the sample corpus (it only summarises evidence)', () => {
    expect(isLive(loadConfig({ LLM_BASE_URL: 'http://localhost:8000/v1', LLM_MODEL: 'm' }).providers)).toBe(false)
  })

  for (const [name, value] of [
    ['WEB_SEARCH_URL', 'search.example.com'],
    ['NATIVE_SEARCH_PLATFORMS', 'douyin,weibo'],
    ['NATIVE_SEARCH_TIMEOUT_MS', '50'],
    ['WEB_SEARCH_TIMEOUT_MS', '60000'],
    ['LLM_TIMEOUT_MS', 'soon'],
    ['WEB_SEARCH_PROVIDER', 'google'],
    ['NATIVE_SEARCH_MAX_PAGES', '0'],
    ['WEB_SEARCH_PRICE_USD', '-1'],
    ['LLM_RESPONSE_FORMAT', 'xml'],
  ] as const) {
    test(`a bad ${name} (${value}) stops start-up naming the variable`, () => {
      expect(() => loadConfig({ [name]: value })).toThrow(ConfigError)
      expect(() => loadConfig({ [name]: value })).toThrow(`${name}: invalid value`)
    })
  }

  test('LLM_BASE_URL without LLM_MODEL stops start-up', () => {
    expect(() => loadConfig({ LLM_BASE_URL: 'http://localhost:8000/v1' })).toThrow('LLM_MODEL: is required when LLM_BASE_URL is set')
  })
})
