/**
 * Static reference tables: destination countries, destination cities abroad and mainland China
 * origin cities. Names, codes and coordinates are real; nothing here is a market figure.
 * Used by scripts/generate-sample-data.ts and importable by the server (e.g. to resolve aliases).
 * Data only: no logic belongs in this file.
 *
 * Hong Kong, Macau and Taiwan are deliberately absent: destinations are abroad.
 */

export type Region =
  | 'East Asia'
  | 'Southeast Asia'
  | 'South Asia'
  | 'Central Asia'
  | 'Middle East'
  | 'Europe'
  | 'Africa'
  | 'Oceania'
  | 'North America'

export interface Country {
  /** ISO 3166-1 alpha-2 */
  readonly code: string
  /** English name as written in the datasets */
  readonly name: string
  readonly nameZh: string
  readonly region: Region
  /** Other spellings a caller might use; matched case-insensitively by consumers. */
  readonly aliases: readonly string[]
}

export const COUNTRIES = [
  { code: 'JP', name: 'Japan', nameZh: '日本', region: 'East Asia', aliases: [] },
  { code: 'KR', name: 'South Korea', nameZh: '韩国', region: 'East Asia', aliases: ['Korea', 'Republic of Korea'] },
  { code: 'MN', name: 'Mongolia', nameZh: '蒙古', region: 'East Asia', aliases: [] },
  { code: 'TH', name: 'Thailand', nameZh: '泰国', region: 'Southeast Asia', aliases: [] },
  { code: 'SG', name: 'Singapore', nameZh: '新加坡', region: 'Southeast Asia', aliases: [] },
  { code: 'MY', name: 'Malaysia', nameZh: '马来西亚', region: 'Southeast Asia', aliases: [] },
  { code: 'ID', name: 'Indonesia', nameZh: '印度尼西亚', region: 'Southeast Asia', aliases: ['印尼'] },
  { code: 'VN', name: 'Vietnam', nameZh: '越南', region: 'Southeast Asia', aliases: ['Viet Nam'] },
  { code: 'PH', name: 'Philippines', nameZh: '菲律宾', region: 'Southeast Asia', aliases: [] },
  { code: 'KH', name: 'Cambodia', nameZh: '柬埔寨', region: 'Southeast Asia', aliases: [] },
  { code: 'LA', name: 'Laos', nameZh: '老挝', region: 'Southeast Asia', aliases: ['Lao PDR'] },
  { code: 'MM', name: 'Myanmar', nameZh: '缅甸', region: 'Southeast Asia', aliases: ['Burma'] },
  { code: 'NP', name: 'Nepal', nameZh: '尼泊尔', region: 'South Asia', aliases: [] },
  { code: 'MV', name: 'Maldives', nameZh: '马尔代夫', region: 'South Asia', aliases: [] },
  { code: 'LK', name: 'Sri Lanka', nameZh: '斯里兰卡', region: 'South Asia', aliases: [] },
  { code: 'KZ', name: 'Kazakhstan', nameZh: '哈萨克斯坦', region: 'Central Asia', aliases: [] },
  { code: 'UZ', name: 'Uzbekistan', nameZh: '乌兹别克斯坦', region: 'Central Asia', aliases: [] },
  { code: 'AE', name: 'United Arab Emirates', nameZh: '阿联酋', region: 'Middle East', aliases: ['UAE', 'Emirates'] },
  { code: 'QA', name: 'Qatar', nameZh: '卡塔尔', region: 'Middle East', aliases: [] },
  { code: 'TR', name: 'Turkey', nameZh: '土耳其', region: 'Europe', aliases: ['Türkiye', 'Turkiye'] },
  { code: 'EG', name: 'Egypt', nameZh: '埃及', region: 'Africa', aliases: [] },
  { code: 'KE', name: 'Kenya', nameZh: '肯尼亚', region: 'Africa', aliases: [] },
  { code: 'ET', name: 'Ethiopia', nameZh: '埃塞俄比亚', region: 'Africa', aliases: [] },
  { code: 'FR', name: 'France', nameZh: '法国', region: 'Europe', aliases: [] },
  { code: 'GB', name: 'United Kingdom', nameZh: '英国', region: 'Europe', aliases: ['UK', 'Britain', 'Great Britain'] },
  { code: 'DE', name: 'Germany', nameZh: '德国', region: 'Europe', aliases: [] },
  { code: 'IT', name: 'Italy', nameZh: '意大利', region: 'Europe', aliases: [] },
  { code: 'ES', name: 'Spain', nameZh: '西班牙', region: 'Europe', aliases: [] },
  { code: 'NL', name: 'Netherlands', nameZh: '荷兰', region: 'Europe', aliases: ['Holland', 'The Netherlands'] },
  { code: 'CH', name: 'Switzerland', nameZh: '瑞士', region: 'Europe', aliases: [] },
  { code: 'AT', name: 'Austria', nameZh: '奥地利', region: 'Europe', aliases: [] },
  { code: 'FI', name: 'Finland', nameZh: '芬兰', region: 'Europe', aliases: [] },
  { code: 'DK', name: 'Denmark', nameZh: '丹麦', region: 'Europe', aliases: [] },
  { code: 'GR', name: 'Greece', nameZh: '希腊', region: 'Europe', aliases: [] },
  { code: 'RU', name: 'Russia', nameZh: '俄罗斯', region: 'Europe', aliases: ['Russian Federation'] },
  { code: 'AU', name: 'Australia', nameZh: '澳大利亚', region: 'Oceania', aliases: [] },
  { code: 'NZ', name: 'New Zealand', nameZh: '新西兰', region: 'Oceania', aliases: [] },
  { code: 'US', name: 'United States', nameZh: '美国', region: 'North America', aliases: ['USA', 'United States of America'] },
  { code: 'CA', name: 'Canada', nameZh: '加拿大', region: 'North America', aliases: [] },
] as const satisfies readonly Country[]

