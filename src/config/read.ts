import { Value } from '@sinclair/typebox/value'
import { ConfigError } from '../core'
import { ENV, type EnvName } from './settings'

/** Settings whose value may be or carry a secret (a key, a token, a URL with a key in it): an error never quotes them. */
const SECRET_SETTING = /KEY|TOKEN|SECRET|PASSWORD|_URL|HEADERS/

/**
 * One variable of the environment, validated against its entry in the settings table (settings.ts);
 * undefined when unset or empty. `as` names the variable actually read when it is one of a family
 * documented by one entry (`PAY_TO_POLYGON` under `PAY_TO_<NETWORK>`).
 */
export function read(env: Record<string, string | undefined>, name: EnvName, as: string = name): unknown {
  const raw = env[as]
  if (raw === undefined || raw === '') return undefined
  const schema = ENV[name].schema
  const value = schema.type === 'integer' ? (/^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw) : raw.trim()
  if (!Value.Check(schema, value)) {
    const literals = (schema as { anyOf?: { const: string }[] }).anyOf?.map((s) => s.const)
    const allowed = literals ? ` (allowed: ${literals.join(', ')})` : ''
    const first = [...Value.Errors(schema, value)][0]
    const shown = SECRET_SETTING.test(as) ? '(not shown)' : JSON.stringify(raw)
    throw new ConfigError(as, `invalid value ${shown}: ${first?.message ?? 'invalid'}${allowed}`)
  }
  return value
}
