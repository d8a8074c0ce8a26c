// Freeze windows (src/rules/freeze.ts): the two forms of a line, when each is in force to the millisecond, daylight
// saving in Europe/Amsterdam and America/New_York, windows that overlap or touch, what lies ahead, the words for a
// user, and every malformed line refused with what is wrong and how to write it.
import { InputError } from '../src/errors.js'
import { describeUntil, formatInZone, freezeAhead, freezeAt, parseFreezeWindows, type FreezeWindow } from '../src/rules/freeze.js'

const WEEKEND = '0 18 * * 5; 0 7 * * 1; Europe/Amsterdam'
const HOUR = 3600_000

/** [since, endsAt, lineNumber] of the freeze in force, in ISO, or undefined. */
function inForce(text: string, iso: string): [string, string, number] | undefined {
  const hit = freezeAt(parseFreezeWindows(text), new Date(iso))
  return hit && [hit.since.toISOString(), hit.endsAt.toISOString(), hit.window.lineNumber]
}

function ahead(text: string, iso: string, withinMs: number): [string, string, number] | undefined {
  const next = freezeAhead(parseFreezeWindows(text), new Date(iso), withinMs)
  return next && [next.startsAt.toISOString(), next.endsAt.toISOString(), next.window.lineNumber]
}

function refusal(text: string, input?: string): string {
  try {
    parseFreezeWindows(text, input)
  } catch (error) {
    expect(error).toBeInstanceOf(InputError)
    return (error as Error).message
  }
  throw new Error(`'${text}' was accepted`)
}

describe('reading deploy-freeze', () => {
  test('one window per line, trimmed; blank lines and # comments skipped but counted; CRLF too', () => {
    const text = `# weekends\r\n  ${WEEKEND}  \r\n\r\n2026-12-20T00:00 .. 2027-01-04T00:00 America/New_York\n   # end`
    expect(parseFreezeWindows(text)).toEqual([
      { line: WEEKEND, lineNumber: 2, kind: 'cron', timeZone: 'Europe/Amsterdam' },
      { line: '2026-12-20T00:00 .. 2027-01-04T00:00 America/New_York', lineNumber: 4, kind: 'dated', timeZone: 'America/New_York' }
    ])
    expect(parseFreezeWindows('')).toEqual([])
    expect(parseFreezeWindows('\n  \n# only a comment\n')).toEqual([])
  })

  test('the fields of a cron window may be spaced freely; a dated range may be written without spaces around ..', () => {
    expect(parseFreezeWindows('0  18 * * 5 ;0 7 * * 1;UTC')[0]).toEqual({ line: '0  18 * * 5 ;0 7 * * 1;UTC', lineNumber: 1, kind: 'cron', timeZone: 'UTC' })
    expect(inForce('2026-12-20T00:00..2027-01-04T00:00 UTC', '2026-12-20T00:00:00Z')).toEqual(['2026-12-20T00:00:00.000Z', '2027-01-04T00:00:00.000Z', 1])
  })
})

