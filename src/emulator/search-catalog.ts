// The emulator's built-in product catalog for the search API: a dozen products with all twelve
// requestable fields, in a few categories, and one keyword redirect.

export interface CatalogCategory {
  id: string
  name: string
  /** Parent category id, or '' for a top-level category. */
  parent: string
}

export interface CatalogProduct {
  pid: string
  title: string
  brand: string
  price: number
  sale_price: number
  thumb_image: string
  url: string
  description: string
  colors: string[]
  sizes: string[]
  price_range: number[]
  sale_price_range: number[]
  /** Category ids (the deepest ones; parents are implied). Not a requestable field. */
  categories: string[]
}

export const CATEGORIES: CatalogCategory[] = [
  { id: 'apparel', name: 'Apparel', parent: '' },
  { id: 'shirts', name: 'Shirts', parent: 'apparel' },
  { id: 'trousers', name: 'Trousers', parent: 'apparel' },
  { id: 'shoes', name: 'Shoes', parent: '' },
  { id: 'accessories', name: 'Accessories', parent: '' },
  /** A category with no products. */
  { id: 'gift-cards', name: 'Gift cards', parent: '' }
]

/** Keywords the emulated merchandiser redirects to a page (answered with numFound 0). */
export const KEYWORD_REDIRECTS: Record<string, string> = {
  returns: 'https://www.example.com/customer-service/returns'
}

function product(
  pid: string,
  title: string,
  brand: string,
  price: number,
  salePrice: number,
  colors: string[],
  sizes: string[],
  categories: string[],
  description: string
): CatalogProduct {
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-')
  return {
    pid,
    title,
    brand,
    price,
    sale_price: salePrice,
    thumb_image: `https://images.example.com/${pid}.jpg`,
    url: `https://www.example.com/products/${slug}/${pid}`,
    description,
    colors,
    sizes,
    price_range: [price, price],
    sale_price_range: [salePrice, salePrice],
    categories
  }
}

export const PRODUCTS: CatalogProduct[] = [
  product(
    'P1001',
    'Oxford Shirt',
    'Northwind',
    59.95,
    49.95,
    ['white', 'blue'],
    ['S', 'M', 'L', 'XL'],
    ['shirts'],
    'Classic cotton oxford shirt with a button-down collar.'
  ),
  product('P1002', 'Linen Shirt', 'Northwind', 69.95, 69.95, ['white', 'sand'], ['M', 'L'], ['shirts'], 'Light linen shirt for warm days.'),
  product('P1003', 'Flannel Shirt', 'Timberline', 54.5, 39.0, ['red', 'green'], ['S', 'M', 'L'], ['shirts'], 'Brushed flannel shirt in a tartan check.'),
  product('P1004', 'Polo Shirt', 'Courtside', 39.0, 29.0, ['navy', 'white', 'red'], ['S', 'M', 'L', 'XL'], ['shirts'], 'Pique cotton polo shirt.'),
  product(
    'P2001',
    'Slim Chino Trousers',
    'Northwind',
    79.0,
    79.0,
    ['khaki', 'navy'],
    ['30', '32', '34'],
    ['trousers'],
    'Slim-fit chino trousers in stretch cotton.'
  ),
  product('P2002', 'Wool Trousers', 'Savile', 149.0, 119.0, ['grey', 'charcoal'], ['32', '34', '36'], ['trousers'], 'Tailored trousers in fine wool.'),
  product('P2003', 'Denim Jeans', 'Timberline', 89.0, 69.0, ['blue', 'black'], ['30', '32', '34', '36'], ['trousers'], 'Straight-leg denim jeans.'),
  product('P3001', 'Leather Sneakers', 'Courtside', 119.0, 99.0, ['white'], ['41', '42', '43', '44'], ['shoes'], 'Low-top sneakers in smooth leather.'),
  product(
    'P3002',
    'Running Shoes',
    'Stride',
    139.0,
    139.0,
    ['black', 'red'],
    ['40', '41', '42', '43', '44', '45'],
    ['shoes'],
    'Cushioned running shoes for long distances.'
  ),
  product('P3003', 'Suede Boots', 'Timberline', 219.0, 179.0, ['brown'], ['41', '42', '43'], ['shoes'], 'Ankle boots in water-repellent suede.'),
  product(
    'P4001',
    'Leather Belt',
    'Savile',
    49.0,
    49.0,
    ['brown', 'black'],
    ['90', '100', '110'],
    ['accessories'],
    'Full-grain leather belt with a brass buckle.'
  ),
  product('P4002', 'Wool Scarf', 'Northwind', 45.0, 35.0, ['grey', 'red', 'navy'], ['one size'], ['accessories'], 'Soft merino wool scarf.')
]

export function categoryById(id: string): CatalogCategory | undefined {
  return CATEGORIES.find((c) => c.id === id)
}

/** The category and its ancestors, top first. */
export function categoryPath(id: string): CatalogCategory[] {
  const path: CatalogCategory[] = []
  for (let c = categoryById(id); c !== undefined && !path.includes(c); c = c.parent ? categoryById(c.parent) : undefined) path.unshift(c)
  return path
}

/** The product is in the category or in one of its sub-categories. */
export function inCategory(p: CatalogProduct, id: string): boolean {
  return p.categories.some((c) => categoryPath(c).some((a) => a.id === id))
}

/**
 * An item of a content catalog (articles, guides). Content search asks for `item_id` (the official SDK's
 * default fl); which other fields a content catalog holds is the customer's choice, not public.
 */
export interface ContentItem {
  item_id: string
  title: string
  description: string
  url: string
}

function content(itemId: string, title: string, description: string): ContentItem {
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-')
  return { item_id: itemId, title, description, url: `https://www.example.com/content/${slug}` }
}

/** The one content catalog: any `catalog_name` other than the product catalog's (the domain key) searches it. */
export const CONTENT_ITEMS: ContentItem[] = [
  content('C100', 'How to iron a shirt', 'Collars, cuffs and sleeves without creases, step by step.'),
  content('C101', 'Choosing a shirt collar', 'Button-down, spread or cutaway: which collar suits which occasion.'),
  content('C102', 'Caring for leather shoes', 'Cleaning, conditioning and storing leather sneakers and boots.'),
  content('C103', 'Size guide for trousers', 'How to measure waist and inside leg before you order.'),
  content('C104', 'Returns and exchanges', 'How to send an order back within 30 days.')
]
