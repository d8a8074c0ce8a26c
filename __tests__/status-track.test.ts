// A tracked tag pattern (src/status/track.ts): which names a pattern matches, and which of them is the newest, by the
// names' version order (docs/status.md, "Tracking a tag pattern").
import { compareTagNames, isTagPattern, newestTag, tagMatcher } from '../src/status/track.js'

const sorted = (names: string[]): string[] => [...names].sort(compareTagNames)

test('version order: numbers as numbers, a pre-release before its release, longer after shorter', () => {
  expect(sorted(['v1.10.0', 'v1.9.2', 'v2.0.0', 'v2.0.0-rc.1', 'v1.9.10', 'v2.0.0-rc.2', 'v1.9'])).toEqual([
    'v1.9',
    'v1.9.2',
    'v1.9.10',
    'v1.10.0',
    'v2.0.0-rc.1',
    'v2.0.0-rc.2',
    'v2.0.0'
  ])
  expect(sorted(['release-2025-10-01', 'release-2025-9-30', 'release-2026-01-02'])).toEqual(['release-2025-9-30', 'release-2025-10-01', 'release-2026-01-02'])
  expect(compareTagNames('v1.0.0', 'v1.0.0')).toBe(0)
})

test('a pattern: * any run, ? one character, tags/ or refs/tags/ before it; other characters as they are', () => {
  expect(['v*', 'tags/v*', 'refs/tags/release-?', 'main', 'release/2'].map(isTagPattern)).toEqual([true, true, true, false, false])
  expect(tagMatcher('tags/v1.*').test('v1.2.3')).toBe(true)
  expect(tagMatcher('tags/v1.*').test('v10.2')).toBe(false)
  expect(tagMatcher('refs/tags/rc?').test('rc1')).toBe(true)
  expect(tagMatcher('rc?').test('rc12')).toBe(false)
  // A dot is a dot, not any character.
  expect(tagMatcher('v1.*').test('v1x2')).toBe(false)
})

test('the newest tag matching, whatever order GitHub listed them in; none when nothing matches', () => {
  const tags = [
    { name: 'v1.9.2', sha: 'a' },
    { name: 'nightly-7', sha: 'n' },
    { name: 'v1.10.0', sha: 'b' },
    { name: 'v2.0.0-rc.1', sha: 'c' },
    { name: 'v1.9.3', sha: 'd' }
  ]
  expect(newestTag(tags, 'v*')).toEqual({ name: 'v2.0.0-rc.1', sha: 'c' })
  expect(newestTag(tags, 'v1.*')).toEqual({ name: 'v1.10.0', sha: 'b' })
  expect(newestTag(tags, 'tags/release-*')).toBeUndefined()
})
