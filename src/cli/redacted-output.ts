import { formatWithOptions } from 'node:util'
import { redactSecrets } from '../core'

/**
 * Every text a command prints — its output, its messages, what a library logs through `console` — passes
 * `redactSecrets` (core/redact.ts): a configured key, token or password is never printed, whichever
 * command printed it and however it got there (a banner, a provider's error in `providers check`, a
 * ledger reason in `payments report`). Bytes (an export written as a file's content) pass as they are.
 *
 * Bun's `console` writes to the file descriptors itself, not through `process.stdout.write`, so both are
 * wrapped; `console` keeps its own formatting (util.format's) and colours off, as on a pipe.
 */
export function redactOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean
    stream.write = ((chunk: unknown, ...rest: unknown[]) =>
      write(typeof chunk === 'string' ? redactSecrets(chunk) : chunk, ...rest)) as typeof stream.write
  }
  for (const name of ['log', 'info', 'debug', 'warn', 'error'] as const) {
    const print = console[name].bind(console)
    console[name] = (...args: unknown[]) => print(redactSecrets(formatWithOptions({ colors: false }, ...args)))
  }
}
