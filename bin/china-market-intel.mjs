#!/usr/bin/env node
/**
 * The command line from source, without npm's banner: `npx china-market-intel <command> …` runs
 * `bun src/index.ts <command> …` with Bun from this project's node_modules, so what a command writes to
 * standard output (a CSV export, a JSON report) is all that goes there, unlike `npm start -- …`, which
 * prints npm's own lines first. Signals reach the service (Ctrl-C, SIGTERM) and its exit code is this one's.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { constants } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const bun = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'bun.exe' : 'bun')
if (!existsSync(bun)) {
  console.error('china-market-intel: Bun is not installed in this folder yet; run `npm install` first.')
  process.exit(2)
}
const child = spawn(bun, [join(root, 'src', 'index.ts'), ...process.argv.slice(2)], { stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)))