describe('a cron window: from a start occurrence until the next end occurrence after it', () => {
  test('over the weekend: in force at the start instant, still 1 ms before the end, not at the end', () => {
    const since = '2026-11-27T17:00:00.000Z' // Fri 18:00 CET
    const ends = '2026-11-30T06:00:00.000Z' // Mon 07:00 CET
    expect(inForce(WEEKEND, '2026-11-27T16:59:59.999Z')).toBeUndefined()
    expect(inForce(WEEKEND, since)).toEqual([since, ends, 1])
    expect(inForce(WEEKEND, '2026-11-27T17:00:00.500Z')).toEqual([since, ends, 1])
    expect(inForce(WEEKEND, '2026-11-29T12:00:00.000Z')).toEqual([since, ends, 1])
    expect(inForce(WEEKEND, '2026-11-30T05:59:59.999Z')).toEqual([since, ends, 1])
    expect(inForce(WEEKEND, ends)).toBeUndefined()
    expect(inForce(WEEKEND, '2026-12-02T12:00:00.000Z')).toBeUndefined()
  })

  test('across midnight every night, in New York', () => {
    const nights = '0 22 * * *; 0 6 * * *; America/New_York'
    // 23:30 EST on Tue 1 Dec is 04:30 UTC on Wed 2 Dec; the night began at 22:00 EST (03:00 UTC) and ends at 06:00 EST.
    expect(inForce(nights, '2026-12-02T04:30:00Z')).toEqual(['2026-12-02T03:00:00.000Z', '2026-12-02T11:00:00.000Z', 1])
    expect(inForce(nights, '2026-12-02T10:59:59.999Z')).toEqual(['2026-12-02T03:00:00.000Z', '2026-12-02T11:00:00.000Z', 1])
    expect(inForce(nights, '2026-12-02T11:00:00Z')).toBeUndefined()
    expect(inForce(nights, '2026-12-02T02:59:59Z')).toBeUndefined()
  })

  test('starts that repeat before the end extend one freeze: since is the first start after the last end', () => {
    const saturdays = '0 * * * 6; 0 7 * * 1; UTC'
    expect(inForce(saturdays, '2026-11-29T12:00:00Z')).toEqual(['2026-11-28T00:00:00.000Z', '2026-11-30T07:00:00.000Z', 1])
    expect(inForce(saturdays, '2026-11-28T05:30:00Z')).toEqual(['2026-11-28T00:00:00.000Z', '2026-11-30T07:00:00.000Z', 1])
  })

  test('a start at the very instant of an end begins a new freeze then, which chains to it', () => {
    // Starts Mon and Tue 12:00, ends Tue and Wed 12:00 (UTC): Mon 30 Nov 12:00 to Tue 12:00, then Tue 12:00 to Wed 12:00.
    const text = '0 12 * * 1,2; 0 12 * * 2,3; UTC'
    expect(inForce(text, '2026-11-30T13:00:00Z')).toEqual(['2026-11-30T12:00:00.000Z', '2026-12-02T12:00:00.000Z', 1])
    expect(inForce(text, '2026-12-01T12:00:00Z')).toEqual(['2026-12-01T12:00:00.000Z', '2026-12-02T12:00:00.000Z', 1])
    expect(inForce(text, '2026-12-02T12:00:00Z')).toBeUndefined()
    // In force on Monday, it begins again the instant it ends.
    expect(ahead(text, '2026-11-30T13:00:00Z', 24 * HOUR)).toEqual(['2026-12-01T12:00:00.000Z', '2026-12-02T12:00:00.000Z', 1])
  })

  test('day of month and day of week both given: either matches, as cron has it', () => {
    // The 1st of the month or a Wednesday, 09:00 to 10:00 UTC. Tue 1 Dec 2026 is the 1st; Wed 2 Dec is a Wednesday.
    const text = '0 9 1 * 3; 0 10 * * *; UTC'
    expect(inForce(text, '2026-12-01T09:30:00Z')).toEqual(['2026-12-01T09:00:00.000Z', '2026-12-01T10:00:00.000Z', 1])
    expect(inForce(text, '2026-12-02T09:30:00Z')).toEqual(['2026-12-02T09:00:00.000Z', '2026-12-02T10:00:00.000Z', 1])
    expect(inForce(text, '2026-12-03T09:30:00Z')).toBeUndefined()
  })
})

describe('a dated range: from its start (inclusive) to its end (exclusive), wall times in its zone', () => {
  const HOLIDAYS = '2026-12-20T00:00 .. 2027-01-04T00:00 Europe/Amsterdam'
  test('the exact instants', () => {
    const span: [string, string, number] = ['2026-12-19T23:00:00.000Z', '2027-01-03T23:00:00.000Z', 1]
    expect(inForce(HOLIDAYS, '2026-12-19T22:59:59.999Z')).toBeUndefined()
    expect(inForce(HOLIDAYS, '2026-12-19T23:00:00.000Z')).toEqual(span)
    expect(inForce(HOLIDAYS, '2027-01-03T22:59:59.999Z')).toEqual(span)
    expect(inForce(HOLIDAYS, '2027-01-03T23:00:00.000Z')).toBeUndefined()
  })

  test('in New York, 5 hours behind UTC in winter', () => {
    expect(inForce('2026-12-24T17:00 .. 2026-12-26T09:30 America/New_York', '2026-12-25T00:00:00Z')).toEqual([
      '2026-12-24T22:00:00.000Z',
      '2026-12-26T14:30:00.000Z',
      1
    ])
  })
})

