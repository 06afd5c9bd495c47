/**
 * The results of a pure function for its most recent keys: at most `max` entries, the least recently
 * used forgotten first. The results are shared, so they must be treated as read-only.
 */
export function recentMemo<V>(max: number, compute: (key: string) => V): (key: string) => V {
  const held = new Map<string, V>()
  return (key) => {
    let value = held.get(key)
    if (value !== undefined) {
      held.delete(key) // back of the insertion order: recently used
    } else {
      value = compute(key)
      if (held.size >= max) held.delete(held.keys().next().value as string)
    }
    held.set(key, value)
    return value
  }
}
