import { loadConfig } from '../src/config/config'
import { createLogger } from '../src/core/logger'
import { createRuntime, type Runtime, type RuntimeOptions } from '../src/composition/runtime'

export const BASE = 'http://localhost:3000'

/**
 * An in-process service on the shipped sample datasets with a throwaway ledger; nothing listens. Returns
 * once the datasets are indexed and the sample corpus by name (when /ready says ready), unless `options.beforeIndexing` holds the build (to test the service
 * while it builds).
 */
export async function testRuntime(
  env: Record<string, string> = {},
  options: RuntimeOptions = {},
): Promise<Runtime & { get(path: string, headers?: Record<string, string>): Promise<Response> }> {
  const config = loadConfig({
    LEDGER_PATH: ':memory:',
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    RATE_LIMIT_PAYER_PER_MINUTE: '0',
    X402_VERIFY_CONCURRENCY: '10000',
    X402_VERIFY_NEW_PAYERS_PER_SECOND: '10000',
    ...env,
  })
  const runtime = await createRuntime(config, createLogger('silent'), options)
  if (!options.beforeIndexing) {
    await runtime.store.loaded
    await runtime.corpusPrepared
  }
  return {
    ...runtime,
    get: (path, headers = {}) => runtime.app.handle(new Request(`${BASE}${path}`, { headers })),
  }
}
