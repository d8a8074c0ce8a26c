// What the search service accepts: its hosts, the fields a request may name and its limits. Facts
// about the service, shared by the search inputs (src/inputs/search.ts) and the runtime.

export type SearchEnvironment = 'production' | 'staging'

export const SEARCH_HOSTS: Record<SearchEnvironment, string> = {
  production: 'https://core.dxpapi.com',
  staging: 'https://staging-core.dxpapi.com'
}

/** The product fields the service lets a request name in `fl`. */
export const REQUESTABLE_FIELDS = [
  'pid',
  'title',
  'brand',
  'price',
  'sale_price',
  'thumb_image',
  'url',
  'description',
  'colors',
  'sizes',
  'price_range',
  'sale_price_range'
] as const

export const SEARCH_LIMITS = {
  maxRows: 200,
  /** The service asks clients for a timeout of at least 2 seconds. */
  minTimeoutSeconds: 2,
  maxTimeoutSeconds: 120,
  /** The longest search-wait-seconds accepted. */
  maxWaitSeconds: 3600
}
