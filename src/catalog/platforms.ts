/** Platform tokens of the China intelligence routes and the aliases buyers use for them. */
export const PLATFORMS = {
  xiaohongshu: { role: 'social-content', aliases: ['red', 'xhs'] },
  douyin: { role: 'short-video', aliases: [] },
  wechat: { role: 'messaging-article', aliases: ['weixin'] },
} as const

export type Platform = keyof typeof PLATFORMS

export const PLATFORM_TOKENS = Object.keys(PLATFORMS) as Platform[]

/** Every accepted spelling: canonical tokens first, then aliases. */
export const PLATFORM_VALUES = [...PLATFORM_TOKENS, ...PLATFORM_TOKENS.flatMap((p) => PLATFORMS[p].aliases as readonly string[])] as [
  string,
  ...string[],
]