describe('daylight saving: a wall time in the gap is the first instant after it; a repeated one is the first of the two', () => {
  test('Europe/Amsterdam springs forward (Sun 29 Mar 2026, 02:00 CET becomes 03:00 CEST = 01:00 UTC)', () => {
    // 02:30 does not exist that night: both forms start at 03:00 CEST; 05:00 CEST is 03:00 UTC.
    const dated = '2026-03-29T02:30 .. 2026-03-29T05:00 Europe/Amsterdam'
    const cron = '30 2 * * 0; 0 5 * * 0; Europe/Amsterdam'
    for (const text of [dated, cron]) {
      expect(inForce(text, '2026-03-29T00:59:59.999Z')).toBeUndefined()
      expect(inForce(text, '2026-03-29T01:00:00.000Z')).toEqual(['2026-03-29T01:00:00.000Z', '2026-03-29T03:00:00.000Z', 1])
      expect(inForce(text, '2026-03-29T03:00:00.000Z')).toBeUndefined()
    }
    // The week before and after, 02:30 exists (CET, then CEST).
    expect(inForce(cron, '2026-03-22T01:30:00Z')).toEqual(['2026-03-22T01:30:00.000Z', '2026-03-22T04:00:00.000Z', 1])
    expect(inForce(cron, '2026-04-05T00:30:00Z')).toEqual(['2026-04-05T00:30:00.000Z', '2026-04-05T03:00:00.000Z', 1])
  })

  test('Europe/Amsterdam falls back (Sun 25 Oct 2026, 03:00 CEST becomes 02:00 CET = 01:00 UTC)', () => {
    // 02:30 happens twice (00:30 and 01:30 UTC): both forms start at the first; 04:00 CET is 03:00 UTC.
    for (const text of ['2026-10-25T02:30 .. 2026-10-25T04:00 Europe/Amsterdam', '30 2 * * 0; 0 4 * * 0; Europe/Amsterdam']) {
      expect(inForce(text, '2026-10-25T00:29:59.999Z')).toBeUndefined()
      expect(inForce(text, '2026-10-25T00:30:00.000Z')).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-25T03:00:00.000Z', 1])
      expect(inForce(text, '2026-10-25T02:59:59.999Z')).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-25T03:00:00.000Z', 1])
    }
    // An end at 02:30 is the first 02:30 too: the second pass of that hour is free.
    const endsInFold = '2026-10-25T00:00 .. 2026-10-25T02:30 Europe/Amsterdam'
    expect(inForce(endsInFold, '2026-10-25T00:29:59.999Z')).toEqual(['2026-10-24T22:00:00.000Z', '2026-10-25T00:30:00.000Z', 1])
    expect(inForce(endsInFold, '2026-10-25T01:30:00.000Z')).toBeUndefined()
    expect(inForce('0 0 * * 0; 30 2 * * 0; Europe/Amsterdam', '2026-10-25T01:30:00.000Z')).toBeUndefined()
  })

  test('America/New_York springs forward (Sun 8 Mar 2026, 02:00 EST becomes 03:00 EDT = 07:00 UTC)', () => {
    for (const text of ['2026-03-08T02:15 .. 2026-03-08T03:30 America/New_York', '15 2 * * 0; 30 3 * * 0; America/New_York']) {
      expect(inForce(text, '2026-03-08T06:59:59.999Z')).toBeUndefined()
      expect(inForce(text, '2026-03-08T07:00:00.000Z')).toEqual(['2026-03-08T07:00:00.000Z', '2026-03-08T07:30:00.000Z', 1])
      expect(inForce(text, '2026-03-08T07:30:00.000Z')).toBeUndefined()
    }
  })

  test('America/New_York falls back (Sun 1 Nov 2026, 02:00 EDT becomes 01:00 EST = 06:00 UTC)', () => {
    // 01:30 happens at 05:30 (EDT) and 06:30 UTC (EST): the first; 03:00 EST is 08:00 UTC.
    for (const text of ['2026-11-01T01:30 .. 2026-11-01T03:00 America/New_York', '30 1 * * 0; 0 3 * * 0; America/New_York']) {
      expect(inForce(text, '2026-11-01T05:29:59.999Z')).toBeUndefined()
      expect(inForce(text, '2026-11-01T05:30:00.000Z')).toEqual(['2026-11-01T05:30:00.000Z', '2026-11-01T08:00:00.000Z', 1])
    }
  })

  test('a weekend window across the change keeps its wall times: ends Mon 07:00 CET, one hour later in UTC than it began', () => {
    expect(inForce(WEEKEND, '2026-10-24T12:00:00Z')).toEqual(['2026-10-23T16:00:00.000Z', '2026-10-26T06:00:00.000Z', 1])
    expect(inForce(WEEKEND, '2026-03-28T12:00:00Z')).toEqual(['2026-03-27T17:00:00.000Z', '2026-03-30T05:00:00.000Z', 1])
  })

  test('a cron with * or a step in its hour follows the clock: nothing in the gap, both passes of a repeated hour', () => {
    // Every hour on the hour until half past, on Sundays: on 25 Oct the 02:00 happens at 00:00 and at 01:00 UTC.
    const halfHours = '0 */1 * * 0; 30 * * * 0; Europe/Amsterdam'
    expect(inForce(halfHours, '2026-10-25T00:10:00Z')).toEqual(['2026-10-25T00:00:00.000Z', '2026-10-25T00:30:00.000Z', 1])
    expect(inForce(halfHours, '2026-10-25T00:40:00Z')).toBeUndefined()
    expect(inForce(halfHours, '2026-10-25T01:10:00Z')).toEqual(['2026-10-25T01:00:00.000Z', '2026-10-25T01:30:00.000Z', 1])
    // On 29 Mar, '*/30 2' never happens: 01:30 UTC (03:30 CEST) is free, while the fixed 02:30 above began at 01:00 UTC.
    expect(inForce('*/30 2 * * 0; 0 5 * * 0; Europe/Amsterdam', '2026-03-29T01:30:00Z')).toBeUndefined()
  })
})

