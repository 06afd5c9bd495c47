/**
 * `doctor`: the go-live checklist. Checks the configuration a seller is about to take money with (payment
 * mode, PAY_TO, network, facilitator or chain, ledger, datasets, live providers, public URL, proxies, seller token), each
 * by doing what the service would do with it, and says what is missing and which setting fixes it.
 */
import { parseArgs } from 'node:util'
import { ConfigError } from '../../core'
import { type Config, loadConfig } from '../../config'
import { block, messageOf, type Finding, type FindingStatus } from './doctor-finding'
import { chain, facilitator, network, paymentMode, payTo } from './doctor-payments'
import { datasets, ledger, providers, proxies, publicUrl, sellerToken } from './doctor-service'

const HELP = `doctor [--json] [--no-provider-calls]
  checks the configuration this service would start with, as the service would use it, and prints a
  go-live checklist: payment mode, PAY_TO, network, the facilitator (or the chain in self mode) asked
  for /supported (or its chain id, USDC and the settler's gas), the ledger opened and write-locked, the
  datasets loaded and indexed, each live evidence provider asked once (a real, billed call; skipped with
  --no-provider-calls), PUBLIC_BASE_URL asked for /health, the proxies and METRICS_TOKEN's strength. Reads the same environment
  and --env-file as the service. It opens the ledger as the service would: creating it, or bringing an
  older release's SQLite schema up to date (as starting this release would).

Exit status: 0 nothing blocks taking money, or NODE_ENV is not production (the checklist still says what
would); 1 something blocks taking money in production, or the configuration does not load; 2 bad usage.
`

const MARK: Record<FindingStatus, string> = { ok: 'ok   ', warn: 'warn ', block: 'BLOCK' }

/** Every check, in the order a seller reads them; those that wait on the network or DuckDB run at once. */
async function examine(config: Readonly<Config>, providerCalls: boolean): Promise<Finding[]> {
  // A check that throws (a part that cannot even be opened) is a finding too, never a crash of the list.
  const settled = <T>(check: string, run: () => Promise<T>, fallback: (finding: Finding) => T) =>
    run().catch((e: unknown) => fallback(block(check, messageOf(e))))
  const [settles, chains, ledgerFinding, data, evidence, url] = await Promise.all([
    settled(
      'facilitator',
      () => facilitator(config),
      (f) => [f],
    ),
    settled(
      'chain',
      () => chain(config),
      (f) => [f],
    ),
    settled(
      'ledger',
      () => ledger(config),
      (f) => f,
    ),
    settled(
      'datasets',
      () => datasets(config),
      (f) => f,
    ),
    settled(
      'evidence providers',
      () => providers(config, providerCalls),
      (f) => [f],
    ),
    settled(
      'public URL',
      () => publicUrl(config, process.env),
      (f) => f,
    ),
  ])
  return [
    paymentMode(config),
    payTo(config),
    network(config),
    ...settles,
    ...chains,
    ledgerFinding,
    data,
    ...evidence,
    url,
    proxies(config),
    sellerToken(config),
  ]
}

function report(findings: readonly Finding[], mode: string): string {
  const width = Math.max(...findings.map((f) => f.check.length))
  const lines = findings.map((f) => {
    const head = `  ${MARK[f.status]}  ${f.check.padEnd(width)}  ${f.detail}`
    return f.fix ? `${head}\n  ${' '.repeat(7 + width + 2)}-> ${f.fix}` : head
  })
  const blocking = findings.filter((f) => f.status === 'block').length
  const looks = findings.filter((f) => f.status === 'warn').length
  const verdict =
    blocking > 0 ? `${blocking} ${blocking === 1 ? 'thing blocks' : 'things block'} taking money` : 'nothing blocks taking money'
  const exit = mode === 'production' ? '' : ' (NODE_ENV is not production: exit 0; in production a block exits 1)'
  return `Go-live checklist (NODE_ENV=${mode})\n\n${lines.join('\n')}\n\n${verdict}; ${looks} to look at${exit}.\n`
}

/**
 * Stand-ins for settings a configuration requires, used only to read on past a missing one and find the
 * next: a checklist lists every blocking setting at once, not one run at a time. Never used to check anything.
 */
const STAND_INS: Record<string, string> = {
  PAY_TO: '0x000000000000000000000000000000000000dEaD',
  PAYMENT_MODE: 'facilitator',
  X402_FACILITATOR_URL: 'https://facilitator.invalid',
  X402_RPC_URL: 'https://rpc.invalid',
  X402_SETTLER_PRIVATE_KEY: `0x${'11'.repeat(32)}`,
  LLM_MODEL: 'stand-in',
  DATA_SOURCE_PUBLIC_KEY: 'stand-in',
}

/**
 * The configuration, or every finding that it does not load: the service would not start, which blocks in
 * any mode. Each refused setting is set aside (a wrong value unset, a missing one stood in for) and the
 * configuration read again, until it loads or a refusal cannot be set aside.
 */
function loadOrBlock(env: Record<string, string | undefined> = process.env): Readonly<Config> | Finding[] {
  const tried = { ...env }
  const findings: Finding[] = []
  for (;;) {
    try {
      const config = loadConfig(tried)
      return findings.length === 0 ? config : findings
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error
      findings.push(block('configuration', error.message, `${error.variable} (npm start -- --help lists every setting)`))
      const name = error.variable
      if (findings.filter((f) => f.fix?.startsWith(`${name} `)).length > 1) return findings // set aside once already
      if (tried[name] !== undefined && tried[name] !== STAND_INS[name]) delete tried[name]
      else if (STAND_INS[name] !== undefined) tried[name] = STAND_INS[name]
      else return findings
    }
  }
}

export async function doctor(args: string[]): Promise<void> {
  let values
  try {
    ;({ values } = parseArgs({
      args,
      options: { json: { type: 'boolean' }, 'no-provider-calls': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    }))
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${HELP}`)
    process.exit(2)
  }
  if (values.help) {
    process.stdout.write(HELP)
    return
  }
  const loaded = loadOrBlock()
  const config = Array.isArray(loaded) ? undefined : (loaded as Readonly<Config>)
  const findings = config ? await examine(config, !values['no-provider-calls']) : (loaded as Finding[])
  const mode = config?.nodeEnv ?? process.env.NODE_ENV ?? 'development'
  const blocks = findings.some((f) => f.status === 'block')
  if (values.json) process.stdout.write(`${JSON.stringify({ node_env: mode, blocks_taking_money: blocks, findings }, null, 2)}\n`)
  else process.stdout.write(report(findings, mode))
  if (!config || (blocks && mode === 'production')) process.exitCode = 1
}
