import { describe, expect, test } from 'bun:test'
import { ConfigError, DEV_PAY_TO, loadConfig } from '../src/config'

describe('configuration', () => {
  test('no configuration at all gives development mode on port 3000, base-sepolia and the development payTo', () => {
    const c = loadConfig({})
    expect(c).toMatchObject({ port: 3000, host: '0.0.0.0', network: 'base-sepolia', payTo: DEV_PAY_TO, payToIsDevDefault: true, nodeEnv: 'development', publicBaseUrl: 'http://localhost:3000', logLevel: 'info', artifactTtlSeconds: 86400 })
    expect(Object.isFrozen(c)).toBe(true)
  })

  test('PUBLIC_BASE_URL follows PORT by default and loses a trailing slash', () => {
    expect(loadConfig({ PORT: '8080' }).publicBaseUrl).toBe('http://localhost:8080')
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://api.example.com/' }).publicBaseUrl).toBe('https://api.example.com')
  })

  for (const [name, value] of [
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['PAY_TO', '0x123'],
    ['X402_NETWORK', 'solana'],
    ['LOG_LEVEL', 'loud'],
    ['PUBLIC_BASE_URL', 'ftp://x'],
    ['ARTIFACT_TTL_HOURS', '0'],
  ] as const) {
    test(`a bad ${name} (${value}) stops start-up with a message naming the variable`, () => {
      let error: unknown
      try {
        loadConfig({ [name]: value })
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as ConfigError).variable).toBe(name)
      expect((error as Error).message).toStartWith(`${name}: invalid value`)
    })
  }

  test('an enumerated variable lists its allowed values', () => {
    expect(() => loadConfig({ X402_NETWORK: 'solana' })).toThrow('(allowed: base-sepolia, base)')
  })

  test('production refuses to start without an explicit PAY_TO', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow('PAY_TO: is required when NODE_ENV=production')
    expect(loadConfig({ NODE_ENV: 'production', PAY_TO: '0x1111111111111111111111111111111111111111' }).payToIsDevDefault).toBe(false)
  })
})
