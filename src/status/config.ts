// The status report's configuration file (docs/status.md): which stacks to read, which of their environments, the
// ref they should run, and where each stack's login comes from. Read and checked in full before any request: a
// mistake is an InputError that names where it is (the CLI's exit 2). Secrets never stand in the file, only the
// names of the variables that hold them (./credentials.ts reads those).
import { LineCounter, parseDocument } from 'yaml'
import { InputError } from '../errors.js'
import { parsePageUrl, resolveCloudAddress, type CloudAddress } from '../inputs/address.js'
import { parseFreezeWindows, type FreezeWindow } from '../rules/freeze.js'
import { registerSecret } from '../secrets.js'
import { isTagPattern, TAG_PATTERN_CHARS } from './track.js'

/** Where a stack's login comes from: the variables that hold its credentials, and the token endpoint's plain settings. */
export interface LoginSource {
  /** Variable names by credential; a stack without `login:` reads the defaults (DEFAULT_LOGIN_VARIABLES). */
  readonly variables: Readonly<Partial<Record<LoginVariable, string>>>
  readonly tokenUrl?: string | undefined
  readonly clientId?: string | undefined
  readonly audience?: string | undefined
  readonly scope?: string | undefined
  /** False when the file gave `login:`: then only the variables it names are read. */
  readonly defaults: boolean
}

export type LoginVariable = 'username' | 'password' | 'access-token' | 'client-secret'

export const LOGIN_VARIABLES: readonly LoginVariable[] = ['username', 'password', 'access-token', 'client-secret']
/** The credentials that are secrets: a value written where their variable's name belongs is masked at once. */
export const SECRET_CREDENTIALS: readonly LoginVariable[] = ['password', 'access-token', 'client-secret']

/**
 * A name as environment variables are conventionally written (upper case): safe to repeat in a message. A name with
 * lower-case letters is a variable's name too, but may be the credential itself written in its place.
 */
export function readsAsVariableName(name: string): boolean {
  return /^[A-Z_][A-Z0-9_]*$/.test(name)
}

/**
 * The variables a stack without `login:` is logged in with: the brcloud command's own names for these inputs. No
 * client secret: it needs a token-url, which only a `login:` gives.
 */
export const DEFAULT_LOGIN_VARIABLES: Readonly<Partial<Record<LoginVariable, string>>> = {
  username: 'BRCLOUD_USERNAME',
  password: 'BRCLOUD_PASSWORD',
  'access-token': 'BRCLOUD_ACCESS_TOKEN'
}

/** A page of an environment's site to GET (docs/status.md, "Health"): 2xx, and with `expect` that text in it. */
export interface HealthProbe {
  readonly url: string
  readonly expect: string | undefined
}

/** What one environment sets for itself, over its stack's. */
export interface EnvironmentSettings {
  readonly track?: string | undefined
  /** Where its track was written (`fleet.yml: stacks[0] (eu).environments[1].track`), for messages. */
  readonly trackFrom?: string | undefined
  readonly health?: HealthProbe | undefined
  /** Its own deploy-freeze windows (an empty list lifts its stack's); undefined when it writes none. */
  readonly freeze?: readonly FreezeWindow[] | undefined
}

export interface StackConfig {
  readonly name: string
  readonly address: CloudAddress
  /** The environments to report, in this order; undefined: every environment the stack lists. */
  readonly environments: readonly string[] | undefined
  /** The ref its environments should run: the stack's own `track:`, else the file's (an environment's own wins: trackOf). */
  readonly track: string | undefined
  /** Where that track was written (`fleet.yml: track`, `fleet.yml: stacks[0] (eu).track`, `--track`), for messages. */
  readonly trackFrom?: string | undefined
  readonly login: LoginSource
  /** Each environment's own settings, by name (the mapping form of an `environments:` entry). */
  readonly settings?: ReadonlyMap<string, EnvironmentSettings> | undefined
  /** The stack's health probe, its url with `{environment}` for each environment's name (an environment's own wins: healthOf). */
  readonly health?: HealthProbe | undefined
  /** Its deploy-freeze windows: the stack's own, else the file's (an environment's own wins: freezeOf). */
  readonly freeze?: readonly FreezeWindow[] | undefined
}

