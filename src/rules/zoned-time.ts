// Wall-clock time in an IANA time zone, through Intl alone (no clock of its own): which names are zones, the wall
// time of an instant, the instant of a wall time (daylight saving resolved as freeze windows document it), and an
// instant in words for a user. Pure: the same answers on every machine with full ICU (Node 20 and 24 both ship it).

/** A local date and time, as written: month 1-12. */
export interface WallTime {
  readonly year: number
  readonly month: number
  readonly day: number
  readonly hour: number
  readonly minute: number
}

const formats = new Map<string, Intl.DateTimeFormat>()

/** One formatter per zone: numeric fields, 24-hour clock, so formatToParts reads alike on every ICU. */
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short'
    })
    formats.set(timeZone, format)
  }
  return format
}

/**
 * True for a name Intl knows as a time zone (Europe/Amsterdam, UTC, Etc/GMT+1). An offset (+01:00) is not a name:
 * Node 20 refuses it and later Nodes take it, so it is refused here on every Node alike.
 */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return false
  try {
    formatterOf(name)
    return true
  } catch {
    return false
  }
}

interface ZonedParts extends WallTime {
  readonly second: number
  readonly weekday: string
}

function partsOf(at: number, timeZone: string): ZonedParts {
  const parts: Record<string, string> = {}
  for (const part of formatterOf(timeZone).formatToParts(new Date(at))) parts[part.type] = part.value
  const n = (type: string): number => Number(parts[type])
  // The formatter asks for the weekday, so formatToParts always gives one.
  return { year: n('year'), month: n('month'), day: n('day'), hour: n('hour'), minute: n('minute'), second: n('second'), weekday: parts.weekday as string }
}

function wallAsUtc(wall: WallTime): number {
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute)
}

/** The zone's offset from UTC at an instant, in ms (positive east of Greenwich), to the second. */
function offsetAt(at: number, timeZone: string): number {
  const p = partsOf(at, timeZone)
  const wallMs = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second)
  return wallMs - (at - (((at % 1000) + 1000) % 1000))
}

const DAY_MS = 24 * 3600 * 1000

/**
 * The instant a wall time names in a zone. A wall time that exists twice (the clock set back) is the first of the
 * two; one that does not exist (the clock set forward over it) is the first instant after the gap, the moment the
 * clock jumps. The same rules croner follows for a cron time of fixed hours and minutes.
 */
export function instantOfWallTime(wall: WallTime, timeZone: string): Date {
  const asUtc = wallAsUtc(wall)
  const before = offsetAt(asUtc - DAY_MS, timeZone)
  const after = offsetAt(asUtc + DAY_MS, timeZone)
  const fits = [asUtc - before, asUtc - after].filter((t) => asUtc - offsetAt(t, timeZone) === t).sort((a, b) => a - b)
  if (fits[0] !== undefined) return new Date(fits[0])
  return new Date(firstInstantWithOffset(asUtc - after, asUtc - before, after, timeZone))
}

/** The first instant in (from, to] whose offset is `offset`, to the second: where the clock jumped. */
function firstInstantWithOffset(from: number, to: number, offset: number, timeZone: string): number {
  let lo = Math.floor(from / 1000)
  let hi = Math.ceil(to / 1000)
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2)
    if (offsetAt(mid * 1000, timeZone) === offset) hi = mid
    else lo = mid
  }
  return hi * 1000
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

function clockOf(p: ZonedParts): string {
  const two = (n: number): string => String(n).padStart(2, '0')
  return `${two(p.hour)}:${two(p.minute)}${p.second === 0 ? '' : `:${two(p.second)}`}`
}

function dateOf(p: ZonedParts): string {
  return `${p.weekday} ${p.day} ${MONTHS[p.month - 1]} ${p.year}`
}

/**
 * An instant for a user, in the zone and in UTC: "Mon 30 Nov 2026 07:00 Europe/Amsterdam (06:00 UTC)"; the UTC
 * date is repeated when it is another day ("Mon 30 Nov 2026 00:30 Europe/Amsterdam (Sun 29 Nov 2026 23:30 UTC)"),
 * and UTC itself (or GMT) is said once. Seconds appear only when they are not zero.
 */
export function formatInZone(at: Date, timeZone: string): string {
  const local = partsOf(at.getTime(), timeZone)
  const utc = partsOf(at.getTime(), 'UTC')
  const inZone = `${dateOf(local)} ${clockOf(local)} ${timeZone}`
  if (/^(Etc\/)?(UTC|UCT|GMT|Zulu|Universal)$/i.test(timeZone)) return inZone
  const sameDay = dateOf(local) === dateOf(utc)
  return `${inZone} (${sameDay ? '' : `${dateOf(utc)} `}${clockOf(utc)} UTC)`
}
