/**
 * Every command README.md and docs/ show works as written after the README's install (issue 50): the
 * commands of their `sh` blocks, and those quoted inline (`npm run …`, `npx bun …`, `npm start -- …`,
 * `china-market-intel …`). For each:
 *
 * - an npm script exists in package.json (`npm test`, `npm start`, `npm run <name>`);
 * - Bun is run as `npx bun` (after `npm install` there is no `bun` on the PATH), on a file that exists, and
 *   `npx bun test` on paths that exist;
 * - a command of the service (`npm start -- <command>`, `china-market-intel <command>`) is one of its
 *   commands, its subcommand is one its help lists, and every option it passes is one that help names;
 * - `node` and `bash` run example files that exist.
 *
 * Anything else (openssl, systemd, docker, nginx, a shell loop) needs what a test here cannot have: its
 * block must say so, with `<!-- needs: … -->` on the line before it. Placeholders (`<folder>`, `FILE`,
 * `[checkout]`, `…`) are not checked.
 */
import { describe, expect, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '../..')
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).flatMap((f) => (f.endsWith('.md') ? [`docs/${f}`] : []))]
const scripts: Record<string, string> = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts

interface Shown {
  where: string
  command: string
  /** What the block says it needs (`<!-- needs: … -->` before it). */
  needs?: string
}

const INLINE = /`((?:npx bun|npm run|npm start|npm test|bun |china-market-intel|\.\/china-market-intel|node examples)[^`]*)`/g

/** The commands a Markdown file shows: each line of its sh blocks (continuations joined), and the inline ones. */
function shownIn(file: string): Shown[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n')
  const out: Shown[] = []
  for (let i = 0; i < lines.length; i++) {
    const fence = /^\s*```(\w*)\s*$/.exec(lines[i]!)
    if (!fence) {
      for (const match of lines[i]!.matchAll(INLINE)) out.push({ where: `${file}:${i + 1}`, command: match[1]! })
      continue
    }
    let end = i + 1
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end]!)) end++
    if (['sh', 'bash', 'shell'].includes(fence[1]!)) {
      let before = i - 1
      while (before >= 0 && lines[before]!.trim() === '') before--
      const needs = /^<!-- needs: (.+) -->$/.exec(lines[before]?.trim() ?? '')?.[1]
      const body = lines
        .slice(i + 1, end)
        .join('\n')
        .replace(/\\\n\s*/g, ' ')
      body.split('\n').forEach((text, k) => {
        const command = text.replace(/(^|\s)#\s.*$/, '').trim()
        if (command && !command.startsWith('#')) out.push({ where: `${file}:${i + 2 + k}`, command, ...(needs ? { needs } : {}) })
      })
    }
    i = end
  }
  return out
}

