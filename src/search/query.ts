// The search term `q`, checked and rewritten the way the search service treats it, before any request.
// Every rule here is a row of the service's table of special characters and limits.
import { InputError } from '../errors.js'

export type SearchType = 'keyword' | 'category'

/** The service refuses a q longer than this many characters. */
export const MAX_QUERY_CHARS = 300
/** The service refuses a q of more than this many words. */
export const MAX_QUERY_WORDS = 30

export interface NormalizedQuery {
  /** What is sent as `q`. */
  q: string
  /** Things the user should know (printed as warnings), e.g. a rewrite or the latency of `*`. */
  warnings: string[]
}

const INPUT = 'search-query'
/** `*`, `?` and `~` are not wildcard or fuzzy operators for this service: it replaces them by spaces. */
const SPECIAL = /[*?~]/g

function chars(text: string): number {
  return [...text].length
}

function words(text: string): number {
  return text.split(/\s+/).filter((w) => w !== '').length
}

function checkLimits(text: string, original: string): void {
  const n = chars(text)
  if (n > MAX_QUERY_CHARS) {
    throw new InputError(
      `${INPUT} is ${n} characters long; the search service refuses a q over ${MAX_QUERY_CHARS} characters. ` +
        `Use a shorter keyword: a smoke check needs one or two words that your catalog surely matches.`
    )
  }
  const w = words(text)
  if (w > MAX_QUERY_WORDS) {
    throw new InputError(
      `${INPUT} has ${w} words${text === original ? '' : ' once rewritten'}; the search service refuses a q of more than ` +
        `${MAX_QUERY_WORDS} words. Use one or two words that your catalog surely matches.`
    )
  }
}

/**
 * Checks `q` and returns what to send. Throws an InputError for a value the service refuses
 * (empty, `?` or `~` alone, over the limits, a category id with non-ASCII letters).
 *
 * Rewrites as the service does: a leading `*` is dropped (`*shirt` -> `shirt`), and `*`, `?` and `~`
 * between terms become spaces (`red*shirt` -> `red shirt`). `*` alone (everything) and `.` alone pass.
 */
export function normalizeQuery(value: string, type: SearchType): NormalizedQuery {
  const original = value.trim()
  const warnings: string[] = []
  if (original === '') {
    throw new InputError(`${INPUT} is empty; the search service answers an empty q with HTTP 400. Set a keyword (or a category id with search-type: category).`)
  }
  const control = /\p{Cc}/u.exec(original)
  if (control) {
    const code = control[0].codePointAt(0)?.toString(16).padStart(4, '0') ?? ''
    throw new InputError(`${INPUT} contains a control character (U+${code}); write the query on one line, as plain text.`)
  }
  if (type === 'category') {
    const letter = [...original].find((ch) => (ch.codePointAt(0) ?? 0) > 0x7f && /\p{L}/u.test(ch))
    if (letter !== undefined) {
      throw new InputError(
        `${INPUT} '${original}' is a category id with the non-ASCII letter '${letter}'; the search service does not support ` +
          `such category ids. Use the category's id from your catalog feed (ids are ASCII), not its display name.`
      )
    }
  }
  if (original === '?' || original === '~') {
    throw new InputError(`${INPUT} '${original}' alone is not allowed by the search service. Set a keyword, or * to match everything.`)
  }
  checkLimits(original, original)
  if (original === '*') {
    warnings.push(
      `${INPUT} '*' matches the whole catalog: its latency depends on catalog size and is outside the service's latency ` +
        `service level, so the latency measured here says little. Prefer a keyword your catalog surely matches.`
    )
    return { q: original, warnings }
  }
  if (original === '.' || !/[*?~]/.test(original)) return { q: original, warnings }

  const q = original.replace(SPECIAL, ' ').replace(/\s+/g, ' ').trim()
  if (q === '') {
    throw new InputError(
      `${INPUT} '${original}' has nothing left to search for: the service treats *, ? and ~ as word separators. ` +
        `Set a keyword, or * alone to match everything.`
    )
  }
  checkLimits(q, original)
  warnings.push(
    `${INPUT} '${original}' is sent as '${q}': the search service has no wildcard or fuzzy operators and treats ` +
      `*, ? and ~ as word separators (a leading * is dropped).`
  )
  return { q, warnings }
}
