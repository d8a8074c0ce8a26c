// The emulator stands in for Bloomreach Cloud in tests: it must not share code with the action it
// tests (a shared bug would pass unnoticed), and the action must never ship the emulator.
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
