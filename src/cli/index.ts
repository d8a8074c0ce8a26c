#!/usr/bin/env node
// The brcloud command (docs/cli.md): the CLI's face of the engine. main() does the work; this ends the
// process with its code at once, since a call stopped by a cancel may still hold a socket open.
import { redact } from '../secrets.js'
import { EXIT } from './exit-codes.js'
import { main } from './main.js'

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`error: ${redact(error instanceof Error ? error.message : String(error))}\n`)
    process.exit(EXIT.failure)
  }
)
