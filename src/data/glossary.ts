/**
 * The bilingual glossary behind the entity resolver: what buyers call each of the 12 weekly signal
 * categories, and the consumer and marketing terms of each category, in English and Chinese. Data only:
 * the resolver (src/intelligence/names/entities.ts) reads it, and the sample generator writes these words
 * into the evidence corpus. A name must mean one thing: the resolver refuses a name listed twice.
 *
 * `en` names match whole words (case-insensitive, plural allowed); `zh` names match as written. A
 * category's first `zh` synonym is the word live providers are asked for: what people write (美妆), not
 * the display name (美妆护肤), which few posts contain.
 * `aliases` only resolve a keyword (codes, abbreviations too short or too common to search text for).
 * A category's `shopper` words are what marketers and shoppers call it (护肤品, 露营装备, pet supplies):
 * they resolve to the category, like aliases, but are not searched for in evidence text, where most
 * would be too broad (宠物用品 names a shelf, not a conversation).
 */
import type { SignalCategory } from '../catalog'

export interface GlossaryNames {
  en: readonly string[]
  zh: readonly string[]
  aliases?: readonly string[]
  shopper?: readonly string[]
}

/** Synonyms of each category beyond its slug and its names in src/catalog/signal-categories.ts. */
export const CATEGORY_SYNONYMS: Readonly<Record<SignalCategory, GlossaryNames>> = {
  beauty: { en: ['beauty', 'skincare', 'skin care', 'cosmetics', 'makeup'], zh: ['美妆', '护肤', '化妆品', '彩妆', '美妆护肤'], shopper: ['beauty products', 'skincare products', 'skin care products', 'makeup products', 'cosmetic products', 'personal care', '护肤品', '美容', '美妆产品', '护肤产品', '彩妆产品', '美妆个护', '个护'] },
  fashion: { en: ['fashion', 'apparel', 'clothing', 'outfits', 'OOTD'], zh: ['时尚', '穿搭', '服装', '服饰', '时尚穿搭'], shopper: ['clothes', 'womenswear', 'menswear', 'fashion brands', 'streetwear', 'apparel brands', '女装', '男装', '衣服', '服装品牌', '潮牌', '鞋服', '时装', '服装服饰'] },
  luxury: { en: ['luxury', 'luxury goods', 'luxury brands'], zh: ['奢侈品', '奢品', '轻奢'], shopper: ['luxury fashion', 'designer brands', 'high-end brands', 'luxury products', '奢侈品牌', '大牌', '高奢', '名牌'] },
  travel: { en: ['travel', 'tourism', 'trips', 'holidays'], zh: ['旅行', '旅游', '出游'], shopper: ['travel industry', 'tourism industry', 'vacations', 'destinations', '出行', '度假', '旅游业', '文旅'] },
  'food-beverage': { en: ['food and beverage', 'food & beverage', 'food', 'drinks', 'dining'], zh: ['美食', '餐饮', '饮品', '美食饮品'], aliases: ['F&B', 'fnb'], shopper: ['food and drink', 'snacks', 'beverages', 'restaurants', 'food brands', '零食', '食品', '饮料', '餐厅', '美食探店', '吃喝', '食品饮料'] },
  'consumer-electronics': { en: ['consumer electronics', 'electronics', 'gadgets', 'tech gadgets'], zh: ['数码', '电子产品', '数码3C', '3C数码'], aliases: ['3C', 'CE'], shopper: ['consumer tech', 'tech products', 'smart devices', 'digital products', 'electronic products', '数码产品', '3C产品', '智能硬件', '手机数码', '电子数码', '数码好物'] },
  'home-living': { en: ['home and living', 'home & living', 'home decor', 'interiors', 'homeware'], zh: ['家居', '家居生活', '家装', '居家'], shopper: ['home goods', 'home furnishing', 'household goods', 'home products', '家居用品', '家居好物', '居家好物', '家居家装', '生活家居'] },
  'outdoor-sports': { en: ['outdoor sports', 'outdoor', 'outdoors', 'sports'], zh: ['户外', '户外运动', '运动'], shopper: ['outdoor gear', 'camping gear', 'sports gear', 'sportswear', 'outdoor equipment', 'sporting goods', '户外装备', '露营装备', '运动装备', '户外用品', '运动户外', '运动用品'] },
  parenting: { en: ['parenting', 'mother and baby', 'baby products', 'kids'], zh: ['母婴', '亲子', '育儿', '母婴亲子', '宝妈'], shopper: ['kids products', 'mother and baby products', 'maternity', 'baby care', '母婴用品', '婴儿用品', '儿童用品', '宝宝用品', '育儿好物', '母婴产品', '婴童用品', '婴童', '童装', 'baby gear', 'baby goods', 'kids gear'] },
  pets: { en: ['pets', 'pet care', 'pet owners'], zh: ['宠物', '萌宠', '养宠'], shopper: ['pet', 'pet supplies', 'pet products', 'cats and dogs', 'pet industry', '宠物用品', '宠物好物', '猫咪', '狗狗', '猫狗', '宠物经济', '猫狗用品'] },
  automotive: { en: ['automotive', 'cars', 'car', 'auto'], zh: ['汽车', '玩车', '买车'], shopper: ['auto industry', 'car accessories', 'vehicles', 'autos', 'car brands', '汽车用品', '汽车品牌', '车圈', '汽车行业', '车品', '汽车配件', 'car parts'] },
  gaming: { en: ['gaming', 'video games', 'games', 'gamers'], zh: ['游戏', '玩游戏', '游戏玩家'], shopper: ['game industry', 'gaming industry', 'console games', 'pc games', '电子游戏', '游戏圈', '游戏行业', '主机游戏'] },
}

