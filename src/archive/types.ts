/** What the deploy step needs to know about the distribution it uploads. */
export interface ArchiveInfo {
  /** Absolute path of the archive on disk. */
  path: string
  /** Base name, the name it is uploaded under. */
  fileName: string
  /** Bytes. */
  size: number
  /** Hex. */
  sha256: string
  /** Hex (the platform lists distributions with md5hash). */
  md5: string
  /** Tar entries (files + dirs + links). */
  entries: number
  /** True when we packed a directory, false for an existing archive. */
  packed: boolean
  /**
   * What was odd but not wrong, one sentence each, for the caller to log as warnings (the archive
   * module logs nothing): all entries under one top-level folder, device or FIFO entries in an
   * archive, special files left out while packing. Absent when there is nothing to say.
   */
  warnings?: string[]
}

export type DistributionSource = { kind: 'archive'; path: string } | { kind: 'directory'; path: string }

/** An archive ready to upload. A given archive may still be being checked (`verified`) while it is uploaded. */
export interface ReadyArchive {
  /** Absolute path of the archive on disk. */
  path: string
  /** The name it is uploaded under. */
  fileName: string
  /** Bytes. */
  size: number
  /** True when we packed a directory. */
  packed: boolean
  /** The whole check (hashes, entries, warnings); rejects with an InputError when the archive is bad. */
  verified: Promise<ArchiveInfo>
}
