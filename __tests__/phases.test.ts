import { useTestPort } from './test-port.js'

const infos: string[] = []
useTestPort({
  group: async <T>(_name: string, fn: () => Promise<T>): Promise<T> => fn(),
  info: (message: string) => infos.push(message)
})

const { Timeline, memoryTraceLine, TRACE_MEMORY_ENV } = await import('../src/phases.js')

const MiB = 1024 * 1024
const usage = (rss: number, heapUsed: number, external: number): NodeJS.MemoryUsage => ({
  rss,
  heapUsed,
  external,
  heapTotal: heapUsed * 2,
  arrayBuffers: 0
})

describe('memory trace after each phase', () => {
  const saved = process.env[TRACE_MEMORY_ENV]
  beforeEach(() => {
    infos.length = 0
    delete process.env[TRACE_MEMORY_ENV]
  })
  afterAll(() => {
    if (saved === undefined) delete process.env[TRACE_MEMORY_ENV]
    else process.env[TRACE_MEMORY_ENV] = saved
  })

  test('the line: rss, peak (maxRSS is KiB), heap used and external, in MiB with one decimal', () => {
    expect(memoryTraceLine('Pack the distribution', usage(71.25 * MiB, 9.5 * MiB, 3 * MiB), 80 * 1024 + 512)).toBe(
      'memory after "Pack the distribution": rss 71.3 MiB, peak 80.5 MiB, heap 9.5 MiB, external 3.0 MiB'
    )
  })

  test('logged once at the end of each phase, passed or failed, when BRCLOUD_DEPLOY_TRACE_MEMORY=1', async () => {
    process.env[TRACE_MEMORY_ENV] = '1'
    const timeline = new Timeline()
    await timeline.run('Prepare', async () => 1)
    await expect(
      timeline.run('Upload', async () => {
        throw new Error('no')
      })
    ).rejects.toThrow('no')
    expect(infos).toHaveLength(2)
    expect(infos[0]).toMatch(/^memory after "Prepare": rss \d+\.\d MiB, peak \d+\.\d MiB, heap \d+\.\d MiB, external \d+\.\d MiB$/)
    expect(infos[1]).toMatch(/^memory after "Upload": rss /)
  })

  test('off by default and for any other value', async () => {
    const timeline = new Timeline()
    await timeline.run('Prepare', async () => 1)
    process.env[TRACE_MEMORY_ENV] = 'true'
    await timeline.run('Check', async () => 1)
    expect(infos).toEqual([])
    expect(timeline.phases.map((p) => p.name)).toEqual(['Prepare', 'Check'])
  })
})
