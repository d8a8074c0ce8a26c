// What one look at an environment says, in words and as evidence. Pure: report.ts loads it too. How the platform's
// ids compare and what its status words mean are the platform's rules: cloud/platform-reading.ts.

/** What the environment reported at one look: the one documented field, and a status field when the platform gave one. */
export interface EnvironmentLook {
  readonly distributionId: string | undefined
  readonly status: string | undefined
  /** Date.now() of the answer. */
  readonly at: number
}

/** "reports distribution X (status: s)", as the log and the summary say it. */
export function describeLook(look: EnvironmentLook): string {
  const runs = look.distributionId ? `reports distribution ${look.distributionId}` : 'reports no distribution'
  return look.status ? `${runs} (status: ${look.status})` : runs
}