/** The deploy-freeze windows of `environment`: its own, else its stack's, else the file's (the nearest wins); none: []. */
export function freezeOf(stack: StackConfig, environment: string | null): readonly FreezeWindow[] {
  return (environment === null ? undefined : stack.settings?.get(environment)?.freeze) ?? stack.freeze ?? []
}

/** The ref `environment` should run: its own track, else its stack's, else the file's (the nearest wins). */
export function trackOf(stack: StackConfig, environment: string | null): string | undefined {
  return (environment === null ? undefined : stack.settings?.get(environment)?.track) ?? stack.track
}

/** Where the track `environment` reads (trackOf) was written: a place in the file, or the input or flag that gave it. */
export function trackOrigin(stack: StackConfig, environment: string | null): string {
  const own = environment === null ? undefined : stack.settings?.get(environment)
  return (own?.track !== undefined ? own.trackFrom : stack.trackFrom) ?? 'track'
}

/** The page that tells whether `environment` is healthy: its own, else its stack's with its name filled in; undefined: not checked. */
export function healthOf(stack: StackConfig, environment: string | null): HealthProbe | undefined {
  if (environment === null) return undefined
  const own = stack.settings?.get(environment)?.health
  if (own !== undefined) return own
  const probe = stack.health
  return probe === undefined ? undefined : { ...probe, url: probe.url.replaceAll(ENVIRONMENT_PLACEHOLDER, encodeURIComponent(environment)) }
}

/** In a stack's health-url, the place of each environment's name. */
export const ENVIRONMENT_PLACEHOLDER = '{environment}'

export interface StatusConfig {
  readonly stacks: readonly StackConfig[]
  /** The code lives on GitLab (`gitlab:` beside `track:`): the project, the instance, the variable of its token. */
  readonly gitlab?: GitLabFileSettings | undefined
}

/** `gitlab:` of the file: a project path (or id) alone, or a mapping (docs/gitlab.md). */
export interface GitLabFileSettings {
  readonly project: string | undefined
  readonly url: string | undefined
  /** The variable that holds the token (default BRCLOUD_GITLAB_TOKEN): a token never stands in the file. */
  readonly tokenVariable: string | undefined
}

const GITLAB_KEYS = ['project', 'url', 'token-variable'] as const

const TOP_KEYS = ['track', 'deploy-freeze', 'gitlab', 'stacks'] as const
const STACK_KEYS = [
  'name',
  'stack',
  'console-url',
  'api-url',
  'platform-domain',
  'environments',
  'track',
  'health-url',
  'health-expect',
  'deploy-freeze',
  'login'
] as const
const ENVIRONMENT_KEYS = ['name', 'track', 'health-url', 'health-expect', 'deploy-freeze'] as const
const LOGIN_KEYS = [
  'username-variable',
  'password-variable',
  'access-token-variable',
  'client-secret-variable',
  'token-url',
  'client-id',
  'audience',
  'scope'
] as const
const ADDRESS_KEYS = ['stack', 'console-url', 'api-url'] as const

