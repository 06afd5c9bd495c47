import { loadConfig } from '../../src/config'
import { createLogger } from '../../src/http/logger'
import { createRuntime, type Runtime } from '../../src/runtime'

export const BASE = 'http://localhost:3000'

/** An in-process service on the shipped sample datasets with a throwaway ledger; nothing listens. */
export async function testRuntime(env: Record<string, string> = {}): Promise<Runtime & { get(path: string, headers?: Record<string, string>): Promise<Response> }> {
  const config = loadConfig({ LEDGER_PATH: ':memory:', LOG_LEVEL: 'silent', NODE_ENV: 'test', RATE_LIMIT_PAYER_PER_MINUTE: '0', ...env })
  const runtime = await createRuntime(config, createLogger('silent'))
  return {
    ...runtime,
    get: (path, headers = {}) => runtime.app.handle(new Request(`${BASE}${path}`, { headers })),
  }
}
