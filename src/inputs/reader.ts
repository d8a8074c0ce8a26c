// The words every group of inputs is read with: deploy.ts reads the source, and the groups it calls (code-host.ts,
// rules.ts, events.ts) take the same reader and source. Kept apart so each of them imports these, not deploy.ts.
import type { InputOptions } from '../port.js'

/** How an input is read: the port's getInput, or a stand-in. */
export type InputReader = (name: string, options?: InputOptions) => string

/** What is deployed: an archive or directory to upload, a distribution on the stack, or what another environment runs. */
export type DistributionSource =
  { readonly kind: 'upload'; readonly input: string } | { readonly kind: 'id'; readonly id: string } | { readonly kind: 'environment'; readonly name: string }