describe('several windows', () => {
  test('two in force: the one that ends last', () => {
    const text = ['0 0 * * *; 0 12 * * *; UTC', '0 6 * * *; 0 18 * * *; UTC'].join('\n')
    expect(inForce(text, '2026-12-01T07:00:00Z')).toEqual(['2026-12-01T06:00:00.000Z', '2026-12-01T18:00:00.000Z', 2])
    expect(inForce(text, '2026-12-01T05:00:00Z')).toEqual(['2026-12-01T00:00:00.000Z', '2026-12-01T18:00:00.000Z', 1])
    // Listed the other way round: still the one that ends last, now line 1 (not the last line in force).
    const reversed = ['0 6 * * *; 0 18 * * *; UTC', '0 0 * * *; 0 12 * * *; UTC'].join('\n')
    expect(inForce(reversed, '2026-12-01T07:00:00Z')).toEqual(['2026-12-01T06:00:00.000Z', '2026-12-01T18:00:00.000Z', 1])
  })

  test('overlapping and touching windows are chained to the real end; a gap of a minute is not', () => {
    const overlap = ['0 0 * * *; 0 12 * * *; UTC', '0 11 * * *; 0 15 * * *; UTC', '0 15 * * *; 0 17 * * *; UTC', '1 17 * * *; 0 20 * * *; UTC'].join('\n')
    // In force 00:00-12:00 (line 1), 11:00-15:00 overlaps it, 15:00-17:00 touches that; 17:01 is a minute later.
    expect(inForce(overlap, '2026-12-01T05:00:00Z')).toEqual(['2026-12-01T00:00:00.000Z', '2026-12-01T17:00:00.000Z', 1])
    expect(inForce(overlap, '2026-12-01T17:00:00Z')).toBeUndefined()
    expect(inForce(overlap, '2026-12-01T17:01:00Z')).toEqual(['2026-12-01T17:01:00.000Z', '2026-12-01T20:00:00.000Z', 4])
  })

  test('a dated holiday chained with the weekend window it runs into', () => {
    const text = `${WEEKEND}\n2026-12-20T00:00 .. 2027-01-02T00:00 Europe/Amsterdam`
    // The holiday ends Sat 2 Jan 00:00 CET, inside the weekend that began Fri 1 Jan 18:00: free Mon 4 Jan 07:00 CET.
    const hit = freezeAt(parseFreezeWindows(text), new Date('2026-12-24T12:00:00Z'))
    expect(hit && [hit.window.lineNumber, hit.since.toISOString(), hit.endsAt.toISOString()]).toEqual([
      2,
      '2026-12-19T23:00:00.000Z',
      '2027-01-04T06:00:00.000Z'
    ])
  })

  test('windows that always cover each other: the chain is cut after 1000 links rather than looping', () => {
    const text = '0 0 * * *; 0 12 * * *; UTC\n0 12 * * *; 0 0 * * *; UTC'
    // The first ends at 12:00 on 1 Dec; 1000 links of 12 hours later is 500 days on.
    expect(inForce(text, '2026-12-01T05:00:00Z')).toEqual(['2026-12-01T00:00:00.000Z', '2028-04-14T12:00:00.000Z', 1])
  })

  test('no windows: nothing in force, nothing ahead', () => {
    expect(freezeAt([], new Date('2026-12-01T00:00:00Z'))).toBeUndefined()
    expect(freezeAhead([], new Date('2026-12-01T00:00:00Z'), 365 * 24 * HOUR)).toBeUndefined()
  })
})

