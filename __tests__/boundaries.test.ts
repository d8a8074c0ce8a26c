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

// The platform's client knows nothing of the release (issue 46): src/cloud is the door to Bloomreach Cloud, and the
// deploy step is built on it, never the other way. A rule of the platform's that both need (how its ids compare, what its
// status words mean) lives in src/cloud (cloud/platform-reading.ts). ESLint refuses the static imports too.
const cloudDir = path.join(SRC, 'cloud') + path.sep
const deployDir = path.join(SRC, 'deploy') + path.sep

test('src/cloud imports nothing from src/deploy (import type and import() included)', () => {
  const crossing = sources(cloudDir).flatMap((f) =>
    imports(f)
      .filter((i) => i.startsWith(deployDir))
      .map((i) => `${path.relative(SRC, f)} -> ${path.relative(SRC, i)}`)
  )
  expect(crossing).toEqual([])
})

/** Every module of src/ (the emulator's too) and the modules it imports: static, `import type`, `export … from` and import(). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of sources(SRC)) {
    const name = path.relative(SRC, file).split(path.sep).join('/')
    const targets = imports(file).map((i) => path.relative(SRC, i.replace(/\.js$/, '.ts')).split(path.sep).join('/'))
    graph.set(
      name,
      [...new Set(targets)].filter((t) => t !== name)
    )
  }
  return graph
}

/** The strongly connected components of more than one module (Tarjan): each is a set of modules that import each other in a loop. */
function loops(graph: Map<string, string[]>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const found: string[][] = []
  const visit = (v: string): void => {
    index.set(v, next)
    low.set(v, next++)
    stack.push(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const component: string[] = []
    let w: string
    do {
      w = stack.pop()!
      component.push(w)
    } while (w !== v)
    if (component.length > 1) found.push(component)
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return found
}

/** One loop through `component`, as "a -> b -> a": the shortest way back to its first module (breadth first). */
function oneCycle(graph: Map<string, string[]>, component: string[]): string {
  const inside = new Set(component)
  const start = [...component].sort()[0] as string
  const cameFrom = new Map<string, string>()
  const queue = [start]
  while (queue.length > 0) {
    const v = queue.shift() as string
    for (const w of graph.get(v) ?? []) {
      if (!inside.has(w)) continue
      if (w === start) {
        const way = [v]
        while (way[0] !== start) way.unshift(cameFrom.get(way[0] as string) as string)
        return [...way, start].join(' -> ')
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, v)
        queue.push(w)
      }
    }
  }
  return component.join(', ')
}

// A newcomer reads a module by what it imports: in a loop there is no first module to read. `import type` counts,
// though it is erased from the bundle: a loop of types is the same knot for a reader (each module's words are defined
// by the other's), and it is how a loop of code begins. import() counts too: it is loaded later, but still needed.
test('no import cycle among the modules of src/ (import type and import() included)', () => {
  const graph = importGraph()
  expect(loops(graph).map((component) => oneCycle(graph, component))).toEqual([])
})
