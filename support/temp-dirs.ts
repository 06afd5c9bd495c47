/**
 * Temporary folders of the tests, removed once every file has run (temp-cleanup.ts, preloaded by
 * bunfig.toml): a run leaves no copies of the datasets behind. A folder that holds ~200 MB (a copy of
 * the shipped datasets) made in every data test filled a developer's disk over a few dozen runs.
 */
import { cpSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '..')

/** The folders made so far in this `bun test` process. */
export const madeTempDirs = (): string[] => ((globalThis as { testTempDirs?: string[] }).testTempDirs ??= [])

/** A fresh folder under the system's temporary directory, removed after the run. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  madeTempDirs().push(dir)
  return dir
}

/** A fresh folder holding a private copy of the shipped datasets (to serve, change or publish), removed after the run. */
export function datasetsCopy(prefix: string): string {
  const dir = tempDir(prefix)
  cpSync(join(ROOT, 'datasets'), dir, { recursive: true })
  return dir
}