describe('what lies ahead: a window that begins during a wait', () => {
  test('the next start after `at`, within the limit (inclusive)', () => {
    // Fri 27 Nov 17:00 CET: the weekend begins in one hour.
    expect(ahead(WEEKEND, '2026-11-27T16:00:00Z', 2 * HOUR)).toEqual(['2026-11-27T17:00:00.000Z', '2026-11-30T06:00:00.000Z', 1])
    expect(ahead(WEEKEND, '2026-11-27T16:00:00Z', HOUR)).toEqual(['2026-11-27T17:00:00.000Z', '2026-11-30T06:00:00.000Z', 1])
    expect(ahead(WEEKEND, '2026-11-27T16:00:00Z', HOUR - 1)).toBeUndefined()
  })

  test('a window beginning exactly at `at` is in force, not ahead; one in force begins again only after it ends', () => {
    expect(ahead(WEEKEND, '2026-11-27T17:00:00Z', 7 * 24 * HOUR)).toEqual(['2026-12-04T17:00:00.000Z', '2026-12-07T06:00:00.000Z', 1])
    expect(ahead(WEEKEND, '2026-11-28T12:00:00Z', 7 * 24 * HOUR)).toEqual(['2026-12-04T17:00:00.000Z', '2026-12-07T06:00:00.000Z', 1])
    expect(ahead('0 * * * 6; 0 7 * * 1; UTC', '2026-11-28T05:30:00Z', 24 * HOUR)).toBeUndefined()
  })

  test('the earliest of several; a dated range ahead, and one already begun is not ahead', () => {
    const text = `${WEEKEND}\n2026-12-20T00:00 .. 2027-01-04T00:00 Europe/Amsterdam`
    // The weekend of 18 Dec begins first; the holidays overlap it, and run into the weekend of 1 Jan.
    expect(ahead(text, '2026-12-14T12:00:00Z', 30 * 24 * HOUR)).toEqual(['2026-12-18T17:00:00.000Z', '2027-01-04T06:00:00.000Z', 1])
    expect(ahead(WEEKEND, '2026-12-14T12:00:00Z', 30 * 24 * HOUR)).toEqual(['2026-12-18T17:00:00.000Z', '2026-12-21T06:00:00.000Z', 1])
    expect(ahead(text, '2026-12-19T12:00:00Z', 30 * 24 * HOUR)).toEqual(['2026-12-19T23:00:00.000Z', '2027-01-04T06:00:00.000Z', 2])
    expect(ahead(text, '2026-12-20T12:00:00Z', 4 * 24 * HOUR)).toBeUndefined()
    // A dated range beginning exactly at `at` is in force then, not ahead.
    expect(ahead('2026-12-20T00:00 .. 2027-01-04T00:00 UTC', '2026-12-20T00:00:00Z', 30 * 24 * HOUR)).toBeUndefined()
    expect(ahead('2026-12-20T00:00 .. 2027-01-04T00:00 UTC', '2026-12-19T23:59:59.999Z', 1)).toEqual([
      '2026-12-20T00:00:00.000Z',
      '2027-01-04T00:00:00.000Z',
      1
    ])
  })

  test('two that begin together: the one that ends last', () => {
    expect(ahead('0 9 * * *; 0 10 * * *; UTC\n0 9 * * *; 0 11 * * *; UTC', '2026-12-01T08:00:00Z', HOUR)).toEqual([
      '2026-12-01T09:00:00.000Z',
      '2026-12-01T11:00:00.000Z',
      2
    ])
    // Listed the other way round: line 1 now. Of two that also end together, the first listed.
    expect(ahead('0 9 * * *; 0 11 * * *; UTC\n0 9 * * *; 0 10 * * *; UTC', '2026-12-01T08:00:00Z', HOUR)?.[2]).toBe(1)
    expect(ahead('0 9 * * *; 0 11 * * *; UTC\n0 9 * * *; 0 11 * * 0-6; UTC', '2026-12-01T08:00:00Z', HOUR)?.[2]).toBe(1)
  })
})