export interface GlossaryTerm extends GlossaryNames {
  id: string
  category: SignalCategory
}

/** Consumer and marketing terms, a few per category. */
export const TERMS: readonly GlossaryTerm[] = [
  { id: 'serum', category: 'beauty', en: ['serum'], zh: ['精华', '精华液'] },
  { id: 'face-mask', category: 'beauty', en: ['face mask', 'sheet mask'], zh: ['面膜'] },
  { id: 'foundation', category: 'beauty', en: ['foundation'], zh: ['粉底', '粉底液'] },
  { id: 'ingredient-led', category: 'beauty', en: ['ingredient-led'], zh: ['成分党'] },

  { id: 'knitwear', category: 'fashion', en: ['knitwear'], zh: ['针织', '毛衣'] },
  { id: 'denim', category: 'fashion', en: ['denim', 'jeans'], zh: ['牛仔', '牛仔裤'] },
  { id: 'tailoring', category: 'fashion', en: ['tailoring', 'blazer'], zh: ['西装', '西服'] },

  { id: 'limited-edition', category: 'luxury', en: ['limited edition'], zh: ['限量款', '限定款'] },
  { id: 'boutique', category: 'luxury', en: ['boutique', 'flagship store'], zh: ['专柜', '旗舰店'] },
  { id: 'resale-value', category: 'luxury', en: ['resale value'], zh: ['保值', '保值率'] },

  { id: 'outbound-travel', category: 'travel', en: ['outbound travel', 'travel abroad', 'overseas travel'], zh: ['出境游', '出国游', '境外游'] },
  { id: 'independent-travel', category: 'travel', en: ['independent travel', 'self-guided trip'], zh: ['自由行'] },
  { id: 'visa', category: 'travel', en: ['visa', 'visas'], zh: ['签证'] },
  { id: 'tax-free-shopping', category: 'travel', en: ['tax refund', 'tax-free shopping'], zh: ['退税'] },

  { id: 'milk-tea', category: 'food-beverage', en: ['milk tea', 'bubble tea'], zh: ['奶茶'] },
  { id: 'coffee', category: 'food-beverage', en: ['coffee', 'latte'], zh: ['咖啡', '拿铁'] },
  { id: 'restaurant-visit', category: 'food-beverage', en: ['restaurant review', 'food hunt'], zh: ['探店'] },

  { id: 'smartphone', category: 'consumer-electronics', en: ['smartphone', 'phone', 'mobile phone'], zh: ['手机', '智能手机'] },
  { id: 'tablet', category: 'consumer-electronics', en: ['tablet'], zh: ['平板', '平板电脑'] },
  { id: 'unboxing-review', category: 'consumer-electronics', en: ['hands-on review', 'teardown'], zh: ['上手体验', '拆机'] },

  { id: 'furniture', category: 'home-living', en: ['furniture', 'sofa'], zh: ['家具', '沙发'] },
  { id: 'home-appliances', category: 'home-living', en: ['home appliances', 'appliance'], zh: ['家电'] },
  { id: 'decluttering', category: 'home-living', en: ['decluttering', 'declutter'], zh: ['断舍离'] },

  { id: 'skiing', category: 'outdoor-sports', en: ['ski', 'skiing', 'snowboarding'], zh: ['滑雪', '单板'] },
  { id: 'trail-running', category: 'outdoor-sports', en: ['trail running'], zh: ['越野跑'] },
  { id: 'gym', category: 'outdoor-sports', en: ['gym', 'workout', 'fitness'], zh: ['健身', '健身房'] },

  { id: 'diapers', category: 'parenting', en: ['diapers', 'nappies'], zh: ['纸尿裤', '尿不湿'] },
  { id: 'toddlers', category: 'parenting', en: ['toddler', 'toddlers'], zh: ['幼儿', '宝宝'] },

  { id: 'pet-food', category: 'pets', en: ['pet food', 'dog food', 'kibble'], zh: ['宠物食品', '宠物粮', '狗粮'] },
  { id: 'cat-litter', category: 'pets', en: ['cat litter'], zh: ['猫砂'] },
  { id: 'vet-visits', category: 'pets', en: ['vet', 'veterinarian'], zh: ['宠物医院', '兽医'] },

  { id: 'ev', category: 'automotive', en: ['EV', 'EVs', 'electric vehicle', 'electric car', 'new energy vehicle'], zh: ['新能源汽车', '新能源车', '电动车', '电车'], aliases: ['NEV'] },
  { id: 'test-drive', category: 'automotive', en: ['test drive'], zh: ['试驾'] },
  { id: 'car-loan', category: 'automotive', en: ['car loan', 'car financing'], zh: ['车贷'] },

  { id: 'gacha', category: 'gaming', en: ['gacha', 'loot box'], zh: ['抽卡', '氪金'] },
  { id: 'game-update', category: 'gaming', en: ['game update', 'patch notes'], zh: ['版本更新', '新版本'] },
  { id: 'console', category: 'gaming', en: ['console', 'consoles'], zh: ['主机', '游戏机'] },
]
