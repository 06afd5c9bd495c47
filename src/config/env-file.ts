import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseEnv } from 'node:util'
import { ConfigError } from '../core'

/** The single executable runs its embedded code from Bun's virtual /$bunfs/ file system. */
export const isCompiled = () => Bun.main.startsWith('/$bunfs/')

let loaded: { file: string | null } | undefined

/** `applyEnvFile` on this process's command line and environment, once; later calls return the same file. */
export function loadEnvFile(): string | null {
  loaded ??= { file: applyEnvFile(process.argv, process.env) }
  return loaded.file
}

/**
 * Settings from a dotenv file, only when asked: `--env-file PATH` (or `--env-file=PATH`, anywhere on the
 * command line; removed from `argv`) or ENV_FILE. The executable is built without Bun's `.env`
 * autoloading (scripts/build.ts), so a `.env` in whatever folder it is started from is never read by
 * accident. A variable already in the environment wins over the file; values are taken literally (no
 * `$VAR` expansion). Returns the absolute path of the file read, if any.
 */
export function applyEnvFile(argv: string[], env: Record<string, string | undefined>): string | null {
  let path: string | undefined
  let from = 'ENV_FILE'
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg !== '--env-file' && !arg.startsWith('--env-file=')) continue
    const value = arg === '--env-file' ? argv[i + 1] : arg.slice('--env-file='.length)
    if (!value || value.startsWith('--')) throw new ConfigError('--env-file', 'needs a path: --env-file /etc/china-market-intel.env')
    argv.splice(i, arg === '--env-file' ? 2 : 1)
    path = value
    from = '--env-file'
    break
  }
  path ??= env.ENV_FILE?.trim() || undefined
  if (!path) return null
  const file = resolve(path)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new ConfigError(from, `cannot read ${file}: ${(error as { code?: string }).code ?? String(error)}`)
  }
  for (const [name, value] of Object.entries(parseEnv(text))) if (env[name] === undefined) env[name] = value
  return file
}
