/** What the deploy step needs to know about the distribution it uploads. */
export interface ArchiveInfo {
  /** Absolute path of the archive on disk; absent for a packed directory, which is sent as it is read and never written whole. */
  path?: string
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

/** The archive's bytes from the first, as often as asked: a file on disk, or a packed directory read as it is sent. */
export type ArchiveBytes = () => AsyncIterable<Buffer>

/**
 * An archive ready to upload. A given archive may still be being checked (`verified`) while it is
 * uploaded; a packed directory's hashes are known once its bytes were read whole (by the upload).
 */
export interface ReadyArchive {
  /** The name it is uploaded under. */
  fileName: string
  /** Bytes, exactly, before the first is read. */
  size: number
  /** True when we packed a directory. */
  packed: boolean
  bytes: ArchiveBytes
  /**
   * The whole check (hashes, entries, warnings); rejects with an InputError when the archive is bad.
   * A packed directory's settles with its first whole read, which this does not start.
   */
  verified: Promise<ArchiveInfo>
  /** `verified`, reading the archive for it when nothing read it whole yet (a packed directory before its upload). */
  hashes(): Promise<ArchiveInfo>
}