/** A variable's name as a shell writes it. */
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/
/** A git ref as a branch or tag is named: no blanks, no `..`, no control characters. */
const REF = /^(?!.*\.\.)[^\s~^:?*[\\\p{Cc}]+$/u

/** Reads the file's text (`file` names it in messages); throws an InputError that says where and what to fix. */
export function parseStatusConfig(text: string, file: string): StatusConfig {
  const lines = new LineCounter()
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false, lineCounter: lines })
  const error = doc.errors[0]
  if (error !== undefined) {
    const at = lines.linePos(error.pos[0])
    throw new InputError(`${file}:${at.line}:${at.col} is not valid YAML: ${error.message.replace(/\.$/, '')}.`)
  }
  const top = mapping(doc.toJS(), file, 'The file')
  knownKeys(top, TOP_KEYS, file, 'The file')
  const track = optionalRef(top.track, file, 'track')
  if (!Array.isArray(top.stacks) || top.stacks.length === 0)
    throw new InputError(`${file}: stacks must be a list of at least one stack, each with a name and one of stack, console-url or api-url.`)
  const fileTrack = track === undefined ? undefined : { track, from: `${file}: track` }
  const fileFreeze = freezeWindows(top, file, 'deploy-freeze')
  const stacks = top.stacks.map((raw: unknown, i: number) => readStack(raw, file, `stacks[${i}]`, fileTrack, fileFreeze))
  const seen = new Set<string>()
  for (const s of stacks) {
    if (seen.has(s.name)) throw new InputError(`${file}: two stacks are named '${s.name}': each name must be unique (it names the rows of the report).`)
    seen.add(s.name)
  }
  const gitlab = gitLabSettings(top.gitlab, file)
  return gitlab === undefined ? { stacks } : { stacks, gitlab }
}

/** `gitlab: group/project`, or `gitlab: {project, url, token-variable}`; undefined without the key. */
function gitLabSettings(raw: unknown, file: string): GitLabFileSettings | undefined {
  if (raw === undefined || raw === null) return undefined
  if (typeof raw === 'string' || typeof raw === 'number') return { project: text(String(raw), file, 'gitlab'), url: undefined, tokenVariable: undefined }
  const r = mapping(raw, file, 'gitlab')
  knownKeys(r, GITLAB_KEYS, file, 'gitlab')
  const tokenVariable = text(r['token-variable'], file, 'gitlab.token-variable')
  if (tokenVariable !== undefined && !VARIABLE.test(tokenVariable)) {
    registerSecret(tokenVariable)
    throw new InputError(`${file}: gitlab.token-variable must name the variable that holds the token (e.g. GITLAB_TOKEN), not the token itself.`)
  }
  const project = typeof r.project === 'number' ? String(r.project) : text(r.project, file, 'gitlab.project')
  return { project, url: text(r.url, file, 'gitlab.url'), tokenVariable }
}

function readStack(
  raw: unknown,
  file: string,
  where: string,
  fileTrack: { track: string; from: string } | undefined,
  fileFreeze: readonly FreezeWindow[] | undefined
): StackConfig {
  const r = mapping(raw, file, where)
  const name = text(r.name, file, `${where}.name`)
  if (name === undefined) throw new InputError(`${file}: ${where} has no name: give each stack a name, which names its rows in the report.`)
  const at = `${where} (${name})`
  knownKeys(r, STACK_KEYS, file, at)
  const given = ADDRESS_KEYS.filter((k) => r[k] !== undefined && r[k] !== null)
  if (given.length !== 1)
    throw new InputError(`${file}: ${at} must have exactly one of stack, console-url or api-url (it has ${given.length === 0 ? 'none' : given.join(' and ')}).`)
  if (r['platform-domain'] !== undefined && given[0] !== 'stack') throw new InputError(`${file}: ${at}: platform-domain goes with stack only.`)
  let address: CloudAddress
  try {
    // The action's own rules: one reading of which host gets the password.
    address = resolveCloudAddress({
      stack: text(r.stack, file, `${at}.stack`) ?? '',
      consoleUrl: text(r['console-url'], file, `${at}.console-url`) ?? '',
      apiUrl: text(r['api-url'], file, `${at}.api-url`) ?? '',
      platformDomain: text(r['platform-domain'], file, `${at}.platform-domain`) ?? ''
    })
  } catch (error) {
    throw new InputError(`${file}: ${at}: ${(error as Error).message}`)
  }
  const listed = environmentsOf(r.environments, file, at)
  const health = healthProbe(r['health-url'], r['health-expect'], file, at)
  if (health !== undefined) checkStackHealthUrl(health.url, listed?.names, `${file}: ${at}.health-url`)
  const own = optionalRef(r.track, file, `${at}.track`)
  return {
    name,
    address,
    environments: listed?.names,
    track: own ?? fileTrack?.track,
    trackFrom: own !== undefined ? `${file}: ${at}.track` : fileTrack?.from,
    login: loginOf(r.login, file, at),
    settings: listed?.settings,
    health,
    freeze: freezeWindows(r, file, `${at}.deploy-freeze`) ?? fileFreeze
  }
}

