export type { ArchiveInfo, DistributionSource, ReadyArchive } from './types.js'
export { locateDistribution } from './locate.js'
export { packDirectory, type PackOptions } from './pack.js'
export { checkArchive, startArchiveCheck, HEAD_CHECK_BYTES, type ArchiveCheck, type CheckOptions } from './check.js'
