// The emulator stands in for Bloomreach Cloud in tests: it must not share code with the action it
// tests (a shared bug would pass unnoticed), and the action must never ship the emulator. And one engine,
// two faces (issue 30): the engine talks to its port (src/port.ts); only the action's face talks to the
// runner through @actions/*. ESLint refuses the same imports (eslint.config.js), but not an import().
import fs from 'node:fs'
import path from 'node:path'

const SRC = path.resolve('src')

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name)
    return e.isDirectory() ? sources(full) : e.name.endsWith('.ts') ? [full] : []
  })
}

/** Relative imports of a file, resolved to absolute paths. */
function imports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8')
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => path.resolve(path.dirname(file), m[1] as string))
}

const emulatorDir = path.join(SRC, 'emulator') + path.sep

test('src/emulator imports nothing from the rest of src/', () => {
  const crossing = sources(emulatorDir).flatMap((f) =>
    imports(f)
      .filter((i) => !i.startsWith(emulatorDir))
      .map((i) => `${path.relative(SRC, f)} -> ${path.relative(SRC, i)}`)
  )
  expect(crossing).toEqual([])
})

test('no action module imports src/emulator', () => {
  const action = sources(SRC).filter((f) => !f.startsWith(emulatorDir))
  const crossing = action.flatMap((f) =>
    imports(f)
      .filter((i) => i.startsWith(emulatorDir))
      .map((i) => `${path.relative(SRC, f)} -> ${path.relative(SRC, i)}`)
  )
  expect(crossing).toEqual([])
})

/** The @actions/* packages a file imports, statically or with import(). */
function actionsImports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8')
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(@actions\/[^'/]+)[^']*'/g)].map((m) => m[1] as string)
}

/** The action's face: the bundle's entry and src/action/. */
const isFace = (relative: string): boolean => relative === 'index.ts' || relative.startsWith(`action${path.sep}`)

test("only the action's face imports @actions/core", () => {
  const engine = sources(SRC).filter((f) => !f.startsWith(emulatorDir) && !isFace(path.relative(SRC, f)))
  expect(engine.filter((f) => actionsImports(f).includes('@actions/core')).map((f) => path.relative(SRC, f))).toEqual([])
})

test('every @actions/* import, where it is and why', () => {
  const found = Object.fromEntries(
    sources(SRC)
      .filter((f) => !f.startsWith(emulatorDir))
      .map((f) => [path.relative(SRC, f).split(path.sep).join('/'), [...new Set(actionsImports(f))]] as const)
      .filter(([, packages]) => packages.length > 0)
  )
  expect(found).toEqual({
    // The action's face: the port on @actions/core, the main step and the post step's dispatch.
    'index.ts': ['@actions/core'],
    'action/main.ts': ['@actions/core'],
    'action/port.ts': ['@actions/core'],
    // build-command: a child process, arguments split without a shell; a library that needs no runner.
    'build.ts': ['@actions/exec'],
    // The door to GitHub's API (octokit), a service any face may use with a token, and the run's repository.
    'github/client.ts': ['@actions/github'],
    'github/final-status.ts': ['@actions/github']
  })
})

/** A file's imports of `pattern`'s modules that load code when the file loads: every `import … from` but `import type`. */
function staticImports(file: string, pattern: RegExp): string[] {
  const text = fs.readFileSync(file, 'utf8')
  return [...text.matchAll(/^import\s+(?!type\b)[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1] as string).filter((m) => pattern.test(m))
}

test('OpenTelemetry is loaded by one module only, and only when tracing is on (docs/tracing.md)', () => {
  const engine = sources(SRC).filter((f) => !f.startsWith(emulatorDir))
  // Only the trace's door names the libraries, statically (its own imports run only when it is loaded).
  const naming = engine.filter((f) => /'@opentelemetry\//.test(fs.readFileSync(f, 'utf8'))).map((f) => path.relative(SRC, f))
  expect(naming).toEqual([path.join('tracing', 'send.ts')])
  // The door and the module that uses it are never loaded with another module: only import() reaches them.
  const doors = ['send', 'index'].map((name) => path.join(SRC, 'tracing', `${name}.js`))
  const loading = engine.flatMap((f) =>
    staticImports(f, /^\./)
      .filter((i) => doors.includes(path.resolve(path.dirname(f), i)) && path.relative(SRC, f) !== path.join('tracing', 'index.ts'))
      .map((i) => `${path.relative(SRC, f)} -> ${i}`)
  )
  expect(loading).toEqual([])
  // send.ts loads each library with import(): its static imports of them are types alone.
  expect(staticImports(path.join(SRC, 'tracing', 'send.ts'), /^@opentelemetry\//)).toEqual([])
})