describe('words for a user', () => {
  test('describeUntil: the line, its number, the end in its zone and in UTC', () => {
    const hit = freezeAt(parseFreezeWindows(`# ops\n${WEEKEND}`), new Date('2026-11-28T12:00:00Z'))
    expect(hit && describeUntil(hit)).toBe("'0 18 * * 5; 0 7 * * 1; Europe/Amsterdam' (line 2) until Mon 30 Nov 2026 07:00 Europe/Amsterdam (06:00 UTC)")
  })

  test('formatInZone: the UTC date when it is another day, seconds only when there are some, UTC said once', () => {
    expect(formatInZone(new Date('2026-11-29T23:30:00Z'), 'Europe/Amsterdam')).toBe('Mon 30 Nov 2026 00:30 Europe/Amsterdam (Sun 29 Nov 2026 23:30 UTC)')
    expect(formatInZone(new Date('2026-07-04T16:05:09Z'), 'America/New_York')).toBe('Sat 4 Jul 2026 12:05:09 America/New_York (16:05:09 UTC)')
    expect(formatInZone(new Date('2027-01-04T06:00:00Z'), 'UTC')).toBe('Mon 4 Jan 2027 06:00 UTC')
    expect(formatInZone(new Date('2026-03-01T00:00:00Z'), 'Etc/GMT')).toBe('Sun 1 Mar 2026 00:00 Etc/GMT')
  })

  test('a window written by hand (not from parseFreezeWindows) is read from its line', () => {
    const window: FreezeWindow = { line: WEEKEND, lineNumber: 3, kind: 'cron', timeZone: 'Europe/Amsterdam' }
    expect(freezeAt([window], new Date('2026-11-28T12:00:00Z'))?.endsAt.toISOString()).toBe('2026-11-30T06:00:00.000Z')
    const bad: FreezeWindow = { line: '0 18 * * 5; 0 7 * * 1; Mars/Olympus', lineNumber: 3, kind: 'cron', timeZone: 'Mars/Olympus' }
    expect(() => freezeAt([bad], new Date('2026-11-28T12:00:00Z'))).toThrow(
      new InputError(
        "deploy-freeze, line 3 ('0 18 * * 5; 0 7 * * 1; Mars/Olympus'): 'Mars/Olympus' is not a known IANA time zone. Write one such as 'Europe/Amsterdam', 'America/New_York' or 'UTC' (not an offset)."
      )
    )
  })
})

