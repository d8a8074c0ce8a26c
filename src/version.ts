// The package's version, for --version and a trace's service.version.
import { readFileSync } from 'node:fs'

/** The package's version, from the package.json beside the bundle's folder (dist/.., dist-cli/..; status/dist/../..) or src/.. in the repository. */
export function version(): string {
  for (const path of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as { name?: string; version?: string }
      if (pkg.name === 'brcloud-deploy' && pkg.version) return pkg.version
    } catch {
      // not this one
    }
  }
  return 'unknown'
}