export type CountryCode = (typeof COUNTRIES)[number]['code']

export interface Destination {
  /** IATA metropolitan-area code where one exists (TYO, SEL, PAR, ...), else the airport code */
  readonly code: string
  readonly name: string
  readonly nameZh: string
  readonly countryCode: CountryCode
  readonly lat: number
  readonly lon: number
  readonly aliases: readonly string[]
  /** Airport codes of a metropolitan area (NRT and HND for TYO), so a buyer's airport code finds the city. */
  readonly airports?: readonly string[]
}

export const DESTINATIONS = [
  // East Asia
  { code: 'TYO', name: 'Tokyo', nameZh: '东京', countryCode: 'JP', lat: 35.68, lon: 139.69, aliases: [], airports: ['NRT', 'HND'] },
  { code: 'OSA', name: 'Osaka', nameZh: '大阪', countryCode: 'JP', lat: 34.69, lon: 135.5, aliases: ['Kansai'], airports: ['KIX', 'ITM'] },
  { code: 'NGO', name: 'Nagoya', nameZh: '名古屋', countryCode: 'JP', lat: 35.18, lon: 136.91, aliases: [] },
  { code: 'CTS', name: 'Sapporo', nameZh: '札幌', countryCode: 'JP', lat: 43.06, lon: 141.35, aliases: ['Hokkaido', 'New Chitose'] },
  { code: 'FUK', name: 'Fukuoka', nameZh: '福冈', countryCode: 'JP', lat: 33.59, lon: 130.4, aliases: [] },
  { code: 'OKA', name: 'Okinawa', nameZh: '冲绳', countryCode: 'JP', lat: 26.21, lon: 127.68, aliases: ['Naha', '那霸'] },
  {
    code: 'SEL',
    name: 'Seoul',
    nameZh: '首尔',
    countryCode: 'KR',
    lat: 37.57,
    lon: 126.98,
    aliases: ['Incheon'],
    airports: ['ICN', 'GMP'],
  },
  { code: 'CJU', name: 'Jeju', nameZh: '济州', countryCode: 'KR', lat: 33.5, lon: 126.53, aliases: ['Jeju Island', '济州岛'] },
  { code: 'PUS', name: 'Busan', nameZh: '釜山', countryCode: 'KR', lat: 35.18, lon: 129.08, aliases: ['Pusan'] },
  { code: 'ULN', name: 'Ulaanbaatar', nameZh: '乌兰巴托', countryCode: 'MN', lat: 47.89, lon: 106.91, aliases: ['Ulan Bator'] },
  // Southeast Asia
  { code: 'BKK', name: 'Bangkok', nameZh: '曼谷', countryCode: 'TH', lat: 13.76, lon: 100.5, aliases: [], airports: ['DMK'] },
  { code: 'HKT', name: 'Phuket', nameZh: '普吉', countryCode: 'TH', lat: 7.88, lon: 98.39, aliases: ['普吉岛'] },
  { code: 'CNX', name: 'Chiang Mai', nameZh: '清迈', countryCode: 'TH', lat: 18.79, lon: 98.98, aliases: ['Chiangmai'] },
  { code: 'SIN', name: 'Singapore', nameZh: '新加坡', countryCode: 'SG', lat: 1.35, lon: 103.82, aliases: [] },
  { code: 'KUL', name: 'Kuala Lumpur', nameZh: '吉隆坡', countryCode: 'MY', lat: 3.14, lon: 101.69, aliases: ['KL'] },
  { code: 'PEN', name: 'Penang', nameZh: '槟城', countryCode: 'MY', lat: 5.41, lon: 100.33, aliases: ['George Town'] },
  { code: 'BKI', name: 'Kota Kinabalu', nameZh: '亚庇', countryCode: 'MY', lat: 5.98, lon: 116.07, aliases: ['Sabah', '沙巴'] },
  { code: 'DPS', name: 'Bali', nameZh: '巴厘岛', countryCode: 'ID', lat: -8.65, lon: 115.22, aliases: ['Denpasar'] },
  { code: 'JKT', name: 'Jakarta', nameZh: '雅加达', countryCode: 'ID', lat: -6.21, lon: 106.85, aliases: [], airports: ['CGK'] },
  { code: 'SGN', name: 'Ho Chi Minh City', nameZh: '胡志明市', countryCode: 'VN', lat: 10.82, lon: 106.63, aliases: ['Saigon', 'HCMC'] },
  { code: 'HAN', name: 'Hanoi', nameZh: '河内', countryCode: 'VN', lat: 21.03, lon: 105.85, aliases: ['Ha Noi'] },
  { code: 'DAD', name: 'Da Nang', nameZh: '岘港', countryCode: 'VN', lat: 16.05, lon: 108.22, aliases: ['Danang'] },
  { code: 'CXR', name: 'Nha Trang', nameZh: '芽庄', countryCode: 'VN', lat: 12.24, lon: 109.19, aliases: ['Cam Ranh'] },
  { code: 'MNL', name: 'Manila', nameZh: '马尼拉', countryCode: 'PH', lat: 14.6, lon: 120.98, aliases: [] },
  { code: 'CEB', name: 'Cebu', nameZh: '宿务', countryCode: 'PH', lat: 10.32, lon: 123.89, aliases: [] },
  { code: 'PNH', name: 'Phnom Penh', nameZh: '金边', countryCode: 'KH', lat: 11.56, lon: 104.93, aliases: [] },
  // REP was replaced by SAI (Siem Reap-Angkor) in Oct 2023; the series keeps one code for continuity.
  { code: 'REP', name: 'Siem Reap', nameZh: '暹粒', countryCode: 'KH', lat: 13.36, lon: 103.86, aliases: ['Angkor'] },
  { code: 'KOS', name: 'Sihanoukville', nameZh: '西哈努克', countryCode: 'KH', lat: 10.63, lon: 103.52, aliases: ['西港'] },
  { code: 'VTE', name: 'Vientiane', nameZh: '万象', countryCode: 'LA', lat: 17.98, lon: 102.63, aliases: [] },
  { code: 'RGN', name: 'Yangon', nameZh: '仰光', countryCode: 'MM', lat: 16.87, lon: 96.2, aliases: ['Rangoon'] },
  // South and Central Asia
  { code: 'KTM', name: 'Kathmandu', nameZh: '加德满都', countryCode: 'NP', lat: 27.72, lon: 85.32, aliases: [] },
  { code: 'MLE', name: 'Male', nameZh: '马累', countryCode: 'MV', lat: 4.18, lon: 73.51, aliases: ['Malé'] },
  { code: 'CMB', name: 'Colombo', nameZh: '科伦坡', countryCode: 'LK', lat: 6.93, lon: 79.86, aliases: [] },
  { code: 'ALA', name: 'Almaty', nameZh: '阿拉木图', countryCode: 'KZ', lat: 43.24, lon: 76.89, aliases: ['Alma-Ata'] },
  { code: 'TAS', name: 'Tashkent', nameZh: '塔什干', countryCode: 'UZ', lat: 41.3, lon: 69.24, aliases: ['Toshkent'] },
  // Middle East and Africa
  { code: 'DXB', name: 'Dubai', nameZh: '迪拜', countryCode: 'AE', lat: 25.2, lon: 55.27, aliases: [] },
  { code: 'AUH', name: 'Abu Dhabi', nameZh: '阿布扎比', countryCode: 'AE', lat: 24.45, lon: 54.38, aliases: [] },
  { code: 'DOH', name: 'Doha', nameZh: '多哈', countryCode: 'QA', lat: 25.29, lon: 51.53, aliases: [] },
  { code: 'CAI', name: 'Cairo', nameZh: '开罗', countryCode: 'EG', lat: 30.04, lon: 31.24, aliases: [] },
  { code: 'NBO', name: 'Nairobi', nameZh: '内罗毕', countryCode: 'KE', lat: -1.29, lon: 36.82, aliases: [] },
  { code: 'ADD', name: 'Addis Ababa', nameZh: '亚的斯亚贝巴', countryCode: 'ET', lat: 8.98, lon: 38.76, aliases: [] },
  // Europe
  { code: 'IST', name: 'Istanbul', nameZh: '伊斯坦布尔', countryCode: 'TR', lat: 41.01, lon: 28.98, aliases: [] },
  { code: 'PAR', name: 'Paris', nameZh: '巴黎', countryCode: 'FR', lat: 48.86, lon: 2.35, aliases: [], airports: ['CDG', 'ORY'] },
  { code: 'LON', name: 'London', nameZh: '伦敦', countryCode: 'GB', lat: 51.51, lon: -0.13, aliases: [], airports: ['LHR', 'LGW', 'STN'] },
  { code: 'FRA', name: 'Frankfurt', nameZh: '法兰克福', countryCode: 'DE', lat: 50.11, lon: 8.68, aliases: ['Frankfurt am Main'] },
  { code: 'MUC', name: 'Munich', nameZh: '慕尼黑', countryCode: 'DE', lat: 48.14, lon: 11.58, aliases: ['München'] },
  { code: 'ROM', name: 'Rome', nameZh: '罗马', countryCode: 'IT', lat: 41.9, lon: 12.5, aliases: ['Roma'], airports: ['FCO'] },
  { code: 'MIL', name: 'Milan', nameZh: '米兰', countryCode: 'IT', lat: 45.46, lon: 9.19, aliases: ['Milano'], airports: ['MXP', 'LIN'] },
  { code: 'MAD', name: 'Madrid', nameZh: '马德里', countryCode: 'ES', lat: 40.42, lon: -3.7, aliases: [] },
  { code: 'BCN', name: 'Barcelona', nameZh: '巴塞罗那', countryCode: 'ES', lat: 41.39, lon: 2.17, aliases: [] },
  { code: 'AMS', name: 'Amsterdam', nameZh: '阿姆斯特丹', countryCode: 'NL', lat: 52.37, lon: 4.9, aliases: [] },
  { code: 'ZRH', name: 'Zurich', nameZh: '苏黎世', countryCode: 'CH', lat: 47.38, lon: 8.54, aliases: ['Zürich'] },
  { code: 'VIE', name: 'Vienna', nameZh: '维也纳', countryCode: 'AT', lat: 48.21, lon: 16.37, aliases: ['Wien'] },
  { code: 'HEL', name: 'Helsinki', nameZh: '赫尔辛基', countryCode: 'FI', lat: 60.17, lon: 24.94, aliases: [] },
  { code: 'CPH', name: 'Copenhagen', nameZh: '哥本哈根', countryCode: 'DK', lat: 55.68, lon: 12.57, aliases: ['København'] },
  { code: 'ATH', name: 'Athens', nameZh: '雅典', countryCode: 'GR', lat: 37.98, lon: 23.73, aliases: [] },
  {
    code: 'MOW',
    name: 'Moscow',
    nameZh: '莫斯科',
    countryCode: 'RU',
    lat: 55.76,
    lon: 37.62,
    aliases: [],
    airports: ['SVO', 'DME', 'VKO'],
  },
  { code: 'VVO', name: 'Vladivostok', nameZh: '符拉迪沃斯托克', countryCode: 'RU', lat: 43.12, lon: 131.89, aliases: ['海参崴'] },
  // Oceania
  { code: 'SYD', name: 'Sydney', nameZh: '悉尼', countryCode: 'AU', lat: -33.87, lon: 151.21, aliases: [] },
  { code: 'MEL', name: 'Melbourne', nameZh: '墨尔本', countryCode: 'AU', lat: -37.81, lon: 144.96, aliases: [] },
  { code: 'BNE', name: 'Brisbane', nameZh: '布里斯班', countryCode: 'AU', lat: -27.47, lon: 153.03, aliases: [] },
  { code: 'PER', name: 'Perth', nameZh: '珀斯', countryCode: 'AU', lat: -31.95, lon: 115.86, aliases: [] },
  { code: 'AKL', name: 'Auckland', nameZh: '奥克兰', countryCode: 'NZ', lat: -36.85, lon: 174.76, aliases: [] },
  // North America
  { code: 'LAX', name: 'Los Angeles', nameZh: '洛杉矶', countryCode: 'US', lat: 34.05, lon: -118.24, aliases: [] },
  {
    code: 'NYC',
    name: 'New York',
    nameZh: '纽约',
    countryCode: 'US',
    lat: 40.71,
    lon: -74.01,
    aliases: ['New York City'],
    airports: ['JFK', 'EWR', 'LGA'],
  },
  { code: 'SFO', name: 'San Francisco', nameZh: '旧金山', countryCode: 'US', lat: 37.77, lon: -122.42, aliases: ['SF', '三藩市'] },
  { code: 'SEA', name: 'Seattle', nameZh: '西雅图', countryCode: 'US', lat: 47.61, lon: -122.33, aliases: [] },
  { code: 'CHI', name: 'Chicago', nameZh: '芝加哥', countryCode: 'US', lat: 41.88, lon: -87.63, aliases: [], airports: ['ORD'] },
  { code: 'YVR', name: 'Vancouver', nameZh: '温哥华', countryCode: 'CA', lat: 49.28, lon: -123.12, aliases: [] },
  { code: 'YTO', name: 'Toronto', nameZh: '多伦多', countryCode: 'CA', lat: 43.65, lon: -79.38, aliases: [], airports: ['YYZ'] },
] as const satisfies readonly Destination[]