describe('a malformed line is refused, naming the input, the line, what is wrong and how to write it', () => {
  test('neither form', () => {
    expect(refusal('# weekends\n0 18 * * 5')).toBe(
      "deploy-freeze, line 2 ('0 18 * * 5'): not a freeze window. Write one window per line, either '0 18 * * 5; 0 7 * * 1; Europe/Amsterdam' (start cron; end cron; IANA time zone) or '2026-12-20T00:00 .. 2027-01-04T00:00 Europe/Amsterdam'."
    )
  })

  test('the wrong number of fields, named by the input given', () => {
    expect(refusal('0 18 * * 5; Europe/Amsterdam', 'environments.production.deploy-freeze')).toBe(
      "environments.production.deploy-freeze, line 1 ('0 18 * * 5; Europe/Amsterdam'): a cron window has 3 fields separated by ';', this line has 2. Write '<start cron>; <end cron>; <IANA time zone>', e.g. '0 18 * * 5; 0 7 * * 1; Europe/Amsterdam'."
    )
    expect(refusal('0 18 * * 5; 0 7 * * 1; UTC; x')).toContain('this line has 4.')
  })

  test('a cron of other than five fields, or one croner rejects, or one that never occurs', () => {
    expect(refusal('0 18 * * 5 *; 0 7 * * 1; UTC')).toBe(
      "deploy-freeze, line 1 ('0 18 * * 5 *; 0 7 * * 1; UTC'): the start cron '0 18 * * 5 *' has 6 fields. Write five fields: minute hour day-of-month month day-of-week, e.g. '0 18 * * 5'."
    )
    expect(refusal('0 18 * * 5; @weekly; UTC')).toContain(
      "the end cron '@weekly' has 1 fields. Write five fields: minute hour day-of-month month day-of-week, e.g. '0 7 * * 1'."
    )
    expect(refusal('0 18 * * 5; ; UTC')).toContain("the end cron '' has 0 fields.")
    expect(refusal('0 18 * * 5; 61 7 * * 1; UTC')).toBe(
      "deploy-freeze, line 1 ('0 18 * * 5; 61 7 * * 1; UTC'): the end cron '61 7 * * 1' is not valid: Invalid value for minute: 61. Write five fields: minute hour day-of-month month day-of-week, e.g. '0 7 * * 1'."
    )
    expect(refusal('0 0 30 2 *; 0 7 * * 1; UTC')).toBe(
      "deploy-freeze, line 1 ('0 0 30 2 *; 0 7 * * 1; UTC'): the start cron '0 0 30 2 *' never occurs. Write a time that exists, e.g. '0 18 * * 5'."
    )
  })

  test('an end cron that is the start cron', () => {
    expect(refusal('0 18 * * 5; 0  18 * * 5; UTC')).toBe(
      "deploy-freeze, line 1 ('0 18 * * 5; 0  18 * * 5; UTC'): the end cron is the start cron, so the window would begin again the moment it ends. Write the time it ends, e.g. '0 18 * * 5; 0 7 * * 1; Europe/Amsterdam'."
    )
    expect(refusal('0 18  *\t* 5; 0 18 * * 5; UTC')).toContain('the end cron is the start cron')
  })

  test('an unknown time zone, an offset, or none', () => {
    const how = "Write one such as 'Europe/Amsterdam', 'America/New_York' or 'UTC' (not an offset)."
    expect(refusal('0 18 * * 5; 0 7 * * 1; Europe/Amsterdan')).toBe(
      `deploy-freeze, line 1 ('0 18 * * 5; 0 7 * * 1; Europe/Amsterdan'): 'Europe/Amsterdan' is not a known IANA time zone. ${how}`
    )
    expect(refusal('0 18 * * 5; 0 7 * * 1; +01:00')).toContain(`'+01:00' is not a known IANA time zone. ${how}`)
    expect(refusal('2026-12-20T00:00 .. 2027-01-04T00:00 CEST+1')).toContain(`'CEST+1' is not a known IANA time zone.`)
    expect(refusal('0 18 * * 5; 0 7 * * 1; ')).toContain(
      "the time zone is missing. Write an IANA time zone such as 'Europe/Amsterdam', 'America/New_York' or 'UTC'."
    )
  })

  test('a dated range without a zone, with more after it, or with an end not after its start', () => {
    expect(refusal('2026-12-20T00:00 .. 2027-01-04T00:00')).toBe(
      "deploy-freeze, line 1 ('2026-12-20T00:00 .. 2027-01-04T00:00'): a dated window needs the time zone of its wall times after its end. Write e.g. '2026-12-20T00:00 .. 2027-01-04T00:00 Europe/Amsterdam'."
    )
    expect(refusal('2026-12-20T00:00 .. 2027-01-04T00:00 UTC public holidays')).toContain(
      "'public holidays' follows the time zone. Write '<start> .. <end> <IANA time zone>'"
    )
    expect(refusal('2027-01-04T00:00 .. 2026-12-20T00:00 UTC')).toBe(
      "deploy-freeze, line 1 ('2027-01-04T00:00 .. 2026-12-20T00:00 UTC'): the end 2026-12-20T00:00 is not after the start 2027-01-04T00:00 in UTC. Write the start first, e.g. '2026-12-20T00:00 .. 2027-01-04T00:00 Europe/Amsterdam'."
    )
    expect(refusal('2026-12-20T10:00 .. 2026-12-20T10:00 UTC')).toContain('the end 2026-12-20T10:00 is not after the start 2026-12-20T10:00 in UTC.')
    // 02:00 and 02:59 both fall in Amsterdam's spring gap: both are 03:00 CEST, so the range is empty.
    expect(refusal('2026-03-29T02:00 .. 2026-03-29T02:59 Europe/Amsterdam')).toContain('the end 2026-03-29T02:59 is not after the start 2026-03-29T02:00')
  })

  test('a timestamp that is not YYYY-MM-DDTHH:MM, or not a real date and time', () => {
    const how = "Write the start as YYYY-MM-DDTHH:MM (local time in the zone that ends the line), e.g. '2026-12-20T00:00 .. 2027-01-04T00:00 Europe/Amsterdam'."
    expect(refusal('2026-12-20 .. 2027-01-04T00:00 UTC')).toBe(
      `deploy-freeze, line 1 ('2026-12-20 .. 2027-01-04T00:00 UTC'): the start '2026-12-20' is not a local time as YYYY-MM-DDTHH:MM. ${how}`
    )
    expect(refusal('2026-12-20T00:00:00 .. 2027-01-04T00:00 UTC')).toContain("the start '2026-12-20T00:00:00' is not a local time as YYYY-MM-DDTHH:MM.")
    expect(refusal('2026-12-20T00:00 .. 2027-01-04 00:00 UTC')).toContain("the end '2027-01-04' is not a local time as YYYY-MM-DDTHH:MM. Write the end as")
    expect(refusal('2026-12-20T00:00 .. 2027-01-04T00:00Z UTC')).toContain("the end '2027-01-04T00:00Z' is not a local time")
    expect(refusal('x2026-12-20T00:00 .. 2027-01-04T00:00 UTC')).toContain("the start 'x2026-12-20T00:00' is not a local time")
    expect(refusal('2026-12-20T00:00 ..')).toContain("the end '' is not a local time as YYYY-MM-DDTHH:MM. Write the end as")
    // Words before the start: the line is not '<start> .. <end> <zone>', so no start is read.
    expect(refusal('from 2026-12-20T00:00 .. 2027-01-04T00:00 UTC')).toContain("the start '' is not a local time as YYYY-MM-DDTHH:MM.")
    expect(refusal('2026-02-29T00:00 .. 2027-01-04T00:00 UTC')).toBe(
      `deploy-freeze, line 1 ('2026-02-29T00:00 .. 2027-01-04T00:00 UTC'): the start '2026-02-29T00:00' is not a real date and time of day. ${how}`
    )
    for (const bad of ['2026-13-01T00:00', '2026-00-10T00:00', '2026-12-00T00:00', '2026-12-20T24:00', '2026-12-20T10:60']) {
      expect(refusal(`${bad} .. 2027-01-04T00:00 UTC`)).toContain(`the start '${bad}' is not a real date and time of day.`)
    }
    expect(parseFreezeWindows('2028-02-29T23:59 .. 2028-03-01T00:00 UTC')).toHaveLength(1)
  })
})
