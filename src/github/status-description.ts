// A Deployment status's description as GitHub takes it: "The maximum description length is 140 characters" (its REST
// reference). Characters, not UTF-16 units: a cut by units could leave half of an emoji, which is no text at all.

export const STATUS_DESCRIPTION_LIMIT = 140

/** `text` cut to at most 140 characters, never inside one. */
export function statusDescription(text: string): string {
  const characters = [...text]
  return characters.length <= STATUS_DESCRIPTION_LIMIT ? text : characters.slice(0, STATUS_DESCRIPTION_LIMIT).join('')
}
