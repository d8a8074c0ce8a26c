// The release workflow's two decisions (.github/workflows/release.yml, docs/releasing.md), kept here so a test can
// run them instead of reading shell:
//   tsx scripts/release.ts notes vX.Y.Z       the notes of that version: its CHANGELOG section, printed; exits 1
//                                             when the tag is not vX.Y.Z, package.json says another version, or the
//                                             CHANGELOG has no section for it (nothing is released then)
//   git tag --list 'v*' | tsx scripts/release.ts major vX.Y.Z
//                                             the major tag to move (v1), printed; nothing when a newer release of
//                                             that major exists already (a fix of an older line never moves v1 back)
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

const RELEASE_TAG = /^v(\d+)\.(\d+)\.(\d+)$/

export interface Version {
  major: number
  minor: number
  patch: number
}

/** The version a release tag names, or undefined when it is not `vX.Y.Z` (a major tag, a pre-release, anything else). */
export function releaseVersion(tag: string): Version | undefined {
  const m = RELEASE_TAG.exec(tag.trim())
  return m ? { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) } : undefined
}

const text = (v: Version): string => `${v.major}.${v.minor}.${v.patch}`

/** The body of the CHANGELOG's `## [X.Y.Z]` section (its heading may carry a date), or undefined. */
export function changelogSection(changelog: string, version: string): string | undefined {
  const lines = changelog.split('\n')
  const start = lines.findIndex((l) => l.startsWith(`## [${version}]`))
  if (start < 0) return undefined
  const end = lines.findIndex((l, i) => i > start && l.startsWith('## '))
  // Keep a Changelog's link definitions at the end ([1.0.0]: https://...) are not part of any section's notes.
  const body = lines.slice(start + 1, end < 0 ? undefined : end).filter((l) => !/^\[[^\]]+\]: \S+$/.test(l))
  const notes = body.join('\n').trim()
  return notes === '' ? undefined : notes
}

/** The release notes of `tag`, or the reason there can be no release of it. */
export function releaseNotes(tag: string, packageVersion: string, changelog: string): { notes: string } | { refused: string } {
  const version = releaseVersion(tag)
  if (version === undefined) return { refused: `${tag} is not a release tag: releases are tagged vX.Y.Z (v1.4.0)` }
  if (packageVersion !== text(version)) {
    return { refused: `${tag} names ${text(version)}, but package.json says ${packageVersion}: set "version" to ${text(version)}, commit, and tag that commit` }
  }
  const notes = changelogSection(changelog, text(version))
  if (notes === undefined) {
    return { refused: `CHANGELOG.md has no "## [${text(version)}]" section with notes: rename [Unreleased] to [${text(version)}] - <date> before tagging` }
  }
  return { notes }
}

/** `vN` when `tag` is the newest release of major N among `tags`, else undefined. */
export function majorTagToMove(tag: string, tags: readonly string[]): string | undefined {
  const version = releaseVersion(tag)
  if (version === undefined) return undefined
  const newer = tags
    .map(releaseVersion)
    .some((v) => v !== undefined && v.major === version.major && (v.minor > version.minor || (v.minor === version.minor && v.patch > version.patch)))
  return newer ? undefined : `v${version.major}`
}

function main(argv: string[]): number {
  const [command, tag = ''] = argv
  if (command === 'notes') {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
    const result = releaseNotes(tag, pkg.version, readFileSync(join(root, 'CHANGELOG.md'), 'utf8'))
    if ('refused' in result) {
      console.error(`error: ${result.refused}`)
      return 1
    }
    console.log(result.notes)
    return 0
  }
  if (command === 'major') {
    const tags = readFileSync(0, 'utf8').split('\n').filter(Boolean)
    const major = majorTagToMove(tag, tags)
    if (major !== undefined) console.log(major)
    else console.error(`${tag}: a newer release of its major version exists; the major tag stays where it is`)
    return 0
  }
  console.error('usage: tsx scripts/release.ts notes vX.Y.Z | major vX.Y.Z (the tags on stdin)')
  return 2
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main(process.argv.slice(2))