/** A stack-wide health-url names each environment's page: `{environment}` in it, unless the stack reports one environment. */
export function checkStackHealthUrl(url: string, environments: readonly string[] | undefined, where: string): void {
  if (url.includes(ENVIRONMENT_PLACEHOLDER) || environments?.length === 1) return
  throw new InputError(
    `${where} '${url}' would check one page for every environment: put ${ENVIRONMENT_PLACEHOLDER} where each environment's name goes ` +
      `(e.g. https://${ENVIRONMENT_PLACEHOLDER}.example.com/version.txt), or give each environment its own health-url.`
  )
}

/**
 * A health-url (`{environment}` allowed in it) and health-expect, checked by the deploy action's rules for its own;
 * undefined without a url. `at` starts each message with where they were given ('' for inputs).
 */
export function parseHealthProbe(url: string, expect: string, at: string): HealthProbe | undefined {
  if (url === '') {
    if (expect !== '') throw new InputError(`${at}health-expect is set but health-url is empty: set health-url to the page that must contain it.`)
    return undefined
  }
  try {
    // The placeholder stands for a name: the address is checked with one in its place.
    parsePageUrl(url.replaceAll(ENVIRONMENT_PLACEHOLDER, 'environment'), {
      input: 'health-url',
      example: 'https://www.example.com/version.txt',
      credentialsHint: 'The probe sends no credentials: point it at a public page.'
    })
  } catch (error) {
    throw error instanceof InputError ? new InputError(`${at}${error.message}`) : error
  }
  return { url, expect: expect === '' ? undefined : expect }
}

function healthProbe(rawUrl: unknown, rawExpect: unknown, file: string, at: string): HealthProbe | undefined {
  return parseHealthProbe(text(rawUrl, file, `${at}.health-url`) ?? '', text(rawExpect, file, `${at}.health-expect`) ?? '', `${file}: ${at}: `)
}

/** The `environments:` list: names, or mappings of a name and its own track and health probe. */
function environmentsOf(raw: unknown, file: string, at: string): { names: string[]; settings: Map<string, EnvironmentSettings> } | undefined {
  if (raw === undefined || raw === null) return undefined
  const entries = Array.isArray(raw) ? raw : undefined
  if (entries === undefined || entries.length === 0)
    throw new InputError(
      `${file}: ${at}.environments must be a list of environment names, or of mappings with a name (leave it out to report every environment of the stack).`
    )
  const names: string[] = []
  const settings = new Map<string, EnvironmentSettings>()
  entries.forEach((entry: unknown, i: number) => {
    const where = `${at}.environments[${i}]`
    if (typeof entry === 'string') {
      if (entry.trim() === '') throw new InputError(`${file}: ${where} is empty: name an environment.`)
      names.push(entry.trim())
      return
    }
    const r = mapping(entry, file, where)
    const name = text(r.name, file, `${where}.name`)
    if (name === undefined) throw new InputError(`${file}: ${where} has no name: a mapping in environments names its environment with name:.`)
    knownKeys(r, ENVIRONMENT_KEYS, file, `${where} (${name})`)
    names.push(name)
    settings.set(name, {
      track: optionalRef(r.track, file, `${where}.track`),
      trackFrom: `${file}: ${where}.track`,
      health: healthProbe(r['health-url'], r['health-expect'], file, `${where} (${name})`),
      freeze: freezeWindows(r, file, `${where} (${name}).deploy-freeze`)
    })
  })
  const twice = names.find((n, i) => names.indexOf(n) !== i)
  if (twice !== undefined) throw new InputError(`${file}: ${at}.environments names '${twice}' twice.`)
  return { names, settings }
}

