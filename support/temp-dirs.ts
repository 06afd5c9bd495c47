/**
 * Temporary folders of the tests, removed once every file has run (temp-cleanup.ts, preloaded by
 * bunfig.toml): a run leaves no copies of the datasets behind. A folder that holds ~200 MB (a copy of
 * the shipped datasets) made in every data test filled a developer's disk over a few dozen runs.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The folders made so far in this `bun test` process. */
export const madeTempDirs = (): string[] => ((globalThis as { testTempDirs?: string[] }).testTempDirs ??= [])

/** A fresh folder under the system's temporary directory, removed after the run. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  madeTempDirs().push(dir)
  return dir
}
