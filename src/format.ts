// How sizes and durations read in logs, notices and the summary.
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`
}

/** A wait before another attempt: "1.5 s". */
export function formatDelay(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`
}

/** A configured time, as exact as it was given: "0.5 s", "2 s". */
export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`
}

/** "650 MB", "712.4 MB" (1 MB = 1024 * 1024 bytes), as max-distribution-mb counts. */
export function formatMb(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`
}
