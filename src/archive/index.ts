export type { ArchiveInfo, DistributionSource } from './types.js'
export { locateDistribution } from './locate.js'
export { packDirectory, type PackOptions } from './pack.js'
export { checkArchive, type CheckOptions } from './check.js'
