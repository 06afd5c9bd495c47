/** Provider configuration: read from the environment, validated at start, live only when a search provider is set. */
import { describe, expect, test } from 'bun:test'
import { ConfigError, loadConfig } from '../../src/config'
import { isLive } from '../../src/intelligence/sources'

describe('provider configuration', () => {
  test('nothing configured: no providers, the China routes use the sample corpus', () => {
    const c = loadConfig({})
    expect(c.providers).toEqual({ webSearch: null, nativeSearch: null, llm: null })
    expect(isLive(c.providers)).toBe(false)
  })

  test('URLs, keys, timeouts and native platforms are read, with documented defaults', () => {
    const c = loadConfig({
      WEB_SEARCH_URL: 'https://search.example.com/api', WEB_SEARCH_KEY: 'k1',
      NATIVE_SEARCH_URL: 'http://discovery.internal/{platform}/search', NATIVE_SEARCH_PLATFORMS: 'douyin,xiaohongshu', NATIVE_SEARCH_TIMEOUT_MS: '8000',
      LLM_BASE_URL: 'http://localhost:11434/v1', LLM_MODEL: 'qwen2.5',
    })
    expect(c.providers).toEqual({
      webSearch: { url: 'https://search.example.com/api', key: 'k1', timeoutMs: 12_000 },
      nativeSearch: { url: 'http://discovery.internal/{platform}/search', key: undefined, timeoutMs: 8000, platforms: ['douyin', 'xiaohongshu'] },
      llm: { baseUrl: 'http://localhost:11434/v1', key: undefined, model: 'qwen2.5', timeoutMs: 20_000 },
    })
    expect(isLive(c.providers)).toBe(true)
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
