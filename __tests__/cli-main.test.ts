// brcloud's main() in-process, through an io of its own (src/cli/io.ts): the command line and the environment in,
// what it wrote on stdout and stderr and its exit code out, as the packed command would, with nothing spawned.
import { actionPort } from '../src/action/port.js'
import { main } from '../src/cli/main.js'
import { usePort } from '../src/port.js'
import { memoryIo } from './cli-io.js'

afterEach(() => usePort(actionPort))

describe('main() through an io of its own', () => {
  test('--help and --version: written to its stdout, exit 0, nothing on stderr', async () => {
    const help = memoryIo()
    expect(await main(['deploy', '--help'], {}, help.io)).toBe(0)
    expect(help.stdout()).toMatch(/^Usage: brcloud deploy \[flags\]\n/)
    expect(help.stdout()).toContain('--password-file FILE')
    expect(help.stderr()).toBe('')
    const version = memoryIo()
    expect(await main(['--version'], {}, version.io)).toBe(0)
    expect(version.stdout()).toMatch(/^\d+\.\d+\.\d+\n$/)
    const status = memoryIo()
    expect(await main(['status', '--help'], {}, status.io)).toBe(0)
    expect(status.stdout()).toMatch(/^Usage: brcloud status --config FILE/)
  })

  test("a run the engine refuses: the action's message on its stderr, {} on its stdout with --json, exit 2, no exit called", async () => {
    const m = memoryIo()
    const env = { BRCLOUD_PASSWORD: 'pw-in-memory-1', BRCLOUD_MAX_ATTEMPTS: 'zero' }
    const code = await main(['deploy', '--stack', 'acme', '--username', 'ci', '--environment', 'production', '--distribution', 'x.tar.gz', '--json'], env, m.io)
    expect(code).toBe(2)
    expect(m.stderr()).toMatch(/^error: .*max-attempts/m)
    expect(m.stdout()).toBe('{}\n')
    expect(m.exits).toEqual([])
    // The run listened for signals on the io, and stopped listening once it ended (the third-signal watch stays).
    expect(m.signals.listenerCount('SIGINT')).toBe(1)
    expect(m.stdout() + m.stderr()).not.toContain('pw-in-memory-1')
  })

  test("the command line's own refusal (a secret as a flag): exit 2, on its stderr", async () => {
    const m = memoryIo()
    expect(await main(['deploy', '--password', 'hunter2-x'], {}, m.io)).toBe(2)
    expect(m.stderr()).toMatch(/^error: A secret is refused as a flag.*--password \(set BRCLOUD_PASSWORD, or --password-file FILE\)/)
    expect(m.stderr()).not.toContain('hunter2-x')
  })

  test("a third signal ends the command through io.exit, with the first signal's code", async () => {
    const m = memoryIo()
    const env = { BRCLOUD_PASSWORD: 'pw', BRCLOUD_MAX_ATTEMPTS: 'zero' }
    await main(['deploy', '--stack', 'acme', '--username', 'ci', '--environment', 'production', '--distribution', 'x.tar.gz'], env, m.io)
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGINT']) m.signals.emit(signal, signal)
    expect(m.exits).toEqual([143])
    expect(m.stderr()).toMatch(/^error: A third signal \(SIGINT\): ended at once, without the report\./m)
  })

  test('colour only when its stderr is a terminal, and never with NO_COLOR', async () => {
    const args = ['deploy', '--stack', 'acme', '--username', 'ci', '--environment', 'production', '--distribution', 'x.tar.gz']
    const env = { BRCLOUD_PASSWORD: 'pw', BRCLOUD_MAX_ATTEMPTS: 'zero' }
    const tty = memoryIo({ tty: true })
    await main(args, env, tty.io)
    expect(tty.stderr()).toContain('\u001b[31merror: ')
    const noColour = memoryIo({ tty: true })
    await main(args, { ...env, NO_COLOR: '1' }, noColour.io)
    expect(noColour.stderr()).not.toContain('\u001b[')
  })
})