const isPlaceholder = (word: string) => /^<.*>$|^\[.*\]$|…|^[A-Z][A-Z_]+$/.test(word)
/** Words of a command: quotes kept together, a redirection and its target dropped. */
const wordsOf = (command: string) =>
  (command.replace(/<[^<>]*>/g, (placeholder) => placeholder.replace(/\s+/g, '_')).match(/(?:[^\s'"]+|'[^']*'|"[^"]*")+/g) ?? []).filter(
    (word, i, all) => !/^[12]?>/.test(word) && !/^[12]?>$/.test(all[i - 1] ?? ''),
  )

const helpOf = new Map<string, string>()
/** `china-market-intel <command> --help` (the top-level help for none), run once each. */
function help(command = ''): string {
  let text = helpOf.get(command)
  if (text === undefined) {
    const run = Bun.spawnSync([process.execPath, join(ROOT, 'src/index.ts'), ...(command ? [command] : []), '--help'], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'test', DATASETS_DIR: join(ROOT, 'datasets') },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    text = run.stdout.toString() + run.stderr.toString()
    helpOf.set(command, text)
  }
  return text
}

const COMMANDS = () => [...help().matchAll(/^ {2}china-market-intel ([a-z]+)/gm)].map((m) => m[1]!)

/** What is wrong with a command of the service (args after `china-market-intel`), or null. */
function cliProblem(args: string[]): string | null {
  const rest = args[0] === '--env-file' ? args.slice(2) : args
  const [command, ...options] = rest
  if (command === undefined || ['--help', '-h', '--version', '-v'].includes(command)) return null
  if (!COMMANDS().includes(command)) return `"${command}" is not a command (${COMMANDS().join(', ')})`
  const text = help(command)
  // Whole words of the help text: `--verif` is not `--verify`.
  const named = (word: string) => new RegExp(`(^|[\\s\\[|(,])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`, 'm').test(text)
  const sub = options[0]
  if (sub && !sub.startsWith('-') && !isPlaceholder(sub) && ['data', 'payments', 'providers'].includes(command) && !named(sub))
    return `${command} has no subcommand "${sub}"`
  for (const option of options.filter((o) => o.startsWith('--')))
    if (!named(option.split('=')[0]!)) return `${command} --help names no ${option}`
  return null
}

/** What is wrong with `npx bun …` (the words after bun), or null. */
function bunProblem(args: string[]): string | null {
  if (args[0] === 'test') {
    const paths = args.slice(1).filter((a, i, all) => !a.startsWith('-') && !all[i - 1]?.startsWith('--timeout') && !isPlaceholder(a))
    const missing = paths.filter((p) => !existsSync(join(ROOT, p)))
    return missing.length ? `no ${missing.join(', ')}` : null
  }
  const [file, ...rest] = args.slice(args.findIndex((a) => !a.startsWith('-')))
  if (!file || isPlaceholder(file)) return null
  if (!existsSync(join(ROOT, file))) return `no ${file}`
  return file === 'src/index.ts' ? cliProblem(rest) : null
}

/** What is wrong with one command as written, or null; `outside` when it is none of ours. */
function problem(command: string): string | null | 'outside' {
  for (const part of command.split(/\s*&&\s*|\s*;\s*/)) {
    const words = wordsOf(part)
    while (words.length && /^[A-Z_][A-Z0-9_]*=/.test(words[0]!)) words.shift()
    const [head, ...args] = words
    let found: string | null | 'outside' = null
    // Settings alone (a block of VAR=value lines) are no command.
    if (head === undefined) continue
    if (head === 'npm') {
      const [verb, name] = args
      if (verb === 'install' || verb === 'ci') found = null
      else if (verb === 'run') found = name && scripts[name] ? null : `package.json has no script "${name}"`
      else if (verb === 'start' || verb === 'test')
        found = !scripts[verb] ? `package.json has no ${verb} script` : args[1] === '--' ? cliProblem(args.slice(2)) : null
      else found = 'outside'
    } else if (head === 'npx' && args[0] === 'bun') found = bunProblem(args.slice(1))
    else if (head === 'bun') found = 'after `npm install` there is no bun on the PATH: write `npx bun`'
    else if (/^(\.\/|dist\/)?china-market-intel$/.test(head)) found = cliProblem(args)
    else if ((head === 'node' || head === 'bash') && args[0]?.startsWith('examples/'))
      found = existsSync(join(ROOT, args[0])) ? null : `no ${args[0]}`
    else found = 'outside'
    if (found !== null) return found
  }
  return null
}

describe('every command the README and docs/ show', () => {
  const shown = DOCS.flatMap(shownIn)

  test('they are found (the README alone shows its two first commands, the examples and curl)', () => {
    expect(shown.filter((s) => s.where.startsWith('README.md')).length).toBeGreaterThanOrEqual(5)
    expect(shown.length).toBeGreaterThan(80)
  })

  test('each is written as it runs (its script, file, command, subcommand and options exist), or its block says what it needs', () => {
    const wrong = shown.flatMap(({ where, command, needs }) => {
      const found = problem(command)
      if (found === null || (found === 'outside' && needs)) return []
      return [
        `${where}: ${command}\n    ${found === 'outside' ? 'not a command of this project: mark its block <!-- needs: … -->' : found}`,
      ]
    })
    expect(wrong).toEqual([])
  }, 120_000)
})
