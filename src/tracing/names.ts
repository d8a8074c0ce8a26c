// A phase's span name: the log group's title names ids and environments ("Wait until 'production' runs 6f1c…"), which
// a trace viewer would list as that many operations. The span is named by the kind of phase; the title stays as
// the brcloud.phase attribute.

/** Each phase's title as it begins (src/deploy, src/search-check.ts), and its span's name. */
const NAMES: ReadonlyArray<readonly [string, string]> = [
  ['Build: ', 'build'],
  ['Prepare the distribution', 'prepare distribution'],
  ['Log in to ', 'login'],
  ['Find the config files', 'find config files'],
  ['Find environment ', 'find environment'],
  ['Find what ', 'find running distribution'],
  ['Check distribution ', 'check distribution'],
  ['Check the deploy order', 'check deploy order'],
  ['Check the soak gate', 'check soak gate'],
  ['Check the backups', 'check backups'],
  ['Look for an identical distribution', 'find identical distribution'],
  ['Prune old distributions', 'prune'],
  ['Upload the distribution', 'upload'],
  ['Deploy to ', 'deploy'],
  ['Wait until ', 'follow deploy'],
  ['Health check ', 'health check'],
  ['Roll back ', 'rollback'],
  ['Search check', 'search check']
]

/** The span name of a phase with this title; a title the table does not know keeps its first word ("phase" when it has none). */
export function spanNameOf(title: string): string {
  const known = NAMES.find(([prefix]) => title.startsWith(prefix))
  if (known !== undefined) return known[1]
  return title.split(/[\s:]/)[0]?.toLowerCase() || 'phase'
}

/** Every span name a phase may get: for the docs and the tests. */
export const PHASE_SPAN_NAMES: readonly string[] = NAMES.map(([, name]) => name)
