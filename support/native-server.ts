import type { Server } from 'bun'
import { loadConfig } from '../src/config/config'
import { createLogger } from '../src/core/logger'
import { createRuntime, type Runtime } from '../src/composition/runtime'
import { nativeRoutes } from '../src/http/native-routes'
import { listen } from '../src/cli/listen'

export interface NativeServer {
  runtime: Runtime
  server: Server<undefined>
  url(path: string): string
  stop(): Promise<void>
}

/**
 * The service in-process behind a real socket, listening as `serve` does (cli/listen.ts: Bun's native
 * route table with the remembered unpaid 402s in front of the framework, its limits and timeouts), without
 * the shutdown drain; `lines` receives its log lines.
 */
export async function nativeServer(env: Record<string, string>, lines?: string[]): Promise<NativeServer> {
  const runtime = await createRuntime(
    loadConfig({ LEDGER_PATH: ':memory:', NODE_ENV: 'test', RATE_LIMIT_PAYER_PER_MINUTE: '0', ...env }),
    lines ? createLogger('info', (line) => lines.push(line)) : createLogger('silent'),
  )
  await runtime.store.loaded
  const { server } = listen({
    host: '127.0.0.1',
    port: 0,
    reusePort: false,
    ledgerPath: ':memory:',
    fetch: runtime.app.fetch,
    routes: nativeRoutes(runtime.app, (handler) => handler, runtime.app.unpaid),
  })
  runtime.app.server = server as unknown as typeof runtime.app.server
  return {
    runtime,
    server,
    url: (path) => `http://127.0.0.1:${server.port}${path}`,
    async stop() {
      await server.stop(true)
      await runtime.close()
    },
  }
}
