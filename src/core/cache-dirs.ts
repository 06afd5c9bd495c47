import { homedir, tmpdir } from 'node:os'
import { isAbsolute, join } from 'node:path'

const APP = 'china-market-intel'

/**
 * Cache roots to try, best first: $XDG_CACHE_HOME, ~/.cache, then the OS temp dir (per-user folder
 * there, since other users can write to it). Each entry is the app folder inside that root. The
 * executable extracts what it embeds there; an instance following a publication keeps its copy there.
 */
export function cacheDirs(env: Record<string, string | undefined> = process.env): string[] {
  const dirs: string[] = []
  const xdg = env.XDG_CACHE_HOME
  if (xdg && isAbsolute(xdg)) dirs.push(join(xdg, APP))
  const home = env.HOME || safeHomedir()
  if (home) dirs.push(join(home, '.cache', APP))
  dirs.push(join(tmpdir(), `${APP}-${process.getuid?.() ?? 'user'}`))
  return [...new Set(dirs)]
}

function safeHomedir(): string {
  try {
    return homedir()
  } catch {
    return ''
  }
}
