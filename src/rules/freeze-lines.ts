// One line of deploy-freeze read into what freeze.ts computes with: two crons (croner) in a zone, or a dated range
// as two instants. Every mistake is an InputError naming the input, the line, what is wrong and how to write it.
import { Cron } from 'croner'
import { InputError } from '../errors.js'
import { instantOfWallTime, isTimeZone, type WallTime } from './zoned-time.js'

/** One window of deploy-freeze, as a line of it is read (freeze.ts computes when it is in force). */
export interface FreezeWindow {
  /** The line as written, trimmed. */
  readonly line: string
  /** 1-based among the input's lines (blank and comment lines counted). */
  readonly lineNumber: number
  readonly kind: 'cron' | 'dated'
  readonly timeZone: string
}

/** What a window computes with. */
export type FreezePlan =
  { readonly kind: 'cron'; readonly start: Cron; readonly end: Cron } | { readonly kind: 'dated'; readonly start: number; readonly end: number }

const CRON_EXAMPLE = "'0 18 * * 5; 0 7 * * 1; Europe/Amsterdam'"
const DATED_EXAMPLE = "'2026-12-20T00:00 .. 2027-01-04T00:00 Europe/Amsterdam'"
const CRON_FIELDS = 'five fields: minute hour day-of-month month day-of-week'

/** Where a mistake is, for its message: "deploy-freeze, line 2 ('...')". */
class LinePlace {
  constructor(
    readonly input: string,
    readonly line: string,
    readonly lineNumber: number
  ) {}
  refuse(what: string): InputError {
    return new InputError(`${this.input}, line ${this.lineNumber} ('${this.line}'): ${what}`)
  }
}

/** A window from one trimmed, non-blank, non-comment line. */
export function readFreezeLine(line: string, lineNumber: number, input: string): { window: FreezeWindow; plan: FreezePlan } {
  const place = new LinePlace(input, line, lineNumber)
  if (line.includes(';')) return readCronLine(place)
  if (line.includes('..')) return readDatedLine(place)
  throw place.refuse(`not a freeze window. Write one window per line, either ${CRON_EXAMPLE} (start cron; end cron; IANA time zone) or ${DATED_EXAMPLE}.`)
}

function readCronLine(place: LinePlace): { window: FreezeWindow; plan: FreezePlan } {
  const fields = place.line.split(';').map((field) => field.trim())
  if (fields.length !== 3) {
    throw place.refuse(
      `a cron window has 3 fields separated by ';', this line has ${fields.length}. Write '<start cron>; <end cron>; <IANA time zone>', e.g. ${CRON_EXAMPLE}.`
    )
  }
  const [startText, endText, timeZone] = fields as [string, string, string]
  checkTimeZone(place, timeZone)
  const start = readCron(place, 'start', startText, timeZone)
  const end = readCron(place, 'end', endText, timeZone)
  if (startText.split(/\s+/).join(' ') === endText.split(/\s+/).join(' ')) {
    throw place.refuse(`the end cron is the start cron, so the window would begin again the moment it ends. Write the time it ends, e.g. ${CRON_EXAMPLE}.`)
  }
  return { window: { line: place.line, lineNumber: place.lineNumber, kind: 'cron', timeZone }, plan: { kind: 'cron', start, end } }
}

function checkTimeZone(place: LinePlace, timeZone: string): void {
  if (timeZone === '') throw place.refuse(`the time zone is missing. Write an IANA time zone such as 'Europe/Amsterdam', 'America/New_York' or 'UTC'.`)
  if (!isTimeZone(timeZone)) {
    throw place.refuse(`'${timeZone}' is not a known IANA time zone. Write one such as 'Europe/Amsterdam', 'America/New_York' or 'UTC' (not an offset).`)
  }
}

/** A five-field cron as croner reads it in the zone; one that never occurs (30 February) is refused too. */
function readCron(place: LinePlace, which: 'start' | 'end', text: string, timeZone: string): Cron {
  const example = which === 'start' ? "'0 18 * * 5'" : "'0 7 * * 1'"
  const count = text === '' ? 0 : text.split(/\s+/).length
  if (count !== 5) throw place.refuse(`the ${which} cron '${text}' has ${count} fields. Write ${CRON_FIELDS}, e.g. ${example}.`)
  let cron: Cron
  try {
    // Given no function to run, croner starts no timer: the Cron only answers nextRun and previousRuns.
    cron = new Cron(text, { timezone: timeZone, mode: '5-part', domAndDow: false, fixedTimeRule: 'no-wildcard' })
  } catch (error) {
    const why = (error instanceof Error ? error.message : String(error)).replace('CronPattern: ', '')
    throw place.refuse(`the ${which} cron '${text}' is not valid: ${why}. Write ${CRON_FIELDS}, e.g. ${example}.`)
  }
  if (cron.nextRun(new Date(0)) === null) throw place.refuse(`the ${which} cron '${text}' never occurs. Write a time that exists, e.g. ${example}.`)
  return cron
}

const DATED_LINE = /^(\S*)\s*\.\.\s*(.*)$/
const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/

function readDatedLine(place: LinePlace): { window: FreezeWindow; plan: FreezePlan } {
  const [, startText = '', rest = ''] = DATED_LINE.exec(place.line) ?? []
  // The line is trimmed and the regex takes the spaces after '..', so rest is '' or has no space at either end:
  // split gives at least one token, and no empty one.
  const [endText, timeZone, ...more] = rest.split(/\s+/) as [string, ...string[]]
  const startWall = readLocalTime(place, 'start', startText)
  const endWall = readLocalTime(place, 'end', endText)
  if (timeZone === undefined) throw place.refuse(`a dated window needs the time zone of its wall times after its end. Write e.g. ${DATED_EXAMPLE}.`)
  if (more.length > 0) throw place.refuse(`'${more.join(' ')}' follows the time zone. Write '<start> .. <end> <IANA time zone>', e.g. ${DATED_EXAMPLE}.`)
  checkTimeZone(place, timeZone)
  const start = instantOfWallTime(startWall, timeZone).getTime()
  const end = instantOfWallTime(endWall, timeZone).getTime()
  if (end <= start) throw place.refuse(`the end ${endText} is not after the start ${startText} in ${timeZone}. Write the start first, e.g. ${DATED_EXAMPLE}.`)
  return { window: { line: place.line, lineNumber: place.lineNumber, kind: 'dated', timeZone }, plan: { kind: 'dated', start, end } }
}

/** YYYY-MM-DDTHH:MM, a real date and a time of day (00:00 to 23:59). */
function readLocalTime(place: LinePlace, which: 'start' | 'end', text: string): WallTime {
  const match = LOCAL_TIME.exec(text)
  const how = `Write the ${which} as YYYY-MM-DDTHH:MM (local time in the zone that ends the line), e.g. ${DATED_EXAMPLE}.`
  if (!match) throw place.refuse(`the ${which} '${text}' is not a local time as YYYY-MM-DDTHH:MM. ${how}`)
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number]
  // A day that is not in the month (00, 31 April) rolls over into another, so its day of month differs.
  const asDate = new Date(Date.UTC(year, month - 1, day))
  if (month < 1 || month > 12 || asDate.getUTCDate() !== day || hour > 23 || minute > 59) {
    throw place.refuse(`the ${which} '${text}' is not a real date and time of day. ${how}`)
  }
  return { year, month, day, hour, minute }
}
