/**
 * The results of a pure function of a string, for its most recent keys: the keys held add up to at most
 * `maxChars` characters (a result's size follows its key's length), the least recently used forgotten
 * first. The results are shared, so they must be treated as read-only.
 */
export function recentMemo<V>(maxChars: number, compute: (key: string) => V): (key: string) => V {
  const held = new Map<string, V>()
  let chars = 0
  return (key) => {
    let value = held.get(key)
    if (value !== undefined) {
      held.delete(key) // back of the insertion order: recently used
    } else {
      value = compute(key)
      if (key.length > maxChars) return value
      chars += key.length
      for (const oldest of held.keys()) {
        if (chars <= maxChars) break
        held.delete(oldest)
        chars -= oldest.length
      }
    }
    held.set(key, value)
    return value
  }
}
