import type { Server } from 'bun'
import { loadConfig } from '../src/config/config'
import { createLogger } from '../src/core/logger'
import { createRuntime, type Runtime } from '../src/composition/runtime'
import { nativeRoutes } from '../src/http/native-routes'

export interface NativeServer {
  runtime: Runtime
  server: Server<undefined>
  url(path: string): string
  stop(): Promise<void>
}

/**
 * The service in-process behind a real socket, with Bun's native route table and the remembered unpaid
 * 402s in front of the framework, as `serve` sets them up; `lines` receives its log lines.
 */
export async function nativeServer(env: Record<string, string>, lines?: string[]): Promise<NativeServer> {
  const runtime = await createRuntime(
    loadConfig({ LEDGER_PATH: ':memory:', NODE_ENV: 'test', RATE_LIMIT_PAYER_PER_MINUTE: '0', ...env }),
    lines ? createLogger('info', (line) => lines.push(line)) : createLogger('silent'),
  )
  await runtime.store.loaded
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: runtime.app.fetch,
    routes: nativeRoutes(runtime.app, (handler) => handler, runtime.app.unpaid) as never,
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
