import {
  formatStat,
  parseRate,
  perRoundDifferences,
  perRoundRatios,
  rateLabel,
  renderTargets,
  sizeLabel,
  statOf,
  targetRow
} from '../scripts/lib/bench-targets.js'

describe('the benchmark targets arithmetic', () => {
  test('link rates are decimal bytes per second; off, none and 0 mean loopback only', () => {
    expect(parseRate('40M')).toBe(40_000_000)
    expect(parseRate('40MB/s')).toBe(40_000_000)
    expect(parseRate('12.5m')).toBe(12_500_000)
    expect(parseRate('800k')).toBe(800_000)
    expect(parseRate('1G')).toBe(1_000_000_000)
    expect(parseRate('5000')).toBe(5000)
    for (const off of ['off', 'none', '0', 'OFF']) expect(parseRate(off)).toBeUndefined()
    expect(() => parseRate('fast')).toThrow(/not a link rate/)
    expect(() => parseRate('0.1')).toThrow(/at least 1 B\/s/)
  })

  test('labels: rates as the case suffix, sizes as the options write them', () => {
    expect(rateLabel(40e6)).toBe('40MB/s')
    expect(rateLabel(12.5e6)).toBe('12.5MB/s')
    expect(rateLabel(800e3)).toBe('800kB/s')
    expect(sizeLabel(100 * 1024 ** 2)).toBe('100M')
    expect(sizeLabel(1024 ** 3)).toBe('1G')
  })

  test('statistics skip missing values; ratios pair the same round', () => {
    expect(statOf([3, undefined, 1, 2])).toEqual({ median: 2, min: 1, max: 3 })
    expect(statOf([4, 1, 2, 3])).toEqual({ median: 2.5, min: 1, max: 4 })
    expect(statOf([undefined])).toBeUndefined()
    expect(perRoundRatios([5, 6, undefined, 9], [10, 10, 10])).toEqual([0.5, 0.6])
    expect(perRoundDifferences([5, 6, undefined, 9], [10, 4, 10])).toEqual([-5, 2])
    expect(formatStat({ median: 1234, min: 1000, max: 2000 }, 2, 1 / 1000)).toBe('1.23 [1.00-2.00]')
  })

  test('a row is MET at or under its limit, NOT MET over it, NOT MEASURED without a value', () => {
    expect(targetRow('r', '<= 0.55x', 0.55, 0.55, '0.55 x', 'none').verdict).toBe('MET')
    expect(targetRow('r', '<= 0.55x', 0.56, 0.55, '0.56 x', 'none').verdict).toBe('NOT MET')
    expect(targetRow('r', '<= 0.55x', undefined, 0.55, '', 'NOT MEASURED: no recipe')).toEqual({
      row: 'r',
      target: '<= 0.55x',
      figure: 'NOT MEASURED: no recipe',
      verdict: 'NOT MEASURED'
    })
  })

  test('the table is aligned, verdict first', () => {
    const lines = renderTargets([
      { row: 'directory', figure: '0.50 [0.48-0.52] x', target: '<= 0.55x', verdict: 'MET' },
      { row: 'peak memory, prebuilt', figure: '90.0 [89.0-91.0] MiB', target: '<= 80 MiB', verdict: 'NOT MET' }
    ])
    expect(lines).toEqual([
      'verdict  row                    target     measured: median [min-max]',
      'MET      directory              <= 0.55x   0.50 [0.48-0.52] x',
      'NOT MET  peak memory, prebuilt  <= 80 MiB  90.0 [89.0-91.0] MiB'
    ])
  })
})
