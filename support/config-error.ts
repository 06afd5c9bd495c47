import { expect } from 'bun:test'
import { ConfigError } from '../src/core/config-error'
import { loadConfig } from '../src/config/config'

/** The ConfigError that loading `env` stops with; the test fails when it loads, or stops with anything else. */
export function configErrorOf(env: Record<string, string>): ConfigError {
  let error: unknown
  try {
    loadConfig(env)
  } catch (caught) {
    error = caught
  }
  expect(error).toBeInstanceOf(ConfigError)
  return error as ConfigError
}
