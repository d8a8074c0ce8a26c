// A small zip writer for the sample distribution's webapps (a .war is a zip): stored entries, or deflated
// ones on request, each with its CRC-32, then the central directory. Written from PKWARE's APPNOTE, apart
// from the emulator's zip reader on purpose: a bug shared by the writer and the reader would pass unseen
// (the tests also read the system's zip and jar archives, and check ours with unzip when it is there).
import { deflateRawSync } from 'node:zlib'

/** Entry name -> content; a name ending with '/' is a directory entry (its content is ignored). */
export type ZipFiles = Readonly<Record<string, string | Buffer>>

const LOCAL_SIGNATURE = 0x04034b50
const CENTRAL_SIGNATURE = 0x02014b50
const END_SIGNATURE = 0x06054b50
const UTF8_NAMES = 0x0800
const STORED = 0
const DEFLATED = 8
// Made on Unix (3), APPNOTE 2.0: the external attributes carry the file mode, so unzip restores it.
const MADE_BY = (3 << 8) | 20
// Every entry is dated 1980-01-01 00:00 (DOS date: day 1, month 1, year 0): the same bytes on every run.
const DOS_TIME = 0
const DOS_DATE = (1 << 5) | 1

interface Written {
  name: Buffer
  method: number
  crc: number
  size: number
  data: Buffer
  offset: number
  mode: number
}

/** A zip of `files`, in their order. No ZIP64: refuses what needs it (4 GiB, 65535 entries). */
export function zipArchive(files: ZipFiles, options: { deflate?: boolean } = {}): Buffer {
  const names = Object.keys(files)
  if (names.length > 0xffff) throw new Error(`${names.length} entries need ZIP64, which this writer does not write`)
  const parts: Buffer[] = []
  const written: Written[] = []
  let offset = 0
  for (const name of names) {
    const entry = prepare(name, files[name] ?? '', options.deflate === true, offset)
    const local = localHeader(entry)
    parts.push(local, entry.name, entry.data)
    offset += local.length + entry.name.length + entry.data.length
    written.push(entry)
  }
  const central = written.map((entry) => Buffer.concat([centralHeader(entry), entry.name]))
  const centralSize = central.reduce((sum, header) => sum + header.length, 0)
  if (offset + centralSize > 0xffffffff) throw new Error('The archive would need ZIP64, which this writer does not write')
  return Buffer.concat([...parts, ...central, endRecord(written.length, centralSize, offset)])
}

function prepare(name: string, content: string | Buffer, deflate: boolean, offset: number): Written {
  const directory = name.endsWith('/')
  const raw = directory ? Buffer.alloc(0) : Buffer.from(content)
  const method = deflate && !directory ? DEFLATED : STORED
  const data = method === DEFLATED ? deflateRawSync(raw) : raw
  if (raw.length > 0xfffffffe || data.length > 0xfffffffe) throw new Error(`"${name}" needs ZIP64, which this writer does not write`)
  return { name: Buffer.from(name, 'utf8'), method, crc: crc32(raw), size: raw.length, data, offset, mode: directory ? 0o040755 : 0o100644 }
}

/** The fields a local header and a central header share, from "version needed" to the name's length. */
function sharedFields(entry: Written): Buffer {
  const fields = Buffer.alloc(24)
  fields.writeUInt16LE(entry.method === DEFLATED || entry.mode === 0o040755 ? 20 : 10, 0)
  fields.writeUInt16LE(UTF8_NAMES, 2)
  fields.writeUInt16LE(entry.method, 4)
  fields.writeUInt16LE(DOS_TIME, 6)
  fields.writeUInt16LE(DOS_DATE, 8)
  fields.writeUInt32LE(entry.crc, 10)
  fields.writeUInt32LE(entry.data.length, 14)
  fields.writeUInt32LE(entry.size, 18)
  fields.writeUInt16LE(entry.name.length, 22)
  return fields
}

function localHeader(entry: Written): Buffer {
  const header = Buffer.alloc(30)
  header.writeUInt32LE(LOCAL_SIGNATURE, 0)
  sharedFields(entry).copy(header, 4)
  header.writeUInt16LE(0, 28) // no extra field
  return header
}

function centralHeader(entry: Written): Buffer {
  const header = Buffer.alloc(46)
  header.writeUInt32LE(CENTRAL_SIGNATURE, 0)
  header.writeUInt16LE(MADE_BY, 4)
  sharedFields(entry).copy(header, 6)
  // Extra field, comment, disk number and internal attributes stay zero.
  const msdosDirectory = entry.mode === 0o040755 ? 0x10 : 0
  header.writeUInt32LE(((entry.mode << 16) | msdosDirectory) >>> 0, 38)
  header.writeUInt32LE(entry.offset, 42)
  return header
}

function endRecord(count: number, centralSize: number, centralOffset: number): Buffer {
  const end = Buffer.alloc(22)
  end.writeUInt32LE(END_SIGNATURE, 0)
  end.writeUInt16LE(count, 8) // entries on this disk (disks 0 and 0 before it)
  end.writeUInt16LE(count, 10)
  end.writeUInt32LE(centralSize, 12)
  end.writeUInt32LE(centralOffset, 16)
  return end // no comment
}

// CRC-32 (IEEE 802.3, reflected), one table built once.
const CRC_TABLE = Array.from({ length: 256 }, (_, byte) => {
  let value = byte
  for (let bit = 0; bit < 8; bit++) value = value & 1 ? (value >>> 1) ^ 0xedb88320 : value >>> 1
  return value >>> 0
})

export function crc32(data: Buffer): number {
  let crc = 0xffffffff
  for (const byte of data) crc = (crc >>> 8) ^ (CRC_TABLE[(crc ^ byte) & 0xff] as number)
  return (crc ^ 0xffffffff) >>> 0
}