/**
 * A deploy-freeze key's windows: text with one window a line, or a list of windows; undefined when the key is not
 * there, none when it is empty (which lifts the windows written above it). A malformed window names its place.
 */
function freezeWindows(r: Record<string, unknown>, file: string, where: string): FreezeWindow[] | undefined {
  if (!('deploy-freeze' in r)) return undefined
  const raw = r['deploy-freeze']
  const lines = raw === null ? [] : Array.isArray(raw) ? raw : [raw]
  if (lines.some((line) => typeof line !== 'string'))
    throw new InputError(
      `${file}: ${where} must be text, one window a line, or a list of windows, e.g. '0 18 * * 5; 0 7 * * 1; Europe/Amsterdam' (quote each window).`
    )
  return parseFreezeWindows(lines.join('\n'), `${file}: ${where}`)
}

function loginOf(raw: unknown, file: string, at: string): LoginSource {
  if (raw === undefined || raw === null) return { variables: DEFAULT_LOGIN_VARIABLES, defaults: true }
  const where = `${at}.login`
  const r = mapping(raw, file, where)
  knownKeys(r, LOGIN_KEYS, file, where)
  const variables: Partial<Record<LoginVariable, string>> = {}
  for (const credential of LOGIN_VARIABLES) {
    const raw = r[`${credential}-variable`]
    if (raw === undefined || raw === null) continue
    // What stands here may be the credential itself: masked, and never repeated in the refusal.
    const name = typeof raw === 'string' ? raw.trim() : String(raw)
    if (typeof raw !== 'string' || !VARIABLE.test(name)) {
      if (SECRET_CREDENTIALS.includes(credential)) registerSecret(name)
      throw new InputError(
        `${file}: ${where}.${credential}-variable is not a variable name (letters, digits and _, not starting with a digit): ` +
          `name the variable that holds the ${credential}, not the ${credential} itself (the value is not repeated here).`
      )
    }
    if (name !== '') variables[credential] = name
  }
  return {
    variables,
    tokenUrl: text(r['token-url'], file, `${where}.token-url`),
    clientId: text(r['client-id'], file, `${where}.client-id`),
    audience: text(r.audience, file, `${where}.audience`),
    scope: text(r.scope, file, `${where}.scope`),
    defaults: false
  }
}

function mapping(raw: unknown, file: string, where: string): Record<string, unknown> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new InputError(`${file}: ${where} must be a mapping of keys to values.`)
  return raw as Record<string, unknown>
}

/** A key the report does not know is refused: a typo would otherwise be a setting silently not applied. */
function knownKeys(r: Record<string, unknown>, known: readonly string[], file: string, where: string): void {
  for (const key of Object.keys(r)) {
    if (known.includes(key)) continue
    const secret = (LOGIN_VARIABLES as readonly string[]).includes(key)
    const hint = secret ? `: a credential never stands in the file; name the variable that holds it with ${key}-variable` : ` (it knows ${known.join(', ')})`
    throw new InputError(`${file}: ${where} has an unknown key '${key}'${hint}.`)
  }
}

/** A string value (numbers are refused, not turned into text: `track: 1.10` would lose its zero). */
function text(raw: unknown, file: string, where: string): string | undefined {
  if (raw === undefined || raw === null) return undefined
  if (typeof raw !== 'string') throw new InputError(`${file}: ${where} must be text (quote it: '${String(raw)}').`)
  const value = raw.trim()
  return value === '' ? undefined : value
}

function optionalRef(raw: unknown, file: string, where: string): string | undefined {
  const ref = text(raw, file, where)
  if (ref !== undefined) checkRef(ref, `${file}: ${where}`)
  return ref
}

/** A tracked ref as a branch or tag is named, or a pattern of tag names; an InputError under `what` (where it was given) otherwise. */
export function checkRef(ref: string, what: string): void {
  if (isTagPattern(ref) ? !REF.test(ref.replace(TAG_PATTERN_CHARS, 'x')) : !REF.test(ref))
    throw new InputError(`${what} '${ref}' is not a branch or tag name, nor a pattern of tag names such as v* or tags/release-*.`)
}
