import { writeSync } from 'node:fs'
import type { LogLevel } from '../config'

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }

export interface Logger {
  enabled(level: Exclude<LogLevel, 'silent'>): boolean
  debug(msg: string, fields?: Record<string, unknown>): void
  info(msg: string, fields?: Record<string, unknown>): void
  warn(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
  /** Writes out anything buffered (call before exit). */
  flush(): void
}

/**
 * Buffered stdout: a write syscall per request line cost ~8 µs of the 402 path under load (measured with
 * strace and wrk). Lines are joined and written when 32 KiB are pending, every 100 ms, at once for
 * warnings and errors, and on exit.
 */
function bufferedStdout() {
  let pending: string[] = []
  let size = 0
  const flush = () => {
    if (size === 0) return
    const chunk = pending.join('')
    pending = []
    size = 0
    writeSync(1, chunk)
  }
  setInterval(flush, 100).unref()
  process.on('exit', flush)
  return {
    write(line: string) {
      pending.push(line)
      size += line.length
      if (size >= 32 * 1024) flush()
    },
    flush,
  }
}

/** JSON-lines logger: one object per line on stdout, easy to grep by request_id and to ship anywhere. */
export function createLogger(level: LogLevel, write?: (line: string) => void): Logger {
  const out = write ? { write, flush: () => {} } : bufferedStdout()
  const min = RANK[level]
  const log = (lvl: Exclude<LogLevel, 'silent'>) => (msg: string, fields?: Record<string, unknown>) => {
    if (RANK[lvl] < min) return
    out.write(`${JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields })}\n`)
    if (RANK[lvl] >= RANK.warn) out.flush()
  }
  return {
    enabled: (lvl) => RANK[lvl] >= min,
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    flush: out.flush,
  }
}