export type DestinationCode = (typeof DESTINATIONS)[number]['code']

export interface OriginCity {
  /** IATA city code where one exists (SHA, BJS), else the main airport code */
  readonly code: string
  readonly name: string
  readonly nameZh: string
  readonly province: string
  /**
   * 1: the five main international gateways; 2: other large cities with broad international service;
   * 3: cities with a handful of regional international routes.
   */
  readonly tier: 1 | 2 | 3
  readonly lat: number
  readonly lon: number
  readonly aliases: readonly string[]
}

export const ORIGIN_CITIES = [
  // Tier 1: main gateways
  { code: 'SHA', name: 'Shanghai', nameZh: '上海', province: 'Shanghai', tier: 1, lat: 31.23, lon: 121.47, aliases: [] },
  { code: 'BJS', name: 'Beijing', nameZh: '北京', province: 'Beijing', tier: 1, lat: 39.9, lon: 116.4, aliases: ['Peking'] },
  { code: 'CAN', name: 'Guangzhou', nameZh: '广州', province: 'Guangdong', tier: 1, lat: 23.13, lon: 113.26, aliases: ['Canton'] },
  { code: 'SZX', name: 'Shenzhen', nameZh: '深圳', province: 'Guangdong', tier: 1, lat: 22.54, lon: 114.06, aliases: [] },
  { code: 'CTU', name: 'Chengdu', nameZh: '成都', province: 'Sichuan', tier: 1, lat: 30.57, lon: 104.07, aliases: [] },
  // Tier 2
  { code: 'CKG', name: 'Chongqing', nameZh: '重庆', province: 'Chongqing', tier: 2, lat: 29.56, lon: 106.55, aliases: ['Chungking'] },
  { code: 'HGH', name: 'Hangzhou', nameZh: '杭州', province: 'Zhejiang', tier: 2, lat: 30.27, lon: 120.16, aliases: [] },
  { code: 'XIY', name: "Xi'an", nameZh: '西安', province: 'Shaanxi', tier: 2, lat: 34.34, lon: 108.94, aliases: ['Xian'] },
  { code: 'KMG', name: 'Kunming', nameZh: '昆明', province: 'Yunnan', tier: 2, lat: 25.04, lon: 102.71, aliases: [] },
  { code: 'WUH', name: 'Wuhan', nameZh: '武汉', province: 'Hubei', tier: 2, lat: 30.59, lon: 114.31, aliases: [] },
  { code: 'NKG', name: 'Nanjing', nameZh: '南京', province: 'Jiangsu', tier: 2, lat: 32.06, lon: 118.8, aliases: ['Nanking'] },
  { code: 'XMN', name: 'Xiamen', nameZh: '厦门', province: 'Fujian', tier: 2, lat: 24.48, lon: 118.09, aliases: ['Amoy'] },
  { code: 'TAO', name: 'Qingdao', nameZh: '青岛', province: 'Shandong', tier: 2, lat: 36.07, lon: 120.38, aliases: ['Tsingtao'] },
  { code: 'TSN', name: 'Tianjin', nameZh: '天津', province: 'Tianjin', tier: 2, lat: 39.34, lon: 117.36, aliases: [] },
  { code: 'CSX', name: 'Changsha', nameZh: '长沙', province: 'Hunan', tier: 2, lat: 28.23, lon: 112.94, aliases: [] },
  { code: 'SHE', name: 'Shenyang', nameZh: '沈阳', province: 'Liaoning', tier: 2, lat: 41.81, lon: 123.43, aliases: [] },
  { code: 'DLC', name: 'Dalian', nameZh: '大连', province: 'Liaoning', tier: 2, lat: 38.91, lon: 121.61, aliases: [] },
  { code: 'HRB', name: 'Harbin', nameZh: '哈尔滨', province: 'Heilongjiang', tier: 2, lat: 45.8, lon: 126.53, aliases: [] },
  { code: 'CGO', name: 'Zhengzhou', nameZh: '郑州', province: 'Henan', tier: 2, lat: 34.75, lon: 113.63, aliases: [] },
  { code: 'TNA', name: 'Jinan', nameZh: '济南', province: 'Shandong', tier: 2, lat: 36.65, lon: 117.12, aliases: [] },
  { code: 'FOC', name: 'Fuzhou', nameZh: '福州', province: 'Fujian', tier: 2, lat: 26.07, lon: 119.3, aliases: [] },
  { code: 'NNG', name: 'Nanning', nameZh: '南宁', province: 'Guangxi', tier: 2, lat: 22.82, lon: 108.37, aliases: [] },
  { code: 'HAK', name: 'Haikou', nameZh: '海口', province: 'Hainan', tier: 2, lat: 20.04, lon: 110.34, aliases: [] },
  { code: 'URC', name: 'Urumqi', nameZh: '乌鲁木齐', province: 'Xinjiang', tier: 2, lat: 43.83, lon: 87.62, aliases: ['Ürümqi'] },
  { code: 'HFE', name: 'Hefei', nameZh: '合肥', province: 'Anhui', tier: 2, lat: 31.82, lon: 117.23, aliases: [] },
  // Tier 3
  { code: 'KWE', name: 'Guiyang', nameZh: '贵阳', province: 'Guizhou', tier: 3, lat: 26.65, lon: 106.63, aliases: [] },
  { code: 'SYX', name: 'Sanya', nameZh: '三亚', province: 'Hainan', tier: 3, lat: 18.25, lon: 109.51, aliases: [] },
  { code: 'KHN', name: 'Nanchang', nameZh: '南昌', province: 'Jiangxi', tier: 3, lat: 28.68, lon: 115.86, aliases: [] },
  { code: 'TYN', name: 'Taiyuan', nameZh: '太原', province: 'Shanxi', tier: 3, lat: 37.87, lon: 112.55, aliases: [] },
  { code: 'SJW', name: 'Shijiazhuang', nameZh: '石家庄', province: 'Hebei', tier: 3, lat: 38.04, lon: 114.51, aliases: [] },
  { code: 'CGQ', name: 'Changchun', nameZh: '长春', province: 'Jilin', tier: 3, lat: 43.82, lon: 125.32, aliases: [] },
  { code: 'NGB', name: 'Ningbo', nameZh: '宁波', province: 'Zhejiang', tier: 3, lat: 29.87, lon: 121.54, aliases: [] },
  { code: 'WNZ', name: 'Wenzhou', nameZh: '温州', province: 'Zhejiang', tier: 3, lat: 28.0, lon: 120.67, aliases: [] },
  { code: 'LHW', name: 'Lanzhou', nameZh: '兰州', province: 'Gansu', tier: 3, lat: 36.06, lon: 103.83, aliases: [] },
  { code: 'HET', name: 'Hohhot', nameZh: '呼和浩特', province: 'Inner Mongolia', tier: 3, lat: 40.84, lon: 111.75, aliases: ['Huhhot'] },
  { code: 'YNT', name: 'Yantai', nameZh: '烟台', province: 'Shandong', tier: 3, lat: 37.46, lon: 121.45, aliases: [] },
  { code: 'WUX', name: 'Wuxi', nameZh: '无锡', province: 'Jiangsu', tier: 3, lat: 31.49, lon: 120.31, aliases: [] },
  { code: 'JJN', name: 'Quanzhou', nameZh: '泉州', province: 'Fujian', tier: 3, lat: 24.87, lon: 118.68, aliases: ['Jinjiang'] },
  { code: 'ZUH', name: 'Zhuhai', nameZh: '珠海', province: 'Guangdong', tier: 3, lat: 22.27, lon: 113.58, aliases: [] },
  { code: 'INC', name: 'Yinchuan', nameZh: '银川', province: 'Ningxia', tier: 3, lat: 38.49, lon: 106.23, aliases: [] },
  { code: 'XNN', name: 'Xining', nameZh: '西宁', province: 'Qinghai', tier: 3, lat: 36.62, lon: 101.78, aliases: [] },
  { code: 'LXA', name: 'Lhasa', nameZh: '拉萨', province: 'Tibet', tier: 3, lat: 29.65, lon: 91.14, aliases: [] },
  { code: 'KWL', name: 'Guilin', nameZh: '桂林', province: 'Guangxi', tier: 3, lat: 25.27, lon: 110.29, aliases: [] },
  // Jieyang Chaoshan Airport serves Shantou.
  {
    code: 'SWA',
    name: 'Shantou',
    nameZh: '汕头',
    province: 'Guangdong',
    tier: 3,
    lat: 23.35,
    lon: 116.68,
    aliases: ['Chaoshan', 'Jieyang'],
  },
  { code: 'WEH', name: 'Weihai', nameZh: '威海', province: 'Shandong', tier: 3, lat: 37.51, lon: 122.12, aliases: [] },
  { code: 'YNJ', name: 'Yanji', nameZh: '延吉', province: 'Jilin', tier: 3, lat: 42.89, lon: 129.51, aliases: [] },
  { code: 'JHG', name: 'Xishuangbanna', nameZh: '西双版纳', province: 'Yunnan', tier: 3, lat: 22.01, lon: 100.8, aliases: ['Jinghong'] },
  { code: 'CZX', name: 'Changzhou', nameZh: '常州', province: 'Jiangsu', tier: 3, lat: 31.81, lon: 119.97, aliases: [] },
] as const satisfies readonly OriginCity[]

export type OriginCode = (typeof ORIGIN_CITIES)[number]['code']
