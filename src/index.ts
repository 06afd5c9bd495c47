#!/usr/bin/env bun
import { ConfigError } from './core'
import { ENV, loadEnvFile } from './config'
import { redactOutput, serve } from './cli'
import pkg from '../package.json' with { type: 'json' }
import { resolve } from 'node:path'
import { workingCopy } from './data'

// First: nothing this process prints may carry a configured secret (the secrets are known once read).
redactOutput()

// Before anything reads the environment (the executable has done it already: a no-op then).
try {
  loadEnvFile()
} catch (error) {
  if (!(error instanceof ConfigError)) throw error
  console.error(`Configuration error: ${error.message}`)
  process.exit(2)
}

type Run = (args: string[]) => Promise<void>

/** Subcommands: name -> [synopsis, what it does]. Each lives in src/cli/ (smoke and doctor in folders of their own). */
const COMMANDS = {
  serve: ['serve', 'start the HTTP service (default)'],
  data: ['data list|validate|import|rollback', "the data team's dataset refresh (data --help)"],
  smoke: ['smoke [--base-url URL] [options]', 'pay every route of a running server once'],
  payments: ['payments report|reconcile|export|backup', 'revenue, pending settlements, CSV export, ledger backup (payments --help)'],
  doctor: ['doctor [--json] [--no-provider-calls]', 'the go-live checklist: what blocks taking money, and the setting that fixes it'],
  providers: [
    'providers check [--keyword W] [--days N] [--json]',
    'ask each live evidence provider once and say what it returns (providers --help)',
  ],
} satisfies Record<string, [string, string]>
type Command = keyof typeof COMMANDS

/** How each command runs (one for each command, or this fails to compile): all but serve load on demand (viem alone costs serve ~90 ms of start-up). */
const RUNS: Record<Command, () => Run | Promise<Run>> = {
  serve: () => serve,
  data: async () => (await import('./cli/data')).data,
  smoke: async () => (await import('./cli/smoke/smoke')).smoke,
  payments: async () => (await import('./cli/payments')).payments,
  doctor: async () => (await import('./cli/doctor/doctor')).doctor,
  providers: async () => (await import('./cli/providers')).providers,
}
const line = (synopsis: string, what: string) => `  china-market-intel ${synopsis.padEnd(40)} ${what}`

const HELP = `china-market-intel ${pkg.version} — pay-per-request (x402) China market-intelligence API

Usage:
${Object.values(COMMANDS)
  .map(([synopsis, what]) => line(synopsis, what))
  .join('\n')}
${line('--help', 'this text (also: <command> --help)')}
${line('--version', 'print the version')}
${line('--env-file PATH <command>', 'read settings from a dotenv file (as ENV_FILE)')}

Configuration (environment variables):
${Object.entries(ENV)
  .map(([k, v]) => `  ${k.padEnd(20)} ${v.meaning} Default: ${v.default}`)
  .join('\n')}
`

const [command = 'serve', ...rest] = process.argv.slice(2)
if (command === '--help' || command === '-h' || command === 'help' || (command === 'serve' && rest.includes('--help'))) {
  process.stdout.write(HELP)
} else if (command === '--version' || command === '-v') {
  process.stdout.write(`${pkg.version}\n`)
} else if (Object.hasOwn(COMMANDS, command)) {
  // From source, the commands that read datasets use a working copy of the shipped sample (data/import/working-copy.ts)
  // unless DATASETS_DIR or a publication names one; the executable has set DATASETS_DIR to its own already.
  const ownFolder = rest.some((arg) => arg === '--help' || arg === '-h' || arg === '--dir' || arg.startsWith('--dir='))
  if (
    ['serve', 'data', 'doctor'].includes(command) &&
    !ownFolder &&
    !process.env.DATASETS_DIR?.trim() &&
    !process.env.DATA_SOURCE_URL?.trim()
  ) {
    try {
      process.env.DATASETS_DIR = workingCopy(resolve(import.meta.dir, '../datasets'), resolve('var/datasets'))
    } catch (error) {
      console.error(
        `Datasets error: cannot copy the shipped sample to var/datasets: ${error instanceof Error ? error.message : String(error)}`,
      )
      process.exit(1)
    }
  }
  await (await RUNS[command as Command]())(rest)
} else {
  process.stderr.write(`Unknown command "${command}".\n\n${HELP}`)
  process.exit(2)
}
