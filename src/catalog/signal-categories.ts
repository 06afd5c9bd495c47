/**
 * Categories of the weekly signal routes. The slug is the `category` parameter; `data validate`
 * refuses a signals file with any other category, so adding one is a catalog change and a release.
 */
export const SIGNAL_CATEGORIES = [
  { slug: 'beauty', name: 'Beauty & skincare', name_zh: '美妆护肤' },
  { slug: 'fashion', name: 'Fashion & apparel', name_zh: '时尚穿搭' },
  { slug: 'luxury', name: 'Luxury goods', name_zh: '奢侈品' },
  { slug: 'travel', name: 'Travel & destinations', name_zh: '旅行' },
  { slug: 'food-beverage', name: 'Food & beverage', name_zh: '美食饮品' },
  { slug: 'consumer-electronics', name: 'Consumer electronics', name_zh: '数码3C' },
  { slug: 'home-living', name: 'Home & living', name_zh: '家居生活' },
  { slug: 'outdoor-sports', name: 'Outdoor & sports', name_zh: '户外运动' },
  { slug: 'parenting', name: 'Parenting & baby', name_zh: '母婴亲子' },
  { slug: 'pets', name: 'Pets', name_zh: '萌宠' },
  { slug: 'automotive', name: 'Automotive & EV', name_zh: '汽车' },
  { slug: 'gaming', name: 'Gaming', name_zh: '游戏' },
] as const

export type SignalCategory = (typeof SIGNAL_CATEGORIES)[number]['slug']

export const SIGNAL_CATEGORY_SLUGS = SIGNAL_CATEGORIES.map((c) => c.slug) as [SignalCategory, ...SignalCategory[]]

export const signalCategory = (slug: string) => SIGNAL_CATEGORIES.find((c) => c.slug === slug)
