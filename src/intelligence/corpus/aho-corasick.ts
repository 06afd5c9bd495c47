/** A multi-pattern matcher: every occurrence of every pattern in one pass over a text (Aho-Corasick). */

interface Node {
  next: Map<number, Node>
  fail: Node | null
  /** Patterns ending here, this node's own and those of its fail chain. */
  out: number[]
}

const node = (): Node => ({ next: new Map(), fail: null, out: [] })

export class AhoCorasick {
  private readonly root = node()

  constructor(patterns: readonly string[]) {
    patterns.forEach((pattern, index) => {
      let at = this.root
      for (let i = 0; i < pattern.length; i++) {
        const code = pattern.charCodeAt(i)
        let to = at.next.get(code)
        if (!to) at.next.set(code, (to = node()))
        at = to
      }
      at.out.push(index)
    })
    // Breadth first: each node's fail link is the longest proper suffix that is also in the trie.
    const queue: Node[] = []
    for (const child of this.root.next.values()) {
      child.fail = this.root
      queue.push(child)
    }
    for (let k = 0; k < queue.length; k++) {
      const at = queue[k]!
      for (const [c, child] of at.next) {
        let fail = at.fail
        while (fail && !fail.next.has(c)) fail = fail.fail
        child.fail = fail ? fail.next.get(c)! : this.root
        child.out.push(...child.fail.out)
        queue.push(child)
      }
    }
  }

  /** Calls `found` with the index of each pattern occurring in `text` and where it ends (exclusive, in UTF-16 units), once per occurrence. */
  scan(text: string, found: (pattern: number, end: number) => void): void {
    let at = this.root
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i)
      while (at !== this.root && !at.next.has(code)) at = at.fail!
      at = at.next.get(code) ?? this.root
      for (const pattern of at.out) found(pattern, i + 1)
    }
  }
}
