/**
 * Deterministic sample-data generator for the dataset routes.
 *
 *   bun scripts/generate-sample-data.ts [outDir]      (default: <project>/datasets)
 *
 * Writes one Parquet file per dataset contract plus manifest.json. Every figure is synthetic and the
 * same code always produces the same bytes (scripts/sample/random.ts: seeded per row, never the clock).
 */
import { mkdir, stat, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { EVIDENCE, FLIGHTS, SIGNAL_BRANDS, SIGNAL_CREATORS, SIGNAL_TOPICS, SPEND } from '../src/data/contracts'
import type { ManifestEntry } from '../src/data/datasets'
import { EVIDENCE_END, generateEvidence } from './sample/evidence'
import { buildRoutes, generateFlights, generateSpend } from './sample/market'
import { END_MONTH, START_MONTH, monthRange } from './sample/market-calendar'
import { manifestEntry, openDuckDB, writeParquet } from './sample/parquet'
import { generateSignals, weekRange } from './sample/signals'

async function main(): Promise<void> {
  const started = performance.now()
  const defaultDir = fileURLToPath(new URL('../datasets', import.meta.url))
  const outDir = resolve(process.argv[2] ?? defaultDir)
  await mkdir(outDir, { recursive: true })

  const months = monthRange(START_MONTH, END_MONTH)
  const routes = buildRoutes()
  const flights = generateFlights(months, routes)
  const spend = generateSpend(months, flights)
  const weeks = weekRange()
  const signals = generateSignals(weeks)
  const monthly = { from: START_MONTH, to: END_MONTH }
  const weekly = { from: weeks[0]!.start, to: weeks.at(-1)!.end }

  const { instance, conn } = await openDuckDB()
  const datasets = [
    { contract: FLIGHTS, rows: flights, period: monthly },
    { contract: SPEND, rows: spend, period: monthly },
    { contract: SIGNAL_CREATORS, rows: signals.creators, period: weekly },
    { contract: SIGNAL_TOPICS, rows: signals.topics, period: weekly },
    { contract: SIGNAL_BRANDS, rows: signals.brands, period: weekly },
    {
      contract: EVIDENCE,
      rows: generateEvidence({ weeks, ...signals, flights }),
      period: { from: weeks[0]!.start.slice(0, 7), to: EVIDENCE_END.slice(0, 7) },
    },
  ] as const
  const entries: Record<string, ManifestEntry> = {}
  try {
    for (const { contract, rows, period } of datasets) {
      const path = join(outDir, contract.file)
      await writeParquet(conn, contract, rows, path)
      entries[contract.name] = await manifestEntry(contract, path, rows.length, period)
    }
  } finally {
    conn.closeSync()
    instance.closeSync()
  }

  const manifest = {
    generated_by: 'scripts/generate-sample-data.ts',
    sample: true,
    note: 'Generated, deterministic sample data with real place names and invented brand and creator names; figures are not real.',
    datasets: entries,
  }
  await writeFile(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  await printSummary(outDir, routes.length, months.length, entries, performance.now() - started)
}

async function printSummary(
  outDir: string,
  routeCount: number,
  monthCount: number,
  entries: Record<string, ManifestEntry>,
  elapsedMs: number,
): Promise<void> {
  console.log(`sample data -> ${outDir} (${monthCount} months ${START_MONTH}..${END_MONTH}, ${routeCount} routes, weekly signals)`)
  for (const [name, entry] of Object.entries(entries)) {
    const bytes = (await stat(join(outDir, entry.file))).size
    const size = `${(bytes / 1024 / 1024).toFixed(2)} MiB`
    console.log(`  ${name.padEnd(16)} ${String(entry.rows).padStart(8)} rows  ${size.padStart(10)}  ${entry.version}`)
  }
  console.log(`  done in ${(elapsedMs / 1000).toFixed(1)} s`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
