export type { ArchiveInfo, DistributionSource, ReadyArchive } from './types.js'
export { locateDistribution } from './locate.js'
export { packDirectory, type PackOptions } from './pack.js'
export { startArchiveCheck, type CheckOptions } from './check.js'
